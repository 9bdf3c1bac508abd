import Foundation
import HostSystem
import Logging
import OpenCoreMedia
import OpenCoreVideo

/// The built-in virtual camera: colour bars, a moving square, a frame index barcode and a white
/// flash frame once a second, paced in real time on the host clock; its focus, exposure, white
/// balance, torch and zoom (`VirtualCameraControls`) change the picture as a camera's do.
///
/// Formats: `'420v'`, `'420f'` and `'BGRA'` at 640x480 and 1280x720 (1–240 fps), 1920x1080
/// (1–60 fps) and 3840x2160 (1–30 fps).
///
/// Timing: frames lie on a grid of the host clock: frame `n` of duration `d` is at exactly
/// `n·d` seconds of host time, and its presentation time is that grid time, exactly, in `d`'s
/// timescale (for 30 fps, `CMTime(value: n, timescale: 30)`); consecutive frames differ by
/// exactly `d`. Each frame is drawn ahead, while the camera waits for its time, and delivered
/// as soon as the host clock reaches that time (the frame's absolute deadline, slept to with
/// `clock_nanosleep(TIMER_ABSTIME)` on the camera's own thread), so its timestamp is the ideal
/// capture instant, not the (slightly later, jittery) wake-up time, the drawing adds nothing to
/// the latency, and the schedule never drifts. The frame drawn ahead holds one of the
/// renderer's pool buffers. A frame whose successor is already due when the thread wakes is
/// skipped (dropped as `.late`; the due one is drawn then), as is a frame for which the client
/// holds every pool buffer at its deadline (`.outOfBuffers`); the next delivered sample reports
/// them in `drops`, and
/// `sequenceNumber` (counting from 0 at `start`) skips them too. The barcode carries `sequenceNumber`,
/// and so does the `FrameIndexQRCode` while `showsFrameIndexQRCode` is set.
///
/// Flash: a frame is all white (except the barcode band) when it is the first frame at or after
/// a whole second of the host clock, that is when a whole second lies in `(t - d, t]` for its
/// time `t`; at rates dividing a second evenly the flash frame's time is the whole second
/// itself, the same instant the Test Tone Microphone's beep starts.
///
/// Unplugging: `simulateDisconnect()` behaves as a camera pulled from its port, for tests of
/// what clients see then; `simulateReconnect()` plugs it in again.
package final class TestPatternCamera: CaptureDeviceBackend, @unchecked Sendable {
    package let uniqueID: String
    package let modelID = "OpenAV Test Pattern Camera"
    package let localizedName: String
    package let position: CapturePosition
    package let manufacturer = "OpenAVFoundation"
    package let isVirtual = true
    package let mediaKind = CaptureMediaKind.video
    package var isConnected: Bool { runner.isConnected }

    /// Pixel formats offered at every size.
    package static let pixelFormats: [OSType] = [
        kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
        kCVPixelFormatType_32BGRA,
    ]
    /// Sizes offered and their highest frame rates.
    package static let sizes: [(width: Int, height: Int, maxFrameRate: Int32)] = [
        (640, 480, 240), (1280, 720, 240), (1920, 1080, 60), (3840, 2160, 30),
    ]

    /// The exposure durations of every format: 1/16000 s to 1/2 s (the camera does not slow
    /// down for a long exposure; the picture just gets brighter).
    package static let exposureDurations = CMTime(value: 1, timescale: 16000)...CMTime(value: 1, timescale: 2)
    /// The ISOs of every format.
    package static let isos: ClosedRange<Float> = 25...3200
    /// The largest zoom factor of every format.
    package static let maxZoomFactor = 8.0

    package let formats: [CaptureFormat] = sizes.flatMap { size in
        pixelFormats.map { pixelFormat in
            .video(CaptureVideoFormat(pixelFormat: pixelFormat, width: size.width, height: size.height,
                                      frameRateRanges: [CaptureFrameRateRange(minRate: 1, maxRate: size.maxFrameRate)],
                                      exposureDurations: exposureDurations, isos: isos, maxZoomFactor: maxZoomFactor,
                                      fieldOfView: 70))
        }
    }

    /// The simulated focus, exposure, white balance, torch and zoom, which the picture shows.
    private let simulatedControls = VirtualCameraControls(exposureDurations: exposureDurations, isos: isos)
    package var controls: (any CaptureControls)? { simulatedControls }

    /// Whether frames show their index as a QR code (`FrameIndexQRCode`), from the next frame
    /// drawn; false at first.
    @Locked package var showsFrameIndexQRCode = false

    private static let logger = Logger(label: "OpenAVFoundation.CaptureDevices.TestPatternCamera")
    private let runner = DeviceRunner(logger: TestPatternCamera.logger)

    /// A camera; the built-in one has the default identity, further ones (several cameras, as
    /// a phone's front and back, for tests; see `CaptureDeviceRegistry.addVirtualDevice(_:)`)
    /// need their own unique ID.
    package init(uniqueID: String = "openav-virtual-test-pattern-camera", localizedName: String = "Test Pattern Camera",
                 position: CapturePosition = .unspecified) {
        self.uniqueID = uniqueID
        self.localizedName = localizedName
        self.position = position
    }

    package var isRunning: Bool { runner.isRunning }

    package func start(format: CaptureFormat, frameDuration: CMTime?,
                       handler: @escaping CaptureHandler) throws(CaptureDeviceError) {
        guard case .video(let video) = format, let offered = videoFormats.first(where: {
            $0.pixelFormat == video.pixelFormat && $0.width == video.width && $0.height == video.height
        }) else {
            throw CaptureDeviceError(.unsupportedFormat, "\(localizedName) has no format \(format)")
        }
        let duration = frameDuration ?? offered.defaultFrameDuration
        guard offered.supports(frameDuration: duration), let grid = HostTimeGrid(step: duration) else {
            throw CaptureDeviceError(.unsupportedFrameDuration,
                                     "\(localizedName) \(offered) cannot deliver frames every \(duration.seconds) s")
        }
        let controls = simulatedControls
        let showsQRCode = _showsFrameIndexQRCode
        try runner.start(self, handler: handler) { () throws(CaptureDeviceError) in
            let renderer = try TestPatternRenderer(format: offered, neutralGains: controls.neutralWhiteBalanceGains)
            Self.logger.debug("starting \(offered) every \(duration.value)/\(duration.timescale) s")
            return { deviceThread, handler in
                Self.run(renderer: renderer, controls: controls, showsQRCode: showsQRCode, grid: grid, on: deviceThread,
                         handler: handler)
                return nil
            }
        }
    }

    package func stop() {
        runner.stop()
    }

    /// Unplugs the camera, as far as anyone can tell: a running camera delivers
    /// `.failure(.disconnected)` once and stops by itself (when this returns, it has); then
    /// `isConnected` is false and `start` throws `.disconnected` until `simulateReconnect()`.
    /// Connection observers learn of the change. Unplugging an unplugged camera does nothing.
    package func simulateDisconnect() {
        runner.unplug(self)
    }

    /// Plugs the camera in again after `simulateDisconnect()`; connection observers learn of it.
    package func simulateReconnect() {
        if runner.markConnected(true) { CaptureDeviceRegistry.connectionChanged(self) }
    }

    /// The production loop: draw frame `n + 1` while waiting for its deadline, sleep to it,
    /// deliver; a frame overtaken while drawn or waited for is skipped and the next due one drawn.
    private static func run(renderer: TestPatternRenderer, controls: VirtualCameraControls, showsQRCode: Locked<Bool>,
                            grid: HostTimeGrid, on thread: DeviceThread, handler: CaptureHandler) {
        func draw(tick: UInt64, sequence: UInt64) -> CVPixelBuffer? {
            let time = grid.time(ofTick: tick)
            let state = controls.advance(to: time, frameDuration: grid.step)
            return renderer.makeFrame(index: sequence, time: time, isFlash: grid.isFirstTickOfSecond(tick), controls: state,
                                      showsQRCode: showsQRCode.wrappedValue)
        }
        thread.runFrames(on: grid, prepare: draw) { drawn, tick, sequence, drops in
            // No buffer was free when the frame was drawn ahead: the client may have returned
            // one since.
            if let frame = drawn ?? draw(tick: tick, sequence: sequence) {
                handler(.success(CaptureSample(payload: .video(frame), presentationTime: grid.time(ofTick: tick),
                                               duration: grid.step, sequenceNumber: sequence, drops: drops)))
                drops.removeAll()
            } else {
                drops.record(1, .outOfBuffers)
            }
            return true
        }
    }
}
