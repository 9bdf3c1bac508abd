import Foundation
import OpenCoreMedia

/// What a video composition instruction tells a compositor: the time range it covers and the
/// source tracks it needs. `AVVideoCompositionInstruction` is the built-in one; a custom
/// compositor may take instructions of its own classes.
public protocol AVVideoCompositionInstructionProtocol: AnyObject {
    /// The part of the composition's timeline the instruction covers.
    var timeRange: CMTimeRange { get }
    /// Whether post-processing (Core Animation on Apple platforms) is needed; nothing here.
    var enablePostProcessing: Bool { get }
    /// Whether the output changes from frame to frame even when the sources do not.
    var containsTweening: Bool { get }
    /// The IDs (`NSNumber`s) of the tracks whose frames the compositor needs; nil for all.
    var requiredSourceTrackIDs: [NSValue]? { get }
    /// A track whose frames are handed out unchanged during the instruction, or
    /// `kCMPersistentTrackID_Invalid`.
    var passthroughTrackID: CMPersistentTrackID { get }
}
