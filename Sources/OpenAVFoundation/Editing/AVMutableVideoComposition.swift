import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// A video composition you set up: its frame size, scale and rate, its instructions, and
/// optionally a compositor of your own.
open class AVMutableVideoComposition: AVVideoComposition, @unchecked Sendable {
    /// An empty video composition.
    public required init() {
        super.init()
    }

    /// A video composition showing `asset`'s video tracks as they are, to change.
    open override class func videoComposition(withPropertiesOf asset: AVAsset) async throws -> AVMutableVideoComposition {
        _ = try await asset.load(.tracks, .duration)
        return AVMutableVideoComposition(propertiesOf: asset)
    }

    /// The interval between composed frames.
    open override var frameDuration: CMTime {
        get { super.frameDuration }
        set { valuesLock.withLock { values.frameDuration = newValue } }
    }
    /// The size composed frames are rendered at, before `renderScale`.
    open override var renderSize: CGSize {
        get { super.renderSize }
        set { valuesLock.withLock { values.renderSize = newValue } }
    }
    /// The scale composed frames are rendered at.
    open override var renderScale: Float {
        get { super.renderScale }
        set { valuesLock.withLock { values.renderScale = newValue } }
    }
    /// What is drawn during each time range.
    open override var instructions: [any AVVideoCompositionInstructionProtocol] {
        get { super.instructions }
        set { valuesLock.withLock { values.instructions = newValue } }
    }
    /// A source track whose frame times the composed frames follow.
    open override var sourceTrackIDForFrameTiming: CMPersistentTrackID {
        get { super.sourceTrackIDForFrameTiming }
        set { valuesLock.withLock { values.sourceTrackIDForFrameTiming = newValue } }
    }
    /// The class of a compositor of your own, or nil for the built-in one.
    open override var customVideoCompositorClass: (any AVVideoCompositing.Type)? {
        get { super.customVideoCompositorClass }
        set { valuesLock.withLock { values.customVideoCompositorClass = newValue } }
    }
}
