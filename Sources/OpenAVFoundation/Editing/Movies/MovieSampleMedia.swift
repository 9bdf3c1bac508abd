import Foundation
import HostSystem
import OpenCoreMedia

/// The samples appended to a movie track (`AVMutableMovieTrack.append(_:decodeTime:presentationTime:)`),
/// laid end to end in decode order on the media's own timeline, kept in memory until the movie
/// is written. A track of its own, so that edits can take spans of it as they take spans of a
/// file's track.
final class MovieSampleMedia: AVAssetTrack, @unchecked Sendable {
    private struct Stored {
        var samples: [CMSampleBuffer] = []
        /// Where the next appended sample is decoded.
        var decodeEnd = CMTime.zero
        var presentationStart = CMTime.positiveInfinity
        var presentationEnd = CMTime.zero
    }

    private let stored = Locked(Stored())
    private let mediaTrackID: CMPersistentTrackID
    private let ownMediaType: AVMediaType

    init(movie: AVMovie, trackID: CMPersistentTrackID, mediaType: AVMediaType) {
        mediaTrackID = trackID
        ownMediaType = mediaType
        super.init(asset: movie, contents: TrackContents(emptyTrack: trackID, mediaType: mediaType))
    }

    /// The media's format (its first sample's) and presentation range.
    override var contents: TrackContents {
        let (first, range) = stored.withLock { ($0.samples.first, Self.range($0)) }
        var contents = TrackContents(madeTrack: mediaTrackID, mediaType: ownMediaType, formatDescription: first?.formatDescription)
        contents.timeRange = range
        return contents
    }

    /// The presentation times the samples cover; empty at zero when there are none.
    var presentationRange: CMTimeRange { stored.withLock { Self.range($0) } }

    /// The decode times the samples cover, from zero.
    var decodeRange: CMTimeRange { CMTimeRange(start: .zero, end: stored.withLock { $0.decodeEnd }) }

    private static func range(_ stored: Stored) -> CMTimeRange {
        stored.samples.isEmpty ? CMTimeRange(start: .zero, duration: .zero)
            : CMTimeRange(start: stored.presentationStart, end: stored.presentationEnd)
    }

    /// Appends `sample` at the media's decode end; gives the decode and presentation times
    /// its first sample got.
    func append(_ sample: CMSampleBuffer) throws -> (decodeTime: CMTime, presentationTime: CMTime) {
        let count = CMSampleBufferGetNumSamples(sample)
        var entries = 0
        CMSampleBufferGetSampleTimingInfoArray(sample, entryCount: 0, arrayToFill: nil, entriesNeededOut: &entries)
        var timing = [CMSampleTimingInfo](repeating: CMSampleTimingInfo(), count: max(entries, 1))
        CMSampleBufferGetSampleTimingInfoArray(sample, entryCount: timing.count, arrayToFill: &timing, entriesNeededOut: &entries)
        guard count > 0, entries > 0, timing[0].presentationTimeStamp.isNumeric else {
            throw AVError(.decodeFailed, reason: "a sample buffer appended to a movie track needs samples with presentation times")
        }
        return try stored.withLock { stored in
            let first = timing[0].decodeTimeStamp.isNumeric ? timing[0].decodeTimeStamp : timing[0].presentationTimeStamp
            let shift = stored.decodeEnd - first
            var end = stored.decodeEnd
            for index in timing.indices {
                timing[index].presentationTimeStamp = timing[index].presentationTimeStamp + shift
                if timing[index].decodeTimeStamp.isNumeric { timing[index].decodeTimeStamp = timing[index].decodeTimeStamp + shift }
                let duration = timing[index].duration.isNumeric ? timing[index].duration : .zero
                // One entry for several samples: they follow one another.
                let span = entries == 1 && count > 1 ? CMTimeMultiply(duration, multiplier: Int32(count)) : duration
                let decode = timing[index].decodeTimeStamp.isNumeric ? timing[index].decodeTimeStamp : timing[index].presentationTimeStamp
                end = max(end, decode + span)
                stored.presentationStart = min(stored.presentationStart, timing[index].presentationTimeStamp)
                stored.presentationEnd = max(stored.presentationEnd, timing[index].presentationTimeStamp + span)
            }
            guard let placed = sample.retimed(timing) else {
                throw AVError(.decodeFailed, reason: "the appended sample buffer cannot be retimed")
            }
            stored.samples.append(placed)
            stored.decodeEnd = end
            let decodeTime = timing[0].decodeTimeStamp.isNumeric ? timing[0].decodeTimeStamp : timing[0].presentationTimeStamp
            return (decodeTime, timing[0].presentationTimeStamp)
        }
    }

    /// The samples a span of presentation times needs, in decode order: those shown in it, and
    /// for video those before it back to the key frame they are decoded from.
    func samples(for range: CMTimeRange) -> [CMSampleBuffer] {
        let samples = stored.withLock { $0.samples }
        guard let first = samples.firstIndex(where: { sample in
            let start = sample.presentationTimeStamp
            let duration = sample.duration.isNumeric ? sample.duration : .zero
            return start + duration > range.start || (duration == .zero && start >= range.start)
        }) else { return [] }
        var start = first
        if ownMediaType == .video {
            while start > 0, !samples[start].isSyncSample(at: 0) { start -= 1 }
        }
        return samples[start...].filter { sample in
            let decode = sample.decodeTimeStamp.isNumeric ? sample.decodeTimeStamp : sample.presentationTimeStamp
            return decode < range.end
        }
    }
}
