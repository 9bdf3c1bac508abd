import CaptureDevices
import Foundation
import HostSystem
import MediaEngine

/// A link from input ports to an output in a capture session; sessions form them automatically.
///
/// On a video connection, orientation (`videoOrientation`, or Apple's newer
/// `videoRotationAngle`) and mirroring are applied to the buffers the output delivers: the
/// picture is turned clockwise by the angle, then, when mirrored, flipped left to right. A turn
/// by 90° or 270° delivers buffers with width and height exchanged. Setting an unsupported
/// orientation or angle, or `isVideoMirrored` while `automaticallyAdjustsVideoMirroring` is true,
/// is a programmer error (`preconditionFailure`), where Apple raises an exception.
public final class AVCaptureConnection: NSObject, @unchecked Sendable {
    /// What the connection's setters change, behind one lock.
    private struct State {
        weak var output: AVCaptureOutput?
        var isEnabled = true
        /// The clockwise rotation in degrees: 0, 90, 180 or 270.
        var rotationDegrees = 0
        var mirrored = false
        var adjustsMirroring = true
    }

    private let state: Locked<State>

    /// The ports media comes from.
    public let inputPorts: [AVCaptureInput.Port]
    /// The inputs of `inputPorts`, kept alive as long as the connection: a port holds its input
    /// weakly (the input owns its ports), and a frame still on its way to a delegate after the
    /// app released the session asks the connection for its input's device.
    private let inputs: [AVCaptureInput]

    /// The levels of the audio channels flowing through the connection, one per channel of its
    /// audio port's format when the connection was made (empty for video).
    public let audioChannels: [AVCaptureAudioChannel]

    /// A connection from ports to an output, for `AVCaptureSession.addConnection(_:)`.
    public init(inputPorts ports: [AVCaptureInput.Port], output: AVCaptureOutput) {
        inputPorts = ports
        inputs = ports.map(\.input)
        state = Locked(State(output: output))
        let channels = ports.first { $0.mediaType == .audio }?.formatDescription?.audioStreamBasicDescription?.mChannelsPerFrame ?? 0
        audioChannels = (0..<Int(channels)).map { _ in AVCaptureAudioChannel() }
    }

    /// A connection from a port to a preview layer, for `AVCaptureSession.addConnection(_:)`
    /// after `AVCaptureVideoPreviewLayer(sessionWithNoConnection:)`.
    public convenience init(inputPort port: AVCaptureInput.Port, videoPreviewLayer layer: AVCaptureVideoPreviewLayer) {
        self.init(inputPorts: [port], output: layer.previewOutput)
    }

    /// The output media goes to; nil for a preview layer's connection.
    public var output: AVCaptureOutput? {
        let receiver = receiver
        return receiver is VideoPreviewOutput ? nil : receiver
    }

    /// The preview layer the connection feeds; nil for an output's connection.
    public var videoPreviewLayer: AVCaptureVideoPreviewLayer? { (receiver as? VideoPreviewOutput)?.layer }

    /// Where the connection's media goes: its output, or the one behind a preview layer.
    var receiver: AVCaptureOutput? { state.output }

    /// Whether media flows through the connection; a change reroutes a running session's media
    /// at once.
    public var isEnabled: Bool {
        get { state.isEnabled }
        set {
            state.isEnabled = newValue
            receiver?.session?.applyIfRunning()
        }
    }

    /// Whether the connection is enabled, its ports too, and its output (or preview layer) is in
    /// a session.
    public var isActive: Bool {
        isEnabled && inputPorts.allSatisfy(\.isEnabled) && receiver?.session != nil
    }

    // MARK: Orientation

    private var isVideo: Bool { mediaTypes.contains(.video) }

    /// Whether `videoOrientation` can be set: true for video connections.
    public var isVideoOrientationSupported: Bool { isVideo }

    /// The orientation of the delivered video: `.landscapeRight` (the default) is the camera's
    /// own, `.portrait` turns it 90° clockwise, `.landscapeLeft` 180°, `.portraitUpsideDown`
    /// 270°. The same setting as `videoRotationAngle`.
    public var videoOrientation: AVCaptureVideoOrientation {
        get {
            switch state.rotationDegrees {
            case 90: .portrait
            case 180: .landscapeLeft
            case 270: .portraitUpsideDown
            default: .landscapeRight
            }
        }
        set {
            Misuse.check(isVideoOrientationSupported, .videoOrientationNotSupported)
            let degrees = switch newValue {
            case .landscapeRight: 0
            case .portrait: 90
            case .landscapeLeft: 180
            case .portraitUpsideDown: 270
            }
            state.rotationDegrees = degrees
        }
    }

    /// Whether the connection can turn its video by an angle, in degrees: 0, 90, 180 or 270 on a
    /// video connection.
    public func isVideoRotationAngleSupported(_ videoRotationAngle: CGFloat) -> Bool {
        isVideo && [0, 90, 180, 270].contains(videoRotationAngle)
    }

    /// The clockwise rotation, in degrees, applied to the delivered video (0 by default).
    /// Setting an angle `isVideoRotationAngleSupported(_:)` refuses is a programmer error.
    public var videoRotationAngle: CGFloat {
        get { CGFloat(state.rotationDegrees) }
        set {
            Misuse.check(isVideoRotationAngleSupported(newValue), .videoRotationAngleNotSupported)
            state.rotationDegrees = Int(newValue)
        }
    }

    // MARK: Mirroring

    /// Whether `isVideoMirrored` can be set: true for video connections.
    public var isVideoMirroringSupported: Bool { isVideo }

    /// Whether the delivered video is flipped left to right (after the rotation). While
    /// `automaticallyAdjustsVideoMirroring` is true it follows the camera (front cameras are
    /// mirrored) and setting it is a programmer error.
    public var isVideoMirrored: Bool {
        get {
            state.withLock { $0.adjustsMirroring ? nil : $0.mirrored } ?? (devicePosition == .front)
        }
        set {
            Misuse.check(isVideoMirroringSupported, .videoMirroringNotSupported)
            state.withLock { s in
                Misuse.check(!s.adjustsMirroring, .videoMirroredWhileAdjustedAutomatically)
                s.mirrored = newValue
            }
        }
    }

    /// Whether `isVideoMirrored` follows the camera's position (true by default): front
    /// cameras mirrored, others not.
    public var automaticallyAdjustsVideoMirroring: Bool {
        get { state.adjustsMirroring }
        set {
            let follows = devicePosition == .front
            state.withLock { s in
                // Turning the automatic off keeps the mirroring it had chosen.
                if s.adjustsMirroring && !newValue { s.mirrored = follows }
                s.adjustsMirroring = newValue
            }
        }
    }

    /// The camera feeding the connection's video, if a camera does.
    private var videoDevice: AVCaptureDevice? {
        (inputPorts.first { $0.mediaType == .video }?.input as? AVCaptureDeviceInput)?.device
    }

    private var devicePosition: AVCaptureDevice.Position? { videoDevice?.position }

    /// The active format of the camera feeding the connection's video, if a camera does.
    var activeVideoFormat: CaptureVideoFormat? { videoDevice?.activeFormat.video }

    /// The turn the output applies to each delivered picture.
    var videoTurn: QuarterTurn {
        QuarterTurn(clockwiseDegrees: state.rotationDegrees, mirrored: isVideoMirrored)
    }

    // MARK: Stabilization

    /// Whether the connection can stabilize video: false, the cameras here do not stabilize.
    public var isVideoStabilizationSupported: Bool { false }

    /// The stabilization mode the client would like (`.off` by default); stored, but the active
    /// mode stays `.off`.
    @Locked public var preferredVideoStabilizationMode = AVCaptureVideoStabilizationMode.off

    /// The stabilization applied: always `.off` (no camera here stabilizes).
    public var activeVideoStabilizationMode: AVCaptureVideoStabilizationMode { .off }

    // MARK: Scale and crop, camera intrinsics

    /// The largest `videoScaleAndCropFactor`: 1, no output here scales and crops its pictures.
    public var videoMaxScaleAndCropFactor: CGFloat { 1 }

    /// The factor by which a still image output's pictures are scaled up and centre-cropped:
    /// always 1 (their own size). Setting a factor outside 1...`videoMaxScaleAndCropFactor` is
    /// a programmer error, as on Apple platforms.
    public var videoScaleAndCropFactor: CGFloat {
        get { 1 }
        set {
            Misuse.check(newValue >= 1 && newValue <= videoMaxScaleAndCropFactor, .videoScaleAndCropFactorOutOfRange)
        }
    }

    /// Whether the connection can attach each frame's camera intrinsic matrix: false, the
    /// cameras here are not calibrated.
    public var isCameraIntrinsicMatrixDeliverySupported: Bool { false }

    /// Whether frames carry their camera intrinsic matrix: always false. Setting true while
    /// `isCameraIntrinsicMatrixDeliverySupported` is false is a programmer error, as on Apple
    /// platforms.
    public var isCameraIntrinsicMatrixDeliveryEnabled: Bool {
        get { false }
        set {
            Misuse.check(!newValue || isCameraIntrinsicMatrixDeliverySupported, .cameraIntrinsicMatrixDeliveryNotSupported)
        }
    }

    /// The media types of the connection's ports.
    var mediaTypes: [AVMediaType] { inputPorts.map(\.mediaType) }

    /// Whether a port of the connection belongs to `input`.
    func comes(from input: AVCaptureInput) -> Bool {
        inputPorts.contains { $0.belongs(to: input) }
    }
}
