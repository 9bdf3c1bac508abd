import Foundation
import HostSystem
import OpenCoreMedia
import OpenCoreVideo

/// A track of an `AVMovie`: its media (a file's track, or samples appended to it) and the edits
/// that place spans of media on the movie's timeline.
///
/// Differs from Apple: `segments` is typed `[AVAssetTrackSegment]` as on every track; its
/// elements are `AVCompositionTrackSegment`s, one for each edit.
open class AVMovieTrack: AVAssetTrack, @unchecked Sendable {
    /// The track's edits, media and own values (settable in the mutable subclass).
    struct Own {
        var edits = CompositionEdits()
        /// Whether the track still is exactly its file's track (then it reads as the file's).
        var edited = false
        var trackID: CMPersistentTrackID
        var transform = CGAffineTransform.identity
        var volume: Float = 1
        var isEnabled = true
        var timeScale: CMTimeScale = 600
        var languageCode: String?
        var extendedLanguageTag: String?
        var alternateGroupID = 0
        var layer = 0
        var storage: AVMediaDataStorage?
        var isModified = false
        /// The samples appended to the track, nil until one is.
        var appended: MovieSampleMedia?
    }

    /// The edits and values, behind one lock.
    let own: Locked<Own>
    let ownMediaType: AVMediaType
    /// The track of the movie's file this track was read as; nil for a track added to a movie.
    let fileTrack: AVAssetTrack?

    /// The track of `movie` that its file's `fileTrack` is: one edit presenting all of it.
    init(movie: AVMovie, fileTrack: AVAssetTrack) {
        let contents = fileTrack.contents
        var own = Own(trackID: contents.trackID)
        own.transform = contents.preferredTransform
        own.volume = contents.mediaType == .audio ? 1 : 0
        own.isEnabled = contents.isEnabled
        own.timeScale = contents.naturalTimeScale
        own.languageCode = contents.languageCode
        let range = contents.timeRange
        if range.isValid, range.start.isNumeric, range.duration.isNumeric, range.duration > .zero {
            own.edits.insert([CompositionEdit(range, of: fileTrack)], at: max(range.start, .zero))
        }
        self.own = Locked(own)
        ownMediaType = contents.mediaType
        self.fileTrack = fileTrack
        super.init(asset: movie, contents: contents)
    }

    /// A new empty track of `movie` with `trackID`, taking its values from `settings` when given.
    init(movie: AVMovie, trackID: CMPersistentTrackID, mediaType: AVMediaType, settings: AVAssetTrack?) {
        var own = Own(trackID: trackID)
        own.edited = true
        own.volume = mediaType == .audio ? 1 : 0
        if let settings {
            own.transform = settings.preferredTransform
            own.volume = settings.preferredVolume
            own.isEnabled = settings.isEnabled
            own.timeScale = settings.naturalTimeScale
            own.languageCode = settings.languageCode
            own.extendedLanguageTag = settings.extendedLanguageTag
            if let movieTrack = settings as? AVMovieTrack { own.alternateGroupID = movieTrack.alternateGroupID }
        }
        self.own = Locked(own)
        ownMediaType = mediaType
        fileTrack = nil
        super.init(asset: movie, contents: TrackContents(emptyTrack: trackID, mediaType: mediaType))
    }

    /// What the track is as it stands: its file's track while unedited (so it reads as the file
    /// does), else the first media's format with the track's own ID, time range and values.
    override var contents: TrackContents {
        let isChapterList = (asset as? AVMovie)?.isChapterList(own.trackID) ?? false
        return own.withLock { own in
            var contents: TrackContents
            if !own.edited, let fileTrack {
                contents = fileTrack.contents
            } else {
                let media = own.edits.edits.lazy.compactMap(\.source).first ?? own.appended
                contents = media?.contents ?? TrackContents(emptyTrack: own.trackID, mediaType: ownMediaType)
                contents.streamIndex = -1
                contents.timeRange = CMTimeRange(start: .zero, duration: own.edits.end)
                contents.statedEnd = .invalid
                contents.metadata = []
                contents.commonMetadata = []
            }
            contents.trackID = own.trackID
            contents.mediaType = ownMediaType
            contents.naturalTimeScale = own.timeScale
            contents.languageCode = own.languageCode
            contents.preferredTransform = own.transform
            contents.isEnabled = own.isEnabled
            contents.isChapterList = contents.isChapterList || isChapterList
            return contents
        }
    }

    /// The track's ID, read without working out its contents (safe under the movie's lock).
    var movieTrackID: CMPersistentTrackID { own.trackID }

    /// The track's edits as they stand.
    var currentEdits: [CompositionEdit] { own.withLock { $0.edits.edits } }

    /// The media edits are made from when a media time range is inserted: the appended
    /// samples, else the file's track.
    var media: AVAssetTrack? { own.withLock { $0.appended } ?? fileTrack }

    // MARK: Apple's properties

    /// The range of presentation times of the track's media (its appended samples, else its
    /// file's track); empty at zero when it has none.
    open var mediaPresentationTimeRange: CMTimeRange {
        if let appended = own.withLock({ $0.appended }) { return appended.presentationRange }
        return fileTrack?.timeRange ?? CMTimeRange(start: .zero, duration: .zero)
    }

    /// The range of decode times of the track's media; empty at zero when it has none.
    ///
    /// Differs from Apple: for a file's track, its presentation range (FFmpeg does not report
    /// a track's decode range).
    open var mediaDecodeTimeRange: CMTimeRange {
        if let appended = own.withLock({ $0.appended }) { return appended.decodeRange }
        return fileTrack?.timeRange ?? CMTimeRange(start: .zero, duration: .zero)
    }

    /// The track's alternate group (0: none).
    open var alternateGroupID: Int { own.alternateGroupID }

    /// Where sample data added to the track goes; nil unless set on a mutable track.
    open var mediaDataStorage: AVMediaDataStorage? { own.storage }

    /// The track's segments, one per edit in timeline order (`AVCompositionTrackSegment`s).
    open override var segments: [AVAssetTrackSegment] { currentEdits.map(\.segment) }

    /// Whether the track is enabled.
    open override var isEnabled: Bool { own.isEnabled }
    /// The track's timescale.
    open override var naturalTimeScale: CMTimeScale { own.timeScale }
    /// The track's ISO 639-2/T language code.
    open override var languageCode: String? { own.languageCode }
    /// The track's BCP 47 language tag.
    open override var extendedLanguageTag: String? { own.extendedLanguageTag }
    /// The track's display transform.
    open override var preferredTransform: CGAffineTransform { own.transform }
    /// The track's volume.
    open override var preferredVolume: Float { own.volume }
}
