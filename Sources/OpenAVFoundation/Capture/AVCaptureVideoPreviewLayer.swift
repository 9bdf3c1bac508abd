import Display
import Foundation
import HostSystem
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
    @Locked private var sessionValue: AVCaptureSession? = nil
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
        get { sessionValue }
        set { attach(to: newValue, connecting: true) }
    }

    /// Puts the layer in `session` without a connection.
    open func setSessionWithNoConnection(_ session: AVCaptureSession) {
        attach(to: session, connecting: false)
    }

    private func attach(to session: AVCaptureSession?, connecting: Bool) {
        let old = $sessionValue.withLock { value -> AVCaptureSession? in
            defer { value = session }
            return value
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
    @Locked open var videoGravity = AVLayerVideoGravity.resizeAspect

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
        return turn.unturned(CGPoint(x: (pointInLayer.x - rect.minX) / rect.width, y: (pointInLayer.y - rect.minY) / rect.height))
    }

    /// Where in the layer the camera's point `captureDevicePointOfInterest` (0 to 1 across and
    /// down the unturned picture) is shown.
    open func layerPointConverted(fromCaptureDevicePoint captureDevicePointOfInterest: CGPoint) -> CGPoint {
        let rect = videoRect
        let shown = turn.turned(captureDevicePointOfInterest)
        return CGPoint(x: rect.minX + shown.x * rect.width, y: rect.minY + shown.y * rect.height)
    }

    /// The rectangle of the camera's picture, in the 0-to-1 coordinates metadata outputs use,
    /// shown in `rectInLayerCoordinates`.
    open func metadataOutputRectConverted(fromLayerRect rectInLayerCoordinates: CGRect) -> CGRect {
        rectInLayerCoordinates.transformed { captureDevicePointConverted(fromLayerPoint: $0) }
    }

    /// Where in the layer a rectangle of the camera's picture, in the 0-to-1 coordinates metadata
    /// outputs use, is shown.
    open func layerRectConverted(fromMetadataOutputRect rectInMetadataOutputCoordinates: CGRect) -> CGRect {
        rectInMetadataOutputCoordinates.transformed { layerPointConverted(fromCaptureDevicePoint: $0) }
    }

    /// The object as the layer shows it: a copy whose bounds (and a code's corners) are in the
    /// layer's coordinates, through the connection's rotation and mirroring, the layer's bounds
    /// and its video gravity; nil when the object was not found in this layer's input's frames.
    open func transformedMetadataObject(for metadataObject: AVMetadataObject) -> AVMetadataObject? {
        guard let input = metadataObject.input, let shown = connection?.inputPorts.first?.input, input === shown else { return nil }
        return metadataObject.transformed { layerPointConverted(fromCaptureDevicePoint: $0) }
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
