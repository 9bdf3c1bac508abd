import Foundation
import HostSystem
import OpenCoreMedia
import OpenCoreVideo

/// A track of a composition: segments of source tracks laid end to end on the composition's
/// timeline. Read, exported, shown in images and played like any asset track.
///
/// Differs from Apple: `segments` is typed `[AVAssetTrackSegment]` (Swift cannot narrow an
/// inherited property's array type); its elements are `AVCompositionTrackSegment`s.
/// `segment(forTrackTime:)` is narrowed, as Apple's is.
open class AVCompositionTrack: AVAssetTrack, @unchecked Sendable {
    /// The track's edits and its own values (settable in the mutable subclass).
    struct Own {
        var edits = CompositionEdits()
        var trackID: CMPersistentTrackID
        var transform = CGAffineTransform.identity
        var volume: Float = 1
        var isEnabled = true
        var timeScale: CMTimeScale = 600
        var languageCode: String?
        var extendedLanguageTag: String?
    }

    /// The edits and values, behind one lock.
    let own: Locked<Own>
    let ownMediaType: AVMediaType

    init(composition: AVComposition, trackID: CMPersistentTrackID, mediaType: AVMediaType) {
        own = Locked(Own(trackID: trackID))
        ownMediaType = mediaType
        super.init(asset: composition, contents: TrackContents(emptyTrack: trackID, mediaType: mediaType))
    }

    /// A copy of `track` (its edits and values) belonging to `composition`.
    init(copying track: AVCompositionTrack, into composition: AVComposition) {
        ownMediaType = track.ownMediaType
        own = Locked(track.own.withLock { $0 })
        super.init(asset: composition, contents: TrackContents(emptyTrack: 0, mediaType: track.ownMediaType))
    }

    /// What the track is as it stands: the first source track's format and size, the
    /// composition track's own ID, time range and values.
    override var contents: TrackContents {
        own.withLock { own in
            let first = own.edits.edits.lazy.compactMap(\.source).first
            var contents = first?.contents ?? TrackContents(emptyTrack: own.trackID, mediaType: ownMediaType)
            contents.streamIndex = -1
            contents.trackID = own.trackID
            contents.mediaType = ownMediaType
            contents.timeRange = CMTimeRange(start: .zero, duration: own.edits.end)
            contents.statedEnd = .invalid
            contents.naturalTimeScale = own.timeScale
            contents.languageCode = own.languageCode
            contents.preferredTransform = own.transform
            contents.isEnabled = own.isEnabled
            contents.metadata = []
            contents.commonMetadata = []
            return contents
        }
    }

    /// The track's edits as they stand.
    var currentEdits: [CompositionEdit] { own.withLock { $0.edits.edits } }

    /// The track's segments, in timeline order (`AVCompositionTrackSegment`s).
    open override var segments: [AVAssetTrackSegment] { currentEdits.map(\.segment) }

    /// The segment whose target range holds `trackTime`, or the nearest one when none does.
    open override func segment(forTrackTime trackTime: CMTime) -> AVCompositionTrackSegment? {
        super.segment(forTrackTime: trackTime) as? AVCompositionTrackSegment
    }

    /// Whether the track is enabled; true unless set otherwise.
    open override var isEnabled: Bool { own.isEnabled }
    /// The timescale of the track, 600 unless set otherwise.
    open override var naturalTimeScale: CMTimeScale { own.timeScale }
    /// The track's language code, nil unless set.
    open override var languageCode: String? { own.languageCode }
    /// The track's BCP 47 language tag, nil unless set.
    open override var extendedLanguageTag: String? { own.extendedLanguageTag }
    /// The display transform, identity unless set (copy the source track's to keep its
    /// orientation, as the guide's example does).
    open override var preferredTransform: CGAffineTransform { own.transform }
    /// The track's volume, 1 unless set.
    open override var preferredVolume: Float { own.volume }
}
