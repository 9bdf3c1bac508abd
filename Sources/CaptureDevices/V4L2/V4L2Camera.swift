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
/// camera's own `DeviceThread`; the node stays open only while the camera runs. Controls
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

    private let lock = NSLock()
    /// `decodesCompressedFrames`, shared with the running stream's thread.
    private let decoding = Atomic(true)
    private var connected = true
    private var thread: DeviceThread?
    /// Whether the running stream ended by a failure (its thread is finishing or finished).
    private var failed = false
    private let logger = Logger(label: "OpenAVFoundation.CaptureDevices.V4L2Camera")

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

    package var isConnected: Bool { lock.withLock { connected } }
    package var isRunning: Bool { lock.withLock { thread != nil && !failed } }

    /// Marks the camera present again (discovery found its node answering) or gone (its node
    /// was removed); whether that changed `isConnected`.
    @discardableResult
    func markConnected(_ present: Bool = true) -> Bool {
        lock.withLock {
            defer { connected = present }
            return connected != present
        }
    }

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
        lock.lock()
        defer { lock.unlock() }
        if failed, let ended = thread {
            // The last run failed: let its thread free the node before opening it again.
            ended.stop()
            thread = nil
        }
        guard thread == nil else { throw CaptureDeviceError(.alreadyRunning, "\(localizedName) is already running") }
        let stream: V4L2Stream
        do {
            stream = try V4L2Stream(node: try V4L2Node(path: path), pixelFormat: pixelFormat, format: offered,
                                    frameDuration: duration)
        } catch {
            if error.reason == .disconnected { connected = false }
            throw error
        }
        connected = true
        failed = false
        logger.debug("starting \(path) \(offered) every \(stream.frameDuration.value)/\(stream.frameDuration.timescale) s")
        thread = DeviceThread.start(name: "OpenAV \(localizedName)") { [self] deviceThread in
            stream.run(on: deviceThread, decodes: { decoding.load(ordering: .relaxed) }) { event in
                if case .failure(let error) = event { ended(by: error, on: deviceThread) }
                handler(event)
            }
        }
    }

    /// Records a failure that ended the stream before it is delivered: the camera has stopped,
    /// and after an unplug it is no longer connected (reported to the registry's connection
    /// observers).
    private func ended(by error: CaptureDeviceError, on deviceThread: DeviceThread) {
        logger.debug("\(path) stopped: \(error)")
        let unplugged = lock.withLock { () -> Bool in
            if thread === deviceThread { failed = true }
            guard error.reason == .disconnected, connected else { return false }
            connected = false
            return true
        }
        if unplugged { CaptureDeviceRegistry.connectionChanged(self) }
    }

    package func stop() {
        let running = lock.withLock { () -> DeviceThread? in
            defer {
                thread = nil
                failed = false
            }
            return thread
        }
        running?.stop()
    }
}
