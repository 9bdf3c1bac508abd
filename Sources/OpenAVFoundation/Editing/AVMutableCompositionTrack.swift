import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// A composition track you edit: insert spans of source tracks, empty spans, remove and scale
/// time ranges, and set the track's transform, volume and language.
///
/// Differs from Apple: `segments` is read-only and typed `[AVAssetTrackSegment]` (Swift cannot
/// narrow an inherited property's array type, nor make it settable with another type); edit
/// the track with the insert, remove and scale methods.
open class AVMutableCompositionTrack: AVCompositionTrack, @unchecked Sendable {
    /// Inserts `timeRange` of `track` at `startTime`, presented at its natural duration;
    /// later media is pushed out by the range's duration. A range that runs past the source
    /// track's end is kept whole: the part with no media shows nothing (video) or silence
    /// (audio). Throws when the range is not a positive numeric span starting inside the
    /// source track, or the media types differ.
    open func insertTimeRange(_ timeRange: CMTimeRange, of track: AVAssetTrack, at startTime: CMTime) throws {
        try insertTimeRanges([NSValue(timeRange: timeRange)], of: [track], at: startTime)
    }

    /// Inserts several spans of source tracks one after the other at `startTime`.
    open func insertTimeRanges(_ timeRanges: [NSValue], of tracks: [AVAssetTrack], at startTime: CMTime) throws {
        Misuse.check(timeRanges.count == tracks.count, .timeRangesAndTracksDiffer)
        guard startTime.isNumeric, startTime >= .zero else {
            throw AVError(.invalidCompositionTrackSegmentDuration, reason: "the insertion time must be a time at or after zero")
        }
        var inserted: [CompositionEdit] = []
        for (value, track) in zip(timeRanges, tracks) {
            inserted += try CompositionEdits.edits(presenting: value.timeRangeValue, of: track, into: mediaType)
        }
        own.withLock { $0.edits.insert(inserted, at: startTime) }
    }

    /// Inserts an empty span (no media) at `timeRange.start`, pushing later media out.
    open func insertEmptyTimeRange(_ timeRange: CMTimeRange) {
        guard timeRange.isValid, timeRange.start.isNumeric, timeRange.duration.isNumeric else { return }
        own.withLock { $0.edits.insert([CompositionEdit(emptyFor: timeRange.duration)], at: timeRange.start) }
    }

    /// Removes what `timeRange` covers; later media moves in. Nothing outside the track changes.
    open func removeTimeRange(_ timeRange: CMTimeRange) {
        guard timeRange.isValid, timeRange.start.isNumeric else { return }
        own.withLock { $0.edits.remove(timeRange) }
    }

    /// Makes what `timeRange` covers last `duration`: slower or faster media (audio keeps its
    /// pitch or not, per the reading output's `audioTimePitchAlgorithm`).
    open func scaleTimeRange(_ timeRange: CMTimeRange, toDuration duration: CMTime) {
        guard timeRange.isValid, timeRange.start.isNumeric, timeRange.duration.isNumeric, timeRange.duration > .zero,
              duration.isNumeric, duration > .zero else { return }
        own.withLock { $0.edits.scale(timeRange, to: duration) }
    }

    /// Checks that `trackSegments` could make a composition track: each lasts a positive time,
    /// each starts where the previous one ends, and each non-empty one has a numeric source
    /// start and a positive source duration.
    open func validateSegments(_ trackSegments: [AVCompositionTrackSegment]) throws {
        var expectedStart: CMTime?
        for segment in trackSegments {
            let mapping = segment.timeMapping
            guard mapping.target.isValid, mapping.target.duration.isNumeric, mapping.target.duration > .zero else {
                throw AVError(.invalidCompositionTrackSegmentDuration, reason: "a segment lasts no positive numeric time")
            }
            if let expectedStart, mapping.target.start != expectedStart {
                throw AVError(.compositionTrackSegmentsNotContiguous,
                              reason: "a segment starts at \(mapping.target.start.seconds) s, not where the previous one ends (\(expectedStart.seconds) s)")
            }
            if !segment.isEmpty {
                guard mapping.source.start.isNumeric else {
                    throw AVError(.invalidCompositionTrackSegmentSourceStartTime, reason: "a segment's source start is not a numeric time")
                }
                guard mapping.source.duration.isNumeric, mapping.source.duration > .zero else {
                    throw AVError(.invalidCompositionTrackSegmentSourceDuration, reason: "a segment's source lasts no positive numeric time")
                }
            }
            expectedStart = mapping.target.end
        }
    }

    /// Whether the track is enabled for playback.
    open override var isEnabled: Bool {
        get { super.isEnabled }
        set { own.isEnabled = newValue }
    }
    /// The timescale of the track.
    open override var naturalTimeScale: CMTimeScale {
        get { super.naturalTimeScale }
        set { own.timeScale = newValue }
    }
    /// The track's ISO 639-2/T language code.
    open override var languageCode: String? {
        get { super.languageCode }
        set { own.languageCode = newValue }
    }
    /// The track's BCP 47 language tag.
    open override var extendedLanguageTag: String? {
        get { super.extendedLanguageTag }
        set { own.extendedLanguageTag = newValue }
    }
    /// The transform that displays the track upright.
    open override var preferredTransform: CGAffineTransform {
        get { super.preferredTransform }
        set { own.transform = newValue }
    }
    /// The track's volume.
    open override var preferredVolume: Float {
        get { super.preferredVolume }
        set { own.volume = newValue }
    }
}
