import Foundation
import OpenCoreMedia

/// A piece of a track's timeline: which span of the track's media (`timeMapping.source`) is
/// presented when (`timeMapping.target`), or nothing at all (an empty segment).
open class AVAssetTrackSegment: NSObject, @unchecked Sendable {
    /// The span of media and where it is presented; the source is invalid for an empty segment.
    public let timeMapping: CMTimeMapping

    init(timeMapping: CMTimeMapping) {
        self.timeMapping = timeMapping
        super.init()
    }

    /// Whether the segment presents no media (an empty edit).
    open var isEmpty: Bool { CMTIMEMAPPING_IS_EMPTY(timeMapping) }
}
