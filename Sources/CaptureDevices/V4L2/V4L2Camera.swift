import Foundation
import Logging
import Synchronization
import OpenCoreMedia
import OpenCoreVideo

/// A real camera behind a V4L2 video capture node (`/dev/videoN`): a USB webcam (UVC), a
/// Raspberry Pi camera, the kernel's `vivid` test driver.
///
/// Found by `V4L2Discovery`. Formats come from the driver's enumeration
/// (`V4L2FormatEnumeration`); each names the V4L2 pixel format it is captured in
/// (`CaptureVideoFormat.v4l2PixelFormat`) and delivers `'420v'` for Y'CbCr and compressed (Motion-JPEG, H.264)
/// sources or `'BGRA'` for RGB ones (`V4L2PixelFormat`). H.264 formats are described as `'avc1'`
/// (`codecType`): their frames come as `'avc1'` samples, with the decoded picture while
/// `decodesCompressedFrames` is true. `start` opens the node and runs a `V4L2Stream` on the
/// camera's own thread (through the `DeviceRunner` every backend shares); the node stays open only while the camera runs. Controls
/// map to Apple's (`V4L2CameraControls`, the camera's `controls`); all of them
/// (brightness, gain, flips, the driver's own) are read and set by name or identifier through
/// `driverControls()`, `value(of:)` and `setValue(_:of:)`, on a node opened for the call, running or
/// not.
///
/// An unplug while running (`ENODEV`/`EIO`) is delivered once as `.failure(.disconnected)`;
/// the camera has then stopped and `isConnected` is false. Hot-plug (`V4L2HotPlug`) and every
/// discovery report connection changes to `CaptureDeviceRegistry.connectionChanged`. Only single-planar capture nodes are
/// taken (`V4L2_CAP_VIDEO_CAPTURE`, as UVC webcams are); multi-planar-only nodes are not listed.
package final class V4L2Camera: CaptureDeviceBackend, @unchecked Sendable {
    /// The device node, such as `/dev/video0`.
    package let path: String
    /// `"<bus info>:<driver>:<card>"` (`"platform:vivid-000:vivid:vivid"`): the bus position
    /// does not change across reboots while the camera stays in the same port.
    package let uniqueID: String
    /// `"<driver>:<card>"`: the same for two cameras of one model.
    package let modelID: String
    /// The driver's card name (`"HD Pro Webcam C920"`).
    package let localizedName: String
    /// The USB manufacturer string when the camera is on USB, else the driver's name.
    package let manufacturer: String
    package let isVirtual = false
    package let mediaKind = CaptureMediaKind.video
    package let formats: [CaptureFormat]

    /// `decodesCompressedFrames`, shared with the running stream's thread.
    private let decoding = Atomic(true)
    private static let logger = Logger(label: "OpenAVFoundation.CaptureDevices.V4L2Camera")
    private let runner = DeviceRunner(logger: V4L2Camera.logger)

    /// A camera as discovery found it.
    init(path: String, uniqueID: String, modelID: String, localizedName: String, manufacturer: String,
         formats: [CaptureVideoFormat], driverControls: [V4L2Control]) {
        self.path = path
        self.uniqueID = uniqueID
        self.modelID = modelID
        self.localizedName = localizedName
        self.manufacturer = manufacturer
        self.formats = formats.map { .video($0) }
        cameraControls = V4L2CameraControls(path: path, driverControls: driverControls)
    }

    /// Apple's focus, exposure, white balance, zoom and torch on the driver's controls.
    private let cameraControls: V4L2CameraControls
    /// The camera's controls as Apple's (`V4L2CameraControls`): those the driver offers.
    package var controls: (any CaptureControls)? { cameraControls }

    /// Whether H.264 frames are decoded as well; the running stream reads it before every frame.
    package var decodesCompressedFrames: Bool {
        get { decoding.load(ordering: .relaxed) }
        set { decoding.store(newValue, ordering: .relaxed) }
    }

    package var isConnected: Bool { runner.isConnected }
    package var isRunning: Bool { runner.isRunning }

    /// Marks the camera present again (discovery found its node answering) or gone (its node
    /// was removed); whether that changed `isConnected`.
    func markConnected(_ present: Bool) -> Bool { runner.markConnected(present) }

    package func start(format: CaptureFormat, frameDuration: CMTime?,
                       handler: @escaping CaptureHandler) throws(CaptureDeviceError) {
        guard case .video(let video) = format, let offered = videoFormats.first(where: {
            $0.pixelFormat == video.pixelFormat && $0.width == video.width && $0.height == video.height
                && (video.v4l2PixelFormat == nil || $0.v4l2PixelFormat == video.v4l2PixelFormat)
        }), let fourCC = offered.v4l2PixelFormat, let pixelFormat = V4L2PixelFormat.supported(fourCC: fourCC) else {
            throw CaptureDeviceError(.unsupportedFormat, "\(localizedName) has no format \(format)")
        }
        let duration = frameDuration ?? offered.defaultFrameDuration
        guard offered.supports(frameDuration: duration) else {
            throw CaptureDeviceError(.unsupportedFrameDuration,
                                     "\(localizedName) \(offered) cannot deliver frames every \(duration.seconds) s")
        }
        try runner.start(self, handler: handler) { () throws(CaptureDeviceError) in
            let stream = try V4L2Stream(node: try V4L2Node(path: path), pixelFormat: pixelFormat, format: offered,
                                        frameDuration: duration)
            Self.logger.debug("starting \(path) \(offered) every \(stream.frameDuration.value)/\(stream.frameDuration.timescale) s")
            return { [self] deviceThread, handler in
                stream.run(on: deviceThread, decodes: { decoding.load(ordering: .relaxed) }, handler: handler)
            }
        }
    }

    package func stop() {
        runner.stop()
    }
}
