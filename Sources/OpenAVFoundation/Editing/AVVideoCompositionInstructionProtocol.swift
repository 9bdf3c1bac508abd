import Foundation
import OpenCoreMedia

/// What a video composition instruction tells a compositor: the time range it covers and the
/// source tracks it needs. `AVVideoCompositionInstruction` is the built-in one; a custom
/// compositor may take instructions of its own classes (subclasses of `NSObject`, as on Apple
/// platforms).
public protocol AVVideoCompositionInstructionProtocol: NSObjectProtocol, Sendable {
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

extension AVVideoCompositionInstructionProtocol where Self: AVVideoCompositionInstruction {
    /// The built-in instruction's track IDs, through the protocol (the class declares them
    /// non-optional, as Apple's does).
    public var requiredSourceTrackIDs: [NSValue]? {
        let ids: [NSValue] = (self as AVVideoCompositionInstruction).requiredSourceTrackIDs
        return ids
    }
}
