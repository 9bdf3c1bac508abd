import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// How the video tracks of an asset are combined into frames: size, frame rate and the
/// instructions for each time range (the guide's *Editing* chapter).
///
/// Differs from Apple, for now: the compositor that renders video compositions is not built
/// yet. The type exists so that `AVAssetExportSession.videoComposition` and the code that sets
/// it compile; an export given one fails with `AVError.operationNotSupportedForAsset`.
open class AVVideoComposition: NSObject, @unchecked Sendable {
    /// The interval between composed frames.
    open var frameDuration: CMTime { .invalid }
    /// The size composed frames are rendered at.
    open var renderSize: CGSize { .zero }
    /// The scale at which frames are rendered, 1 by default.
    open var renderScale: Float { 1 }

    /// An empty video composition.
    public override init() {
        super.init()
    }
}
