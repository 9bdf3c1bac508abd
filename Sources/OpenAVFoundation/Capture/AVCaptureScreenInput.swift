import CaptureDevices
import Foundation
import HostSystem
import OpenCoreMedia
import OpenCoreVideo

/// A capture input that provides video of a screen, or of a rectangle of it, with one video
/// port; add it to a session as a camera's `AVCaptureDeviceInput`.
///
/// Linux: the screens of the X11 display in `$DISPLAY`, copied with the MIT-SHM extension
/// (`XShmGetImage`; `XGetImage` where the server cannot share memory) into BGRA pixel buffers
/// timed on the host clock, with the cursor drawn in from the XFixes extension and scaled by
/// the shared pixel converter. A Wayland session's screen is captured only through XWayland
/// (what X11 clients see of it); a pure Wayland compositor's is not. When the X server goes
/// away the session stops with `AVError.deviceWasDisconnected`. Differs from Apple: the sample
/// buffers carry no mouse and keyboard metadata attachments.
public final class AVCaptureScreenInput: AVCaptureInput, @unchecked Sendable {
    private let screen: X11Screen
    private var portStorage: [Port] = []
    @Locked private var cropRectStorage = CGRect.null
    @Locked private var minFrameDurationStorage = CMTime(value: 1, timescale: 60)
    @Locked private var scaleFactorStorage: CGFloat = 1
    @Locked private var capturesCursorStorage = true
    @Locked private var capturesMouseClicksStorage = false

    /// An input for a display, or nil when it cannot be captured. Linux: `displayID` is the
    /// screen number on the X11 display in `$DISPLAY`; 0 (`CGMainDisplayID()`) is the display's
    /// default screen. Without `$DISPLAY`, or when the server cannot be reached, nil.
    public init?(displayID: CGDirectDisplayID) {
        guard let screen = X11Screen.screen(number: displayID == 0 ? nil : Int32(clamping: displayID)) else {
            return nil
        }
        self.screen = screen
        super.init()
        portStorage = [Port(input: self, mediaType: .video) { [weak self] in
            self?.captureFormat.video?.formatDescription
        }]
    }

    /// The input's ports: one video port.
    public override var ports: [Port] { portStorage }

    /// The rectangle of the screen to capture, in pixels; `CGRect.null` (the default) or an empty
    /// rectangle captures the whole screen. Linux: measured from the screen's top-left corner,
    /// rounded to whole pixels, and clipped to the screen. A new size restarts the capture; a
    /// new position alone takes effect at the next frame.
    public var cropRect: CGRect {
        get { cropRectStorage }
        set {
            cropRectStorage = newValue
            let area = captureArea
            screen.updatePicture { $0.captureArea = (area.x, area.y, area.width, area.height) }
            session?.applyIfRunning()
        }
    }

    /// The shortest time between frames: the reciprocal of the highest frame rate. Linux: 1/60 s
    /// by default (Apple does not document its default); `CMTime.invalid` restores it. The
    /// frames come at exactly this interval, on a grid of the host clock, unless the machine
    /// falls behind (dropped frames are reported). Durations longer than 1 s or shorter than
    /// 1/120 s are a programmer error.
    public var minFrameDuration: CMTime {
        get { minFrameDurationStorage }
        set {
            let duration = newValue.isValid ? newValue : CMTime(value: 1, timescale: 60)
            Misuse.check(duration.isNumeric && duration >= CMTime(value: 1, timescale: X11Screen.maxFrameRate)
                            && duration <= CMTime(value: 1, timescale: 1),
                         .screenMinFrameDurationOutOfRange)
            minFrameDurationStorage = duration
            session?.applyIfRunning()
        }
    }

    /// The factor the captured picture is scaled by: 1 (the default) delivers the captured
    /// rectangle's pixels as they are, 2 a 320×240 rectangle as 640×480 buffers. Linux: the
    /// scaled size is rounded to whole pixels (at least 1, at most 16384 a side); the picture,
    /// cursor included, is scaled bicubically by the shared pixel converter. A change restarts
    /// the capture. A factor that is not a positive number is a programmer error.
    public var scaleFactor: CGFloat {
        get { scaleFactorStorage }
        set {
            Misuse.check(newValue.isFinite && newValue > 0, .screenScaleFactorNotPositive)
            scaleFactorStorage = newValue
            session?.applyIfRunning()
        }
    }

    /// Whether the mouse cursor appears in the captured frames (true by default). Linux: the
    /// cursor's picture as the X server shows it (XFixes), blended in at the pointer's position
    /// at every frame; a server without XFixes gives frames without it. Takes effect at the
    /// next frame.
    public var capturesCursor: Bool {
        get { capturesCursorStorage }
        set {
            capturesCursorStorage = newValue
            screen.updatePicture { $0.drawsCursor = newValue }
        }
    }

    /// Whether mouse clicks are highlighted in the captured frames (false by default): a circle
    /// around the pointer while a button is down. Differs from Apple: the pointer's buttons are
    /// polled once a frame (`XQueryPointer`), so a click shorter than a frame can be missed; the
    /// ring is opaque yellow-orange (`#FFD000`), 16 pixels in radius and 4 wide, drawn under the
    /// cursor for the left, middle and right buttons. Takes effect at the next frame.
    public var capturesMouseClicks: Bool {
        get { capturesMouseClicksStorage }
        set {
            capturesMouseClicksStorage = newValue
            screen.updatePicture { $0.drawsMouseClicks = newValue }
        }
    }

    /// Whether duplicate frames are dropped (false by default). Ignored, as on Apple platforms
    /// since macOS 10.10: every frame is delivered; the value is stored only.
    @available(*, deprecated, message: "No longer supported.")
    @Locked public var removesDuplicateFrames = false

    /// The captured rectangle in whole pixels, clipped to the screen: the crop, or the screen.
    private var captureArea: (x: Int, y: Int, width: Int, height: Int) {
        let crop = cropRect.integral.intersection(CGRect(x: 0, y: 0, width: screen.width, height: screen.height))
        guard !crop.isNull, !crop.isEmpty else { return (0, 0, screen.width, screen.height) }
        return (Int(crop.minX), Int(crop.minY), Int(crop.width), Int(crop.height))
    }

    /// BGRA at the captured rectangle's size times the scale factor.
    private var captureFormat: CaptureFormat {
        let area = captureArea, factor = scaleFactor
        let scaled = { (length: Int) in Int(min(CGFloat(X11Screen.maxOutputSize), max(1, (CGFloat(length) * factor).rounded()))) }
        return .video(CaptureVideoFormat(pixelFormat: kCVPixelFormatType_32BGRA, width: scaled(area.width), height: scaled(area.height),
                                         frameRateRanges: [CaptureFrameRateRange(minRate: 1, maxRate: X11Screen.maxFrameRate)]))
    }

    /// The screen, at the crop's size and the minimum frame duration.
    override var captureSource: CaptureSource? {
        CaptureSource(backend: screen, format: captureFormat, frameDuration: minFrameDuration, device: nil)
    }

    /// A description for debugging.
    public override var description: String { "<AVCaptureScreenInput: \(screen.localizedName)>" }
}
