import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// A movie track you edit: insert spans of other tracks, append sample buffers to its media and
/// insert spans of that, insert empty spans, remove and scale time ranges, name other tracks
/// (a chapter list), and set its values.
///
/// Differs from Apple: appended samples are kept in memory until the movie is written; they
/// are written, with everything else, into the file `AVMovie.writeHeader(to:fileType:options:)`
/// makes, not into the media data storage file as they are appended.
open class AVMutableMovieTrack: AVMovieTrack, @unchecked Sendable {
    /// The movie the track belongs to (nil once the movie is gone).
    private var movie: AVMutableMovie? { asset as? AVMutableMovie }

    /// Marks the track edited (it no longer reads as its file's track) and modified.
    private func editing(_ change: (inout CompositionEdits) -> Void) {
        own.withLock { own in
            change(&own.edits)
            own.edited = true
            own.isModified = true
        }
    }

    // MARK: Editing

    /// Inserts `timeRange` of `track` at `startTime`, at its natural duration; later media is
    /// pushed out by the range's duration. Throws when the range is not a positive numeric
    /// span starting inside the source track, the media types differ, or `copySampleData`
    /// is true and neither the track's `mediaDataStorage` nor the movie's
    /// `defaultMediaDataStorage` is set.
    ///
    /// Differs from Apple: the samples are copied into the file when the movie is written,
    /// with or without `copySampleData`.
    open func insertTimeRange(_ timeRange: CMTimeRange, of track: AVAssetTrack, at startTime: CMTime, copySampleData: Bool) throws {
        guard startTime.isNumeric, startTime >= .zero else {
            throw AVError(.invalidCompositionTrackSegmentDuration, reason: "the insertion time must be a time at or after zero")
        }
        if copySampleData { try claimStorage() }
        let inserted = try CompositionEdits.edits(presenting: timeRange, of: track, into: mediaType)
        editing { $0.insert(inserted, at: startTime) }
    }

    /// Inserts an empty span (no media) at `timeRange.start`, pushing later media out.
    open func insertEmptyTimeRange(_ timeRange: CMTimeRange) {
        guard timeRange.isValid, timeRange.start.isNumeric, timeRange.duration.isNumeric else { return }
        editing { $0.insert([CompositionEdit(emptyFor: timeRange.duration)], at: timeRange.start) }
    }

    /// Removes what `timeRange` covers; later media moves in.
    open func removeTimeRange(_ timeRange: CMTimeRange) {
        guard timeRange.isValid, timeRange.start.isNumeric else { return }
        editing { $0.remove(timeRange) }
    }

    /// Makes what `timeRange` covers last `duration` (its samples are shown faster or slower;
    /// nothing is re-encoded).
    open func scaleTimeRange(_ timeRange: CMTimeRange, toDuration duration: CMTime) {
        guard timeRange.isValid, timeRange.start.isNumeric, timeRange.duration.isNumeric, timeRange.duration > .zero,
              duration.isNumeric, duration > .zero else { return }
        editing { $0.scale(timeRange, to: duration) }
    }

    // MARK: Media

    /// Appends the samples of `sampleBuffer` to the track's media, after those appended
    /// before (in decode order), and gives the media decode and presentation times of its first
    /// sample. Insert them into the track with `insertMediaTimeRange(_:into:)`. Throws when
    /// neither the track's `mediaDataStorage` nor the movie's `defaultMediaDataStorage` is set,
    /// the buffer's media type is not the track's, or it holds no timed samples.
    ///
    /// Differs from Apple: the samples are kept in memory until the movie is written.
    open func append(_ sampleBuffer: CMSampleBuffer, decodeTime outDecodeTime: UnsafeMutablePointer<CMTime>?,
                     presentationTime outPresentationTime: UnsafeMutablePointer<CMTime>?) throws {
        try claimStorage()
        if let format = sampleBuffer.formatDescription, !Self.mediaType(format.mediaType, fits: mediaType) {
            throw AVError(.incompatibleAsset, reason: "a sample of another media type cannot be appended to a \(mediaType.rawValue) track")
        }
        guard let movie else { throw AVError(.unknown, reason: "the track's movie is gone") }
        let media = own.withLock { own in
            if let appended = own.appended { return appended }
            let made = MovieSampleMedia(movie: movie, trackID: own.trackID, mediaType: ownMediaType)
            own.appended = made
            return made
        }
        let (decodeTime, presentationTime) = try media.append(sampleBuffer)
        own.withLock { $0.isModified = true }
        outDecodeTime?.pointee = decodeTime
        outPresentationTime?.pointee = presentationTime
    }

    /// Whether samples of format media type `format` may go into a track of `mediaType`
    /// (QuickTime text and 3GPP timed text into text and subtitle tracks alike).
    private static func mediaType(_ format: CMFormatDescription.MediaType, fits mediaType: AVMediaType) -> Bool {
        switch mediaType {
        case .video: format == .video
        case .audio: format == .audio
        case .text, .subtitle: format == .text || format == .subtitle
        default: true
        }
    }

    /// Inserts `mediaTimeRange` of the track's media (its appended samples, else its file's
    /// track) at `trackTimeRange.start`, lasting `trackTimeRange.duration` (an invalid or
    /// non-numeric duration: the media range's); later media is pushed out. False when the
    /// track has no media or a range is not a positive numeric span.
    open func insertMediaTimeRange(_ mediaTimeRange: CMTimeRange, into trackTimeRange: CMTimeRange) -> Bool {
        guard let media, mediaTimeRange.isValid, mediaTimeRange.start.isNumeric, mediaTimeRange.duration.isNumeric,
              mediaTimeRange.duration > .zero, trackTimeRange.start.isNumeric, trackTimeRange.start >= .zero else { return false }
        var edit = CompositionEdit(mediaTimeRange, of: media)
        if trackTimeRange.duration.isNumeric {
            guard trackTimeRange.duration > .zero else { return false }
            edit.mapping.target.duration = trackTimeRange.duration
        }
        editing { $0.insert([edit], at: trackTimeRange.start) }
        return true
    }

    /// Takes the storage the track's added samples go to (its own, else the movie's default)
    /// for the movie; throws when there is none, or when a file that is not the movie's is there.
    private func claimStorage() throws {
        guard let storage = mediaDataStorage ?? movie?.defaultMediaDataStorage, let url = storage.url() else {
            throw AVError(.unknown, reason: "sample data needs a place: set the track's mediaDataStorage or the movie's defaultMediaDataStorage")
        }
        try movie?.claim(url)
    }

    // MARK: Track references

    /// Makes the track name `movieTrack` as `trackAssociationType`: with `.chapterList`, the
    /// text track `movieTrack` holds this track's chapters, written as the file's chapters
    /// (a QuickTime chapter track and its `chap` reference).
    open func addTrackAssociation(to movieTrack: AVMovieTrack, type trackAssociationType: AVAssetTrack.AssociationType) {
        guard let movie, movieTrack.movieTrackID != movieTrackID else { return }
        let association = AVMovie.Association(from: movieTrackID, to: movieTrack.movieTrackID, type: trackAssociationType)
        movie.movieState.withLock { state in
            if !state.associations.contains(association) { state.associations.append(association) }
            state.isModified = true
        }
    }

    /// Removes the reference naming `movieTrack` as `trackAssociationType`.
    open func removeTrackAssociation(to movieTrack: AVMovieTrack, type trackAssociationType: AVAssetTrack.AssociationType) {
        let association = AVMovie.Association(from: movieTrackID, to: movieTrack.movieTrackID, type: trackAssociationType)
        movie?.movieState.withLock { state in
            state.associations.removeAll { $0 == association }
            state.isModified = true
        }
    }

    // MARK: Values

    /// Whether the track has changed since it was made or last written.
    open var isModified: Bool {
        get { own.isModified }
        set { own.isModified = newValue }
    }

    /// Whether the track's media is protected (never, here).
    open var hasProtectedContent: Bool { false }

    /// Where the samples added to the track go (see `AVMediaDataStorage`).
    open override var mediaDataStorage: AVMediaDataStorage? {
        get { super.mediaDataStorage }
        set { own.storage = newValue }
    }

    /// The track's alternate group (0: none).
    open override var alternateGroupID: Int {
        get { super.alternateGroupID }
        set { own.alternateGroupID = newValue }
    }

    /// The track's layer (lower in front), 0 unless set.
    open var layer: Int {
        get { own.layer }
        set { own.layer = newValue }
    }

    /// Whether the track is enabled.
    open override var isEnabled: Bool {
        get { super.isEnabled }
        set { own.isEnabled = newValue }
    }
    /// The track's timescale.
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
    /// The track's display transform.
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
