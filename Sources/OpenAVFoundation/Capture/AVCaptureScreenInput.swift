import CaptureDevices
import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// A capture input that provides video of a screen, or of a rectangle of it, with one video
/// port; add it to a session as a camera's `AVCaptureDeviceInput`.
///
/// Linux: the screens of the X11 display in `$DISPLAY`, copied with the MIT-SHM extension
/// (`XShmGetImage`; `XGetImage` where the server cannot share memory) into BGRA pixel buffers
/// timed on the host clock. Differs from Apple: the cursor is never drawn and mouse clicks are
/// never shown (`capturesCursor`, `capturesMouseClicks` are stored only), `scaleFactor` is
/// stored but not applied. When the X server goes away the session stops with
/// `AVError.deviceWasDisconnected`.
public final class AVCaptureScreenInput: AVCaptureInput, @unchecked Sendable {
    private let screen: X11Screen
    private var portStorage: [Port] = []
    private var cropRectStorage = CGRect.null
    private var minFrameDurationStorage = CMTime(value: 1, timescale: 60)
    private var scaleFactorStorage: CGFloat = 1
    private var capturesCursorStorage = true
    private var capturesMouseClicksStorage = false

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
        get { inputLock.withLock { cropRectStorage } }
        set {
            inputLock.withLock { cropRectStorage = newValue }
            let area = captureArea
            screen.cropOrigin = (area.x, area.y)
            session?.applyIfRunning()
        }
    }

    /// The shortest time between frames: the reciprocal of the highest frame rate. Linux: 1/60 s
    /// by default (Apple does not document its default); `CMTime.invalid` restores it. The
    /// frames come at exactly this interval, on a grid of the host clock, unless the machine
    /// falls behind (dropped frames are reported). Durations longer than 1 s or shorter than
    /// 1/120 s are a programmer error.
    public var minFrameDuration: CMTime {
        get { inputLock.withLock { minFrameDurationStorage } }
        set {
            let duration = newValue.isValid ? newValue : CMTime(value: 1, timescale: 60)
            precondition(duration.isNumeric && duration >= CMTime(value: 1, timescale: X11Screen.maxFrameRate)
                            && duration <= CMTime(value: 1, timescale: 1),
                         "AVCaptureScreenInput.minFrameDuration must lie between 1/120 s and 1 s")
            inputLock.withLock { minFrameDurationStorage = duration }
            session?.applyIfRunning()
        }
    }

    /// The factor the captured picture is scaled by (1 by default). Differs from Apple: stored,
    /// not applied; scale with `AVCaptureVideoDataOutput.videoSettings` width and height instead.
    public var scaleFactor: CGFloat {
        get { inputLock.withLock { scaleFactorStorage } }
        set { inputLock.withLock { scaleFactorStorage = newValue } }
    }

    /// Whether the cursor is drawn into the picture (true by default). Differs from Apple:
    /// stored only; X11's root window holds no cursor, and it is never drawn.
    public var capturesCursor: Bool {
        get { inputLock.withLock { capturesCursorStorage } }
        set { inputLock.withLock { capturesCursorStorage = newValue } }
    }

    /// Whether mouse clicks are highlighted in the picture (false by default). Differs from
    /// Apple: stored only; clicks are never shown.
    public var capturesMouseClicks: Bool {
        get { inputLock.withLock { capturesMouseClicksStorage } }
        set { inputLock.withLock { capturesMouseClicksStorage = newValue } }
    }

    /// The captured rectangle in whole pixels, clipped to the screen: the crop, or the screen.
    private var captureArea: (x: Int, y: Int, width: Int, height: Int) {
        let crop = cropRect.integral.intersection(CGRect(x: 0, y: 0, width: screen.width, height: screen.height))
        guard !crop.isNull, !crop.isEmpty else { return (0, 0, screen.width, screen.height) }
        return (Int(crop.minX), Int(crop.minY), Int(crop.width), Int(crop.height))
    }

    /// BGRA at the captured rectangle's size.
    private var captureFormat: CaptureFormat {
        let area = captureArea
        return .video(CaptureVideoFormat(pixelFormat: kCVPixelFormatType_32BGRA, width: area.width, height: area.height,
                                         frameRateRanges: [CaptureFrameRateRange(minRate: 1, maxRate: X11Screen.maxFrameRate)]))
    }

    /// The screen, at the crop's size and the minimum frame duration.
    override var captureSource: CaptureSource? {
        CaptureSource(backend: screen, format: captureFormat, frameDuration: minFrameDuration, device: nil)
    }

    /// A description for debugging.
    public override var description: String { "<AVCaptureScreenInput: \(screen.localizedName)>" }
}
