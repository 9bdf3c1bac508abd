import Foundation
import MediaEngine
import OpenCoreMedia
import OpenCoreVideo

/// Where a compositor renders: the size of the composed frames in pixels, the transform from
/// the composition's render space to those pixels, and the buffers to render into.
open class AVVideoCompositionRenderContext: NSObject, @unchecked Sendable {
    /// The size of composed frames in pixels (the composition's render size times its scale).
    public let size: CGSize
    /// Maps the composition's render space onto the frames' pixels (a scale by `renderScale`).
    public let renderTransform: CGAffineTransform
    /// The composition's render scale.
    public let renderScale: Float
    /// Whether the compositor should render at its best quality (always true here).
    public let highQualityRendering = true
    /// The shape of the frames' pixels: always square (1:1) here.
    public let pixelAspectRatio = AVPixelAspectRatio(horizontalSpacing: 1, verticalSpacing: 1)
    /// The edges outside the frames' clean aperture: none here.
    public let edgeWidths = AVEdgeWidths()
    /// The video composition being rendered.
    public let videoComposition: AVVideoComposition

    private let pixelFormat: OSType
    private let pools = PixelBufferPools()
    private let poolLock = NSLock()

    init(videoComposition: AVVideoComposition, pixelFormat: OSType) {
        self.videoComposition = videoComposition
        renderScale = videoComposition.renderScale
        let scale = Double(renderScale)
        size = CGSize(width: (videoComposition.renderSize.width * scale).rounded(), height: (videoComposition.renderSize.height * scale).rounded())
        renderTransform = CGAffineTransform(scaleX: scale, y: scale)
        self.pixelFormat = pixelFormat
        super.init()
    }

    /// A buffer for a composed frame, from the context's pool.
    open func newPixelBuffer() -> CVPixelBuffer? {
        poolLock.withLock { pools.buffer(pixelFormat: pixelFormat, width: Int(size.width), height: Int(size.height)) }
    }
}
