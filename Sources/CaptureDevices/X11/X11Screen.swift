import CX11
import Foundation
import Logging
import OpenCoreMedia
import OpenCoreVideo

/// A screen of an X11 display as a video capture device: each frame is a copy of (a rectangle
/// of) the screen's root window, grabbed with `XShmGetImage` (MIT-SHM; `XGetImage` when the
/// server does not offer it) into a pooled BGRA pixel buffer.
///
/// Format: one, `'BGRA'` at the screen's size, 1–120 fps; `start` also accepts any smaller
/// BGRA size, the size of the rectangle at `cropOrigin` (which must lie on the screen).
///
/// Timing: as the Test Pattern Camera's, frames lie on a grid of the host clock (frame `n` of
/// duration `d` at exactly `n·d` seconds), each grabbed when its deadline (slept to on the
/// device's own thread) arrives; a frame whose successor is already due when the thread wakes is
/// dropped as `.late`, one for which the client holds every pool buffer as `.outOfBuffers`, and a
/// grab the server refuses as `.late` too; the next delivered sample reports them in `drops`.
/// When the server goes away the capture ends with `.failure(.disconnected)`.
///
/// The display: `displayName` for the current task, else `$DISPLAY`; without either there is no
/// screen. The cursor is not drawn (X11 leaves it out of the root window's pixels).
package final class X11Screen: CaptureDeviceBackend, @unchecked Sendable {
    /// The X display screens are looked up on, for the current task: nil (the default) is
    /// `$DISPLAY`. Tests bind it to their private Xvfb with `$displayName.withValue(_:operation:)`,
    /// which leaves the process environment, and so parallel tests, untouched.
    @TaskLocal package static var displayName: String?

    /// The highest frame rate offered.
    package static let maxFrameRate: Int32 = 120

    /// The display's name (`":1"`).
    package let display: String
    /// The screen's number on the display.
    package let screenNumber: Int32
    /// The screen's size in pixels.
    package let width: Int
    package let height: Int
    package let uniqueID: String
    package let modelID = "X11 Screen"
    package let localizedName: String
    package let manufacturer = "X.Org"
    package let isVirtual = false
    package let mediaKind = CaptureMediaKind.video
    package let isConnected = true
    package let formats: [CaptureFormat]

    private let lock = NSLock()
    private var thread: DeviceThread?
    private var origin = (x: 0, y: 0)
    private let logger = Logger(label: "OpenAVFoundation.CaptureDevices.X11Screen")

    /// Screen `screenNumber` (nil: the default screen) of the current display (`displayName`,
    /// else `$DISPLAY`); nil when there is no display, it cannot be opened, or has no such screen.
    package static func screen(number screenNumber: Int32? = nil) -> X11Screen? {
        guard let name = displayName ?? ProcessInfo.processInfo.environment["DISPLAY"], !name.isEmpty else { return nil }
        cx11_install_error_handler()
        guard let connection = XOpenDisplay(name) else { return nil }
        defer { XCloseDisplay(connection) }
        let number = screenNumber ?? XDefaultScreen(connection)
        guard number >= 0, number < XScreenCount(connection) else { return nil }
        return X11Screen(display: name, screenNumber: number, width: Int(XDisplayWidth(connection, number)),
                         height: Int(XDisplayHeight(connection, number)))
    }

    private init(display: String, screenNumber: Int32, width: Int, height: Int) {
        self.display = display
        self.screenNumber = screenNumber
        self.width = width
        self.height = height
        uniqueID = "x11:\(display).\(screenNumber)"
        localizedName = "X11 Screen \(display).\(screenNumber)"
        formats = [.video(CaptureVideoFormat(pixelFormat: kCVPixelFormatType_32BGRA, width: width, height: height,
                                             frameRateRanges: [CaptureFrameRateRange(minRate: 1, maxRate: Self.maxFrameRate)]))]
    }

    /// The top-left corner of the captured rectangle, in pixels from the screen's top-left; read
    /// at every frame, so a change while running moves the rectangle at once.
    package var cropOrigin: (x: Int, y: Int) {
        get { lock.withLock { origin } }
        set { lock.withLock { origin = newValue } }
    }

    package var isRunning: Bool { lock.withLock { thread != nil } }

    package func start(format: CaptureFormat, frameDuration: CMTime?,
                       handler: @escaping CaptureHandler) throws(CaptureDeviceError) {
        let (x, y) = cropOrigin
        guard case .video(let video) = format, video.pixelFormat == kCVPixelFormatType_32BGRA, video.width > 0,
              video.height > 0, x >= 0, y >= 0, x + video.width <= width, y + video.height <= height else {
            throw CaptureDeviceError(.unsupportedFormat, "\(localizedName) has no format \(format) at (\(x), \(y))")
        }
        let range = CaptureFrameRateRange(minRate: 1, maxRate: Self.maxFrameRate)
        let duration = frameDuration ?? CMTime(value: 1, timescale: 30)
        guard range.contains(duration), let grid = HostTimeGrid(step: duration) else {
            throw CaptureDeviceError(.unsupportedFrameDuration, "\(localizedName) cannot deliver frames every \(duration.seconds) s")
        }
        lock.lock()
        defer { lock.unlock() }
        guard thread == nil else { throw CaptureDeviceError(.alreadyRunning, "\(localizedName) is already running") }
        let grabber = try X11ScreenGrabber(displayName: display, screenNumber: screenNumber,
                                           width: video.width, height: video.height)
        logger.debug("starting \(video.width)x\(video.height) every \(duration.value)/\(duration.timescale) s, MIT-SHM: \(grabber.usesSharedMemory)")
        thread = DeviceThread.start(name: "OpenAV \(localizedName)") { [self] deviceThread in
            run(grabber: grabber, grid: grid, on: deviceThread, handler: handler)
            grabber.close()
        }
    }

    package func stop() {
        let running = lock.withLock { () -> DeviceThread? in
            defer { thread = nil }
            return thread
        }
        running?.stop()
    }

    /// The production loop: at each frame's deadline, grab and deliver.
    private func run(grabber: X11ScreenGrabber, grid: HostTimeGrid,
                     on thread: DeviceThread, handler: CaptureHandler) {
        thread.runFrames(on: grid, prepare: { _, _ in }) { _, tick, sequence, drops in
            let buffer = grabber.makeBuffer()
            let (x, y) = cropOrigin
            if let buffer, grabber.grab(x: x, y: y, into: buffer) {
                handler(.success(CaptureSample(payload: .video(buffer), presentationTime: grid.time(ofTick: tick),
                                               duration: grid.step, sequenceNumber: sequence, drops: drops)))
                drops.removeAll()
            } else if grabber.isBroken {
                handler(.failure(CaptureDeviceError(.disconnected, "\(localizedName): the X server went away")))
                return false
            } else {
                drops.record(1, buffer == nil ? .outOfBuffers : .late)
            }
            return true
        }
    }
}
