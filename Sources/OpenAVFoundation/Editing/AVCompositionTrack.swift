import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// A track of a composition: segments of source tracks laid end to end on the composition's
/// timeline. Read, exported, shown in images and played like any asset track.
///
/// Differs from Apple: `segments` is typed `[AVAssetTrackSegment]` (Swift cannot narrow an
/// inherited property's array type); its elements are `AVCompositionTrackSegment`s.
/// `segment(forTrackTime:)` is narrowed, as Apple's is.
open class AVCompositionTrack: AVAssetTrack, @unchecked Sendable {
    let editLock = NSLock()
    /// The track's edits (guarded by `editLock`).
    var edits = CompositionEdits()
    /// The track's own values (guarded by `editLock`).
    var ownTrackID: CMPersistentTrackID
    let ownMediaType: AVMediaType
    var ownTransform = CGAffineTransform.identity
    var ownVolume: Float = 1
    var ownEnabled = true
    var ownTimeScale: CMTimeScale = 600
    var ownLanguageCode: String?
    var ownExtendedLanguageTag: String?

    init(composition: AVComposition, trackID: CMPersistentTrackID, mediaType: AVMediaType) {
        ownTrackID = trackID
        ownMediaType = mediaType
        super.init(asset: composition, contents: TrackContents(emptyTrack: trackID, mediaType: mediaType))
    }

    /// A copy of `track` (its edits and values) belonging to `composition`.
    init(copying track: AVCompositionTrack, into composition: AVComposition) {
        ownMediaType = track.ownMediaType
        ownTrackID = 0
        super.init(asset: composition, contents: TrackContents(emptyTrack: 0, mediaType: track.ownMediaType))
        track.editLock.withLock {
            (edits, ownTrackID, ownTransform, ownVolume) = (track.edits, track.ownTrackID, track.ownTransform, track.ownVolume)
            (ownEnabled, ownTimeScale) = (track.ownEnabled, track.ownTimeScale)
            (ownLanguageCode, ownExtendedLanguageTag) = (track.ownLanguageCode, track.ownExtendedLanguageTag)
        }
    }

    /// What the track is as it stands: the first source track's format and size, the
    /// composition track's own ID, time range and values.
    override var contents: TrackContents {
        editLock.withLock {
            let first = edits.edits.lazy.compactMap(\.source).first
            var contents = first?.contents ?? TrackContents(emptyTrack: ownTrackID, mediaType: ownMediaType)
            contents.streamIndex = -1
            contents.trackID = ownTrackID
            contents.mediaType = ownMediaType
            contents.timeRange = CMTimeRange(start: .zero, duration: edits.end)
            contents.statedEnd = .invalid
            contents.naturalTimeScale = ownTimeScale
            contents.languageCode = ownLanguageCode
            contents.preferredTransform = ownTransform
            contents.isEnabled = ownEnabled
            contents.metadata = []
            contents.commonMetadata = []
            return contents
        }
    }

    /// The track's edits as they stand.
    var currentEdits: [CompositionEdit] { editLock.withLock { edits.edits } }

    /// The track's segments, in timeline order (`AVCompositionTrackSegment`s).
    open override var segments: [AVAssetTrackSegment] { currentEdits.map(\.segment) }

    /// The segment whose target range holds `trackTime`, or the nearest one when none does.
    open override func segment(forTrackTime trackTime: CMTime) -> AVCompositionTrackSegment? {
        super.segment(forTrackTime: trackTime) as? AVCompositionTrackSegment
    }

    /// Whether the track is enabled; true unless set otherwise.
    open override var isEnabled: Bool { editLock.withLock { ownEnabled } }
    /// The timescale of the track, 600 unless set otherwise.
    open override var naturalTimeScale: CMTimeScale { editLock.withLock { ownTimeScale } }
    /// The track's language code, nil unless set.
    open override var languageCode: String? { editLock.withLock { ownLanguageCode } }
    /// The track's BCP 47 language tag, nil unless set.
    open override var extendedLanguageTag: String? { editLock.withLock { ownExtendedLanguageTag } }
    /// The display transform, identity unless set (copy the source track's to keep its
    /// orientation, as the guide's example does).
    open override var preferredTransform: CGAffineTransform { editLock.withLock { ownTransform } }
    /// The track's volume, 1 unless set.
    open override var preferredVolume: Float { editLock.withLock { ownVolume } }
}
