import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// A video composition instruction you set up.
open class AVMutableVideoCompositionInstruction: AVVideoCompositionInstruction, @unchecked Sendable {
    /// An instruction covering no time yet, with no layers, on black.
    public required init() {
        super.init()
    }

    /// The part of the composition's timeline the instruction covers.
    open override var timeRange: CMTimeRange {
        get { super.timeRange }
        set { values.timeRange = newValue }
    }
    /// The colour behind the layers; nil for opaque black.
    open override var backgroundColor: CGColor? {
        get { super.backgroundColor }
        set { values.backgroundColor = newValue }
    }
    /// How the source tracks are drawn, the first on top.
    open override var layerInstructions: [AVVideoCompositionLayerInstruction] {
        get { super.layerInstructions }
        set { values.layerInstructions = newValue }
    }
    /// Whether post-processing is needed (accepted; no Core Animation here).
    open override var enablePostProcessing: Bool {
        get { super.enablePostProcessing }
        set { values.enablePostProcessing = newValue }
    }
}
