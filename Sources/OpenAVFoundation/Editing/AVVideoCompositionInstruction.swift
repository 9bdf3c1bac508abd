import Foundation
import HostSystem
import OpenCoreMedia
import OpenCoreVideo

/// What the built-in compositor draws during a time range: a background colour and layers,
/// the first layer instruction on top.
open class AVVideoCompositionInstruction: NSObject, AVVideoCompositionInstructionProtocol, @unchecked Sendable {
    /// Everything the instruction holds (settable in the mutable subclass).
    struct Values {
        var timeRange = CMTimeRange.invalid
        var backgroundColor: CGColor?
        var layerInstructions: [AVVideoCompositionLayerInstruction] = []
        var enablePostProcessing = true
    }

    /// The values, behind one lock.
    let values = Locked(Values())

    /// An instruction covering no time yet.
    public required override init() {
        super.init()
    }

    /// The part of the composition's timeline the instruction covers.
    open var timeRange: CMTimeRange { values.timeRange }
    /// The colour behind the layers; nil for opaque black.
    open var backgroundColor: CGColor? { values.backgroundColor }
    /// How the source tracks are drawn, the first on top.
    open var layerInstructions: [AVVideoCompositionLayerInstruction] { values.layerInstructions }
    /// Whether post-processing is needed (accepted; no Core Animation here).
    open var enablePostProcessing: Bool { values.enablePostProcessing }
    /// Always true: the built-in compositor draws every frame.
    open var containsTweening: Bool { true }
    /// The tracks of the layer instructions (`NSNumber`s).
    open var requiredSourceTrackIDs: [NSValue] { layerInstructions.map { NSNumber(value: $0.trackID) } }
    /// Always `kCMPersistentTrackID_Invalid`: frames are composed (an untouched single layer
    /// is handed out without a copy anyway).
    open var passthroughTrackID: CMPersistentTrackID { kCMPersistentTrackID_Invalid }

    /// A copy with the same values, of `type`.
    func copied<T: AVVideoCompositionInstruction>(as type: T.Type) -> T {
        let copy = T()
        let snapshot = values.withLock { $0 }
        copy.values.withLock { $0 = snapshot }
        return copy
    }

    /// An immutable copy.
    open override func copy() -> Any { copied(as: AVVideoCompositionInstruction.self) }

    /// A mutable copy.
    open override func mutableCopy() -> Any { copied(as: AVMutableVideoCompositionInstruction.self) }
}
