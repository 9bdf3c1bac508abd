import CX11
import Foundation
import HostSystem
import Logging
import OpenCoreMedia
import OpenCoreVideo

/// A screen of an X11 display as a video capture device: each frame is a copy of (a rectangle
/// of) the screen's root window, grabbed with `XShmGetImage` (MIT-SHM; `XGetImage` when the
/// server does not offer it) into a pooled BGRA pixel buffer.
///
/// Format: one, `'BGRA'` at the screen's size, 1–120 fps; `start` also accepts any other BGRA
/// size up to `maxOutputSize` a side: the picture of `picture.captureArea` (which must lie on
/// the screen; the whole screen by default) is scaled to it by the shared `PixelConverter`.
///
/// What each frame shows is `picture`, read at every frame. The pointer, drawn before the
/// picture is scaled: with `drawsCursor` the cursor as the server shows it, at the pointer's
/// position (XFixes' cursor picture; X11 leaves it out of the root window's pixels); with
/// `drawsMouseClicks` an opaque ring (`X11Pointer.clickRingColor`) around the pointer in every
/// frame grabbed while its left, middle or right button is down.
///
/// Timing: as the Test Pattern Camera's, frames lie on a grid of the host clock (frame `n` of
/// duration `d` at exactly `n·d` seconds), each grabbed when its deadline (slept to on the
/// device's own thread) arrives; a frame whose successor is already due when the thread wakes is
/// dropped as `.late`, one for which the client holds every pool buffer as `.outOfBuffers`, and a
/// grab the server refuses as `.late` too; the next delivered sample reports them in `drops`.
/// When the server goes away the capture ends with `.failure(.disconnected)`.
///
/// The display: `displayName` for the current task, else `$DISPLAY`; without either there is no
/// screen.
package final class X11Screen: CaptureDeviceBackend, @unchecked Sendable {
    /// The X display screens are looked up on, for the current task: nil (the default) is
    /// `$DISPLAY`. Tests bind it to their private Xvfb with `$displayName.withValue(_:operation:)`,
    /// which leaves the process environment, and so parallel tests, untouched.
    @TaskLocal package static var displayName: String?

    /// The highest frame rate offered.
    package static let maxFrameRate: Int32 = 120
    /// The largest width and height `start` delivers.
    package static let maxOutputSize = 16384

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

    private let runner = DeviceRunner(logger: X11Screen.logger)
    @Locked private var pictureStorage = X11ScreenPicture()
    private static let logger = Logger(label: "OpenAVFoundation.CaptureDevices.X11Screen")

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

    /// What each frame shows; read at every frame: a new position of the capture area and the
    /// pointer settings take effect at once, a new size at the next frame (the picture is
    /// scaled to the started format's size).
    package var picture: X11ScreenPicture { pictureStorage }

    /// Changes `picture` in one step (safe against concurrent changes of other fields).
    package func updatePicture(_ change: (inout X11ScreenPicture) -> Void) {
        $pictureStorage.withLock(change)
    }

    /// The capture area, or the whole screen.
    private func grabbedArea(of picture: X11ScreenPicture) -> (x: Int, y: Int, width: Int, height: Int) {
        picture.captureArea ?? (0, 0, width, height)
    }

    package var isRunning: Bool { runner.isRunning }

    package func start(format: CaptureFormat, frameDuration: CMTime?,
                       handler: @escaping CaptureHandler) throws(CaptureDeviceError) {
        let area = grabbedArea(of: picture)
        guard case .video(let video) = format, video.pixelFormat == kCVPixelFormatType_32BGRA,
              (1...Self.maxOutputSize).contains(video.width), (1...Self.maxOutputSize).contains(video.height) else {
            throw CaptureDeviceError(.unsupportedFormat, "\(localizedName) has no format \(format)")
        }
        guard area.x >= 0, area.y >= 0, area.width > 0, area.height > 0, area.x + area.width <= width,
              area.y + area.height <= height else {
            throw CaptureDeviceError(.unsupportedFormat, "\(localizedName) has no rectangle \(area)")
        }
        let range = CaptureFrameRateRange(minRate: 1, maxRate: Self.maxFrameRate)
        let duration = frameDuration ?? CMTime(value: 1, timescale: 30)
        guard range.contains(duration), let grid = HostTimeGrid(step: duration) else {
            throw CaptureDeviceError(.unsupportedFrameDuration, "\(localizedName) cannot deliver frames every \(duration.seconds) s")
        }
        try runner.start(self, handler: handler) { () throws(CaptureDeviceError) in
            let grabber = try X11ScreenGrabber(displayName: display, screenNumber: screenNumber, width: area.width,
                                               height: area.height, outputWidth: video.width, outputHeight: video.height)
            Self.logger.debug("starting \(area) into \(video.width)x\(video.height) every \(duration.value)/\(duration.timescale) s, MIT-SHM: \(grabber.usesSharedMemory)")
            return { [self] deviceThread, handler in run(grabber: grabber, grid: grid, on: deviceThread, handler: handler) }
        }
    }

    package func stop() {
        runner.stop()
    }

    /// The production loop: at each frame's deadline, grab and deliver, until a stop is asked
    /// for (nil) or the server goes away (the error). A new size of the capture area replaces
    /// the grabber (a new connection) before the grab.
    private func run(grabber first: X11ScreenGrabber, grid: HostTimeGrid,
                     on thread: DeviceThread, handler: CaptureHandler) -> CaptureDeviceError? {
        var grabber = first
        var failure: CaptureDeviceError?
        defer { grabber.close() }
        thread.runFrames(on: grid, prepare: { _, _ in }) { _, tick, sequence, drops in
            let picture = picture, area = grabbedArea(of: picture)
            if (area.width, area.height) != (grabber.width, grabber.height) {
                grabber.close()
                do throws(CaptureDeviceError) {
                    grabber = try X11ScreenGrabber(displayName: display, screenNumber: screenNumber, width: area.width,
                                                   height: area.height, outputWidth: grabber.outputWidth,
                                                   outputHeight: grabber.outputHeight)
                } catch {
                    failure = error
                    return false
                }
            }
            let buffer = grabber.makeBuffer()
            if let buffer, grabber.grab(x: area.x, y: area.y, into: buffer, cursor: picture.drawsCursor,
                                           clicks: picture.drawsMouseClicks) {
                handler(.success(CaptureSample(payload: .video(buffer), presentationTime: grid.time(ofTick: tick),
                                               duration: grid.step, sequenceNumber: sequence, drops: drops)))
                drops.removeAll()
            } else if grabber.isBroken {
                failure = CaptureDeviceError(.disconnected, "\(localizedName): the X server went away")
                return false
            } else {
                drops.record(1, buffer == nil ? .outOfBuffers : .late)
            }
            return true
        }
        return failure
    }
}

/// What an `X11Screen`'s frames show: a rectangle of the screen, and what is drawn over it.
package struct X11ScreenPicture: Sendable {
    /// The rectangle of the screen, in pixels from its top-left corner; nil (the default) is
    /// the whole screen.
    package var captureArea: (x: Int, y: Int, width: Int, height: Int)?
    /// Whether the cursor is drawn over the frames (true by default).
    package var drawsCursor = true
    /// Whether a ring is drawn around the pointer while a button is down (false by default).
    package var drawsMouseClicks = false

    /// The whole screen with the cursor and without click rings.
    package init() {}
}
