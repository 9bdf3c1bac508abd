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

    /// A video composition showing `asset`'s video tracks as they are (see
    /// `videoComposition(withPropertiesOf:)`), each instruction a copy of `prototypeInstruction`
    /// with its time range and layers: what does not concern layout and timing, such as the
    /// background colour, comes from the prototype.
    public convenience init(propertiesOf asset: AVAsset, prototypeInstruction: AVVideoCompositionInstruction) {
        self.init()
        let properties = Self.values(propertiesOf: asset, prototype: prototypeInstruction)
        values.withLock { $0 = properties }
    }

    /// A video composition showing `asset`'s video tracks as they are, to change.
    open override class func videoComposition(withPropertiesOf asset: AVAsset) async throws -> AVMutableVideoComposition {
        _ = try await asset.load(.tracks, .duration)
        let composition = self.init()
        let properties = values(propertiesOf: asset)
        composition.values.withLock { $0 = properties }
        return composition
    }

    /// The same, answered on an arbitrary queue.
    open override class func videoComposition(withPropertiesOf asset: AVAsset,
                                              completionHandler: @escaping @Sendable (AVMutableVideoComposition?, (any Error)?) -> Void) {
        let made = self
        Task {
            do {
                completionHandler(try await made.videoComposition(withPropertiesOf: asset), nil)
            } catch {
                completionHandler(nil, error)
            }
        }
    }

    /// A video composition showing `asset`'s video tracks as they are, its instructions
    /// copies of `prototypeInstruction` (see `init(propertiesOf:prototypeInstruction:)`), once
    /// the asset's tracks and duration have loaded.
    open class func videoComposition(withPropertiesOf asset: AVAsset,
                                     prototypeInstruction: AVVideoCompositionInstruction) async throws -> AVMutableVideoComposition {
        _ = try await asset.load(.tracks, .duration)
        let composition = self.init()
        let properties = values(propertiesOf: asset, prototype: prototypeInstruction)
        composition.values.withLock { $0 = properties }
        return composition
    }

    /// The same, answered on an arbitrary queue.
    open class func videoComposition(withPropertiesOf asset: AVAsset, prototypeInstruction: AVVideoCompositionInstruction,
                                     completionHandler: @escaping @Sendable (AVMutableVideoComposition?, (any Error)?) -> Void) {
        let made = self
        Task {
            do {
                completionHandler(try await made.videoComposition(withPropertiesOf: asset, prototypeInstruction: prototypeInstruction), nil)
            } catch {
                completionHandler(nil, error)
            }
        }
    }

    /// The interval between composed frames.
    open override var frameDuration: CMTime {
        get { super.frameDuration }
        set { values.frameDuration = newValue }
    }
    /// The size composed frames are rendered at, before `renderScale`.
    open override var renderSize: CGSize {
        get { super.renderSize }
        set { values.renderSize = newValue }
    }
    /// The scale composed frames are rendered at.
    open override var renderScale: Float {
        get { super.renderScale }
        set { values.renderScale = newValue }
    }
    /// What is drawn during each time range.
    open override var instructions: [any AVVideoCompositionInstructionProtocol] {
        get { super.instructions }
        set { values.instructions = newValue }
    }
    /// A source track whose frame times the composed frames follow.
    open override var sourceTrackIDForFrameTiming: CMPersistentTrackID {
        get { super.sourceTrackIDForFrameTiming }
        set { values.sourceTrackIDForFrameTiming = newValue }
    }
    /// The class of a compositor of your own, or nil for the built-in one.
    open override var customVideoCompositorClass: (any AVVideoCompositing.Type)? {
        get { super.customVideoCompositorClass }
        set { values.customVideoCompositorClass = newValue }
    }
    /// The colour primaries of composed frames, or nil for the sources' own.
    open override var colorPrimaries: String? {
        get { super.colorPrimaries }
        set { values.colorPrimaries = newValue }
    }
    /// The transfer function of composed frames, or nil for the sources' own.
    open override var colorTransferFunction: String? {
        get { super.colorTransferFunction }
        set { values.colorTransferFunction = newValue }
    }
    /// The Y'CbCr matrix of composed frames, or nil for the sources' own.
    open override var colorYCbCrMatrix: String? {
        get { super.colorYCbCrMatrix }
        set { values.colorYCbCrMatrix = newValue }
    }
}
