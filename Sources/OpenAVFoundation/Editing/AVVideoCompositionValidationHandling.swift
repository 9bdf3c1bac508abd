import Foundation
import OpenCoreMedia

/// Told what `AVVideoComposition.isValid(for:timeRange:validationDelegate:)` finds wrong; each
/// method returns whether to go on looking. Every method has a default that goes on, as
/// Apple's optional methods do. Conforming classes subclass `NSObject`, as on Apple platforms.
public protocol AVVideoCompositionValidationHandling: NSObjectProtocol {
    /// A composition property (`renderSize`, `frameDuration`, `renderScale`, …) is invalid.
    func videoComposition(_ videoComposition: AVVideoComposition, shouldContinueValidatingAfterFindingInvalidValueForKey key: String) -> Bool
    /// No instruction covers `timeRange`.
    func videoComposition(_ videoComposition: AVVideoComposition, shouldContinueValidatingAfterFindingEmptyTimeRange timeRange: CMTimeRange) -> Bool
    /// An instruction's time range is invalid or overlaps another's.
    func videoComposition(_ videoComposition: AVVideoComposition,
                          shouldContinueValidatingAfterFindingInvalidTimeRangeIn videoCompositionInstruction: any AVVideoCompositionInstructionProtocol) -> Bool
    /// A layer instruction names a track the asset does not have.
    func videoComposition(_ videoComposition: AVVideoComposition,
                          shouldContinueValidatingAfterFindingInvalidTrackIDIn videoCompositionInstruction: any AVVideoCompositionInstructionProtocol,
                          layerInstruction: AVVideoCompositionLayerInstruction, asset: AVAsset) -> Bool
}

extension AVVideoCompositionValidationHandling {
    /// Goes on validating.
    public func videoComposition(_ videoComposition: AVVideoComposition, shouldContinueValidatingAfterFindingInvalidValueForKey key: String) -> Bool { true }
    /// Goes on validating.
    public func videoComposition(_ videoComposition: AVVideoComposition, shouldContinueValidatingAfterFindingEmptyTimeRange timeRange: CMTimeRange) -> Bool { true }
    /// Goes on validating.
    public func videoComposition(_ videoComposition: AVVideoComposition,
                                 shouldContinueValidatingAfterFindingInvalidTimeRangeIn videoCompositionInstruction: any AVVideoCompositionInstructionProtocol) -> Bool { true }
    /// Goes on validating.
    public func videoComposition(_ videoComposition: AVVideoComposition,
                                 shouldContinueValidatingAfterFindingInvalidTrackIDIn videoCompositionInstruction: any AVVideoCompositionInstructionProtocol,
                                 layerInstruction: AVVideoCompositionLayerInstruction, asset: AVAsset) -> Bool { true }
}
