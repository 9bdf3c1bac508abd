import Display
import Foundation
import MediaEngine
import OpenCoreVideo

/// A layer that shows what a capture session's camera sees: put it in an `AVDisplayWindow` (the
/// Linux addition that stands where a view stands on Apple platforms).
///
/// The layer has a connection of its own in the session, whose orientation and mirroring turn
/// the picture. It shows the newest picture the camera gave each time its window redraws,
/// without waiting on the session's other outputs; pictures it does not get to are dropped, so a
/// recording from the same session is never slowed by its preview.
open class AVCaptureVideoPreviewLayer: CALayer, @unchecked Sendable {
    /// The output that stands behind the layer in its session.
    let previewOutput = VideoPreviewOutput()
    private let lock = NSLock()
    private var sessionValue: AVCaptureSession?
    private var gravity = AVLayerVideoGravity.resizeAspect
    // The display thread's own: pictures converted to a format a window shows.
    private let converter = PixelConverter()
    private let pools = PixelBufferPools()
    private var converted: (source: CVPixelBuffer, picture: CVPixelBuffer)?

    /// Creates a layer showing `session`'s video, connected to its first video input port.
    public convenience init(session: AVCaptureSession) {
        self.init()
        self.session = session
    }

    /// Creates a layer in `session` without a connection; add one made with
    /// `AVCaptureConnection(inputPort:videoPreviewLayer:)`.
    public convenience init(sessionWithNoConnection session: AVCaptureSession) {
        self.init()
        setSessionWithNoConnection(session)
    }

    /// Creates a layer showing no session.
    public override init() {
        super.init()
        previewOutput.layer = self
    }

    deinit {
        sessionValue?.removeOutput(previewOutput)
    }

    /// The session whose video the layer shows; setting it connects the layer to the session's
    /// video input port.
    open var session: AVCaptureSession? {
        get { lock.withLock { sessionValue } }
        set { attach(to: newValue, connecting: true) }
    }

    /// Puts the layer in `session` without a connection.
    open func setSessionWithNoConnection(_ session: AVCaptureSession) {
        attach(to: session, connecting: false)
    }

    private func attach(to session: AVCaptureSession?, connecting: Bool) {
        let old = lock.withLock { () -> AVCaptureSession? in
            defer { sessionValue = session }
            return sessionValue
        }
        old?.removeOutput(previewOutput)
        guard let session else { return }
        if connecting {
            session.addOutput(previewOutput)
        } else {
            session.addOutputWithNoConnections(previewOutput)
        }
    }

    /// The layer's connection in its session: its orientation and mirroring turn the picture.
    open var connection: AVCaptureConnection? { previewOutput.connections.first }

    /// Whether the layer is showing its session's video: the session is running and the
    /// layer's connection is active.
    open var isPreviewing: Bool {
        guard let session, session.isRunning, let connection else { return false }
        return connection.isActive
    }

    /// How the video fits the layer's bounds; `.resizeAspect` by default.
    open var videoGravity: AVLayerVideoGravity {
        get { lock.withLock { gravity } }
        set { lock.withLock { gravity = newValue } }
    }

    // MARK: Converting between the layer's and the camera's coordinates

    /// The turn the connection gives the picture.
    private var turn: QuarterTurn { connection?.videoTurn ?? .identity }

    /// The camera's picture size, turned as the layer shows it.
    private var shownSize: CGSize {
        let size: CGSize
        if let picture = previewOutput.picture {
            size = CGSize(width: CVPixelBufferGetWidth(picture), height: CVPixelBufferGetHeight(picture))
        } else if let format = connection?.activeVideoFormat {
            size = CGSize(width: format.width, height: format.height)
        } else {
            return .zero
        }
        return turn.b != 0 ? CGSize(width: size.height, height: size.width) : size
    }

    /// Where the picture is shown in the layer's bounds.
    var videoRect: CGRect { videoGravity.videoRect(for: shownSize, in: bounds) }

    /// The point of the camera's picture (0 to 1 across and down the unturned picture, as focus
    /// and exposure points of interest take it) shown at `pointInLayer`.
    open func captureDevicePointConverted(fromLayerPoint pointInLayer: CGPoint) -> CGPoint {
        let rect = videoRect
        guard rect.width > 0, rect.height > 0 else { return .zero }
        let u = (pointInLayer.x - rect.minX) / rect.width - 0.5, v = (pointInLayer.y - rect.minY) / rect.height - 0.5
        let t = turn
        // The turn is a signed permutation: its inverse is its transpose.
        return CGPoint(x: CGFloat(t.a) * u + CGFloat(t.b) * v + 0.5, y: CGFloat(t.c) * u + CGFloat(t.d) * v + 0.5)
    }

    /// Where in the layer the camera's point `captureDevicePointOfInterest` (0 to 1 across and
    /// down the unturned picture) is shown.
    open func layerPointConverted(fromCaptureDevicePoint captureDevicePointOfInterest: CGPoint) -> CGPoint {
        let rect = videoRect
        let x = captureDevicePointOfInterest.x - 0.5, y = captureDevicePointOfInterest.y - 0.5
        let t = turn
        let u = CGFloat(t.a) * x + CGFloat(t.c) * y, v = CGFloat(t.b) * x + CGFloat(t.d) * y
        return CGPoint(x: rect.minX + (u + 0.5) * rect.width, y: rect.minY + (v + 0.5) * rect.height)
    }

    /// The rectangle of the camera's picture, in the 0-to-1 coordinates metadata outputs use,
    /// shown in `rectInLayerCoordinates`.
    open func metadataOutputRectConverted(fromLayerRect rectInLayerCoordinates: CGRect) -> CGRect {
        Self.enclosing(captureDevicePointConverted(fromLayerPoint: rectInLayerCoordinates.origin),
                       captureDevicePointConverted(fromLayerPoint: CGPoint(x: rectInLayerCoordinates.maxX, y: rectInLayerCoordinates.maxY)))
    }

    /// Where in the layer a rectangle of the camera's picture, in the 0-to-1 coordinates metadata
    /// outputs use, is shown.
    open func layerRectConverted(fromMetadataOutputRect rectInMetadataOutputCoordinates: CGRect) -> CGRect {
        Self.enclosing(layerPointConverted(fromCaptureDevicePoint: rectInMetadataOutputCoordinates.origin),
                       layerPointConverted(fromCaptureDevicePoint: CGPoint(x: rectInMetadataOutputCoordinates.maxX,
                                                                           y: rectInMetadataOutputCoordinates.maxY)))
    }

    /// The rectangle with opposite corners `a` and `b`.
    private static func enclosing(_ a: CGPoint, _ b: CGPoint) -> CGRect {
        CGRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x), height: abs(a.y - b.y))
    }

    // MARK: Drawing

    /// The newest picture of the camera, in a format the window shows (converted once per
    /// picture when the camera's is not one), turned as the connection says.
    override func currentPicture() -> LayerPicture? {
        guard var picture = previewOutput.takePicture() else { return nil }
        if !VideoWindow.pixelFormats.contains(CVPixelBufferGetPixelFormatType(picture)) {
            let source = picture
            if let converted, converted.source === source {
                picture = converted.picture
            } else {
                guard let buffer = pools.buffer(pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange,
                                                width: CVPixelBufferGetWidth(picture), height: CVPixelBufferGetHeight(picture)),
                      (try? converter.convert(picture, into: buffer)) != nil else { return nil }
                converted = (source, buffer)
                picture = buffer
            }
        }
        let t = turn
        return LayerPicture(buffer: picture, rect: videoRect, clip: bounds,
                            transform: CGAffineTransform(a: CGFloat(t.a), b: CGFloat(t.b), c: CGFloat(t.c), d: CGFloat(t.d), tx: 0, ty: 0))
    }
}
