import Foundation
import OpenCoreMedia

/// How a camera focuses (`AVCaptureDevice.FocusMode`).
package enum CaptureFocusMode: Sendable, Hashable {
    /// The lens stays where it is, or goes where the client put it.
    case locked
    /// Focus once, then lock.
    case autoFocus
    /// Keep the scene in focus.
    case continuousAutoFocus
}

/// How a camera sets its exposure (`AVCaptureDevice.ExposureMode`).
package enum CaptureExposureMode: Sendable, Hashable {
    /// Exposure duration and ISO stay as they are.
    case locked
    /// Meter once, then lock.
    case autoExpose
    /// Keep metering.
    case continuousAutoExposure
    /// The client's exposure duration and ISO.
    case custom
}

/// How a camera balances colours (`AVCaptureDevice.WhiteBalanceMode`).
package enum CaptureWhiteBalanceMode: Sendable, Hashable {
    /// The gains stay as they are, or as the client set them.
    case locked
    /// Balance once, then lock.
    case autoWhiteBalance
    /// Keep balancing.
    case continuousAutoWhiteBalance
}

/// Per-channel white balance gains, each from 1 to the device's maximum.
package struct CaptureWhiteBalanceGains: Sendable, Hashable {
    /// The red gain.
    package var red: Float
    /// The green gain.
    package var green: Float
    /// The blue gain.
    package var blue: Float

    /// Gains for the three channels.
    package init(red: Float, green: Float, blue: Float) {
        (self.red, self.green, self.blue) = (red, green, blue)
    }
}

/// What a camera's controls can do. The ranges that depend on the active format (exposure
/// duration, ISO, zoom) are in `CaptureVideoFormat`.
package struct CaptureControlCapabilities: Sendable {
    /// The focus modes the camera has.
    package var focusModes: Set<CaptureFocusMode>
    /// Whether a focus point of interest can be set.
    package var focusPointOfInterest: Bool
    /// Whether the lens can be put at a chosen position.
    package var lockingFocusWithCustomLensPosition: Bool
    /// The exposure modes the camera has.
    package var exposureModes: Set<CaptureExposureMode>
    /// Whether an exposure point of interest can be set.
    package var exposurePointOfInterest: Bool
    /// The exposure target biases, in EV.
    package var exposureTargetBiasRange: ClosedRange<Float>
    /// The white balance modes the camera has.
    package var whiteBalanceModes: Set<CaptureWhiteBalanceMode>
    /// Whether white balance can be locked with chosen gains.
    package var lockingWhiteBalanceWithCustomGains: Bool
    /// The largest white balance gain (the smallest is 1).
    package var maxWhiteBalanceGain: Float
    /// Whether the camera has a torch (a continuous light).
    package var hasTorch: Bool
    /// Whether the camera has a flash for still images.
    package var hasFlash: Bool

    /// A camera whose controls can do nothing (every mode is fixed and automatic).
    package static let none = CaptureControlCapabilities(
        focusModes: [], focusPointOfInterest: false, lockingFocusWithCustomLensPosition: false, exposureModes: [],
        exposurePointOfInterest: false, exposureTargetBiasRange: 0...0, whiteBalanceModes: [],
        lockingWhiteBalanceWithCustomGains: false, maxWhiteBalanceGain: 1, hasTorch: false, hasFlash: false)
}

/// What the client asks of a camera's controls. Every change is a new `generation`; the camera
/// reports in `CaptureControlState.settledGeneration` the first frame made with all of it.
package struct CaptureControlSettings: Sendable, Equatable {
    /// The focus mode asked for.
    package var focusMode = CaptureFocusMode.continuousAutoFocus
    /// The generation that last asked for a single focus scan (`.autoFocus` set, again or not).
    package var focusScanRequest: UInt64 = 0
    /// Where to focus, from (0, 0) top left to (1, 1) bottom right of the unturned picture.
    package var focusPointOfInterest = CGPoint(x: 0.5, y: 0.5)
    /// Where to put the lens when locked (0 nearest, 1 farthest); nil: where it is.
    package var lensPosition: Float?
    /// The exposure mode asked for.
    package var exposureMode = CaptureExposureMode.continuousAutoExposure
    /// The generation that last asked for a single metering (`.autoExpose` set).
    package var exposureScanRequest: UInt64 = 0
    /// Where to meter, as `focusPointOfInterest`.
    package var exposurePointOfInterest = CGPoint(x: 0.5, y: 0.5)
    /// The exposure duration for `.custom`; nil: the current one.
    package var exposureDuration: CMTime?
    /// The ISO for `.custom`; nil: the current one.
    package var iso: Float?
    /// The automatic exposure's target, in EV from the metered exposure.
    package var exposureTargetBias: Float = 0
    /// The white balance mode asked for.
    package var whiteBalanceMode = CaptureWhiteBalanceMode.continuousAutoWhiteBalance
    /// The generation that last asked for a single balancing (`.autoWhiteBalance` set).
    package var whiteBalanceScanRequest: UInt64 = 0
    /// The gains when locked; nil: the current ones.
    package var whiteBalanceGains: CaptureWhiteBalanceGains?
    /// The torch's level, 0 (off) to 1.
    package var torchLevel: Float = 0
    /// The zoom factor to reach (1: the whole picture).
    package var zoomFactor: Double = 1
    /// How fast to reach it, in powers of two a second; nil: at once.
    package var zoomRate: Float?
    /// Counts the changes.
    package var generation: UInt64 = 0

    /// The settings a camera starts with: everything automatic, no zoom, torch off.
    package init() {}
}

/// What a camera's controls are doing, as of a frame.
package struct CaptureControlState: Sendable, Equatable {
    /// The focus mode in effect (`.autoFocus` becomes `.locked` once focused).
    package var focusMode: CaptureFocusMode
    /// Where the lens is, 0 (nearest) to 1 (farthest).
    package var lensPosition: Float
    /// Whether the lens is moving to focus.
    package var isAdjustingFocus: Bool
    /// The exposure mode in effect (`.autoExpose` becomes `.locked` once metered).
    package var exposureMode: CaptureExposureMode
    /// The exposure duration of the frame.
    package var exposureDuration: CMTime
    /// The ISO of the frame.
    package var iso: Float
    /// Whether the automatic exposure is still moving.
    package var isAdjustingExposure: Bool
    /// How far the exposure is from the automatic exposure's target, in EV.
    package var exposureTargetOffset: Float
    /// The white balance mode in effect (`.autoWhiteBalance` becomes `.locked`).
    package var whiteBalanceMode: CaptureWhiteBalanceMode
    /// The white balance gains of the frame.
    package var whiteBalanceGains: CaptureWhiteBalanceGains
    /// Whether the automatic white balance is still moving.
    package var isAdjustingWhiteBalance: Bool
    /// The zoom factor of the frame.
    package var zoomFactor: Double
    /// Whether a zoom ramp is under way.
    package var isRampingZoom: Bool
    /// The torch's level in the frame, 0 (off) to 1.
    package var torchLevel: Float
    /// The newest settings generation whose every explicit target (lens position, exposure,
    /// gains) the frame shows.
    package var settledGeneration: UInt64
    /// The frame's presentation time (`.invalid` before the first frame).
    package var time: CMTime
}

/// A camera's adjustable controls (focus, exposure, white balance, torch, zoom): the one
/// interface every camera backend offers to `AVCaptureDevice`.
///
/// The virtual camera simulates them and draws their effect (`VirtualCameraControls`); a V4L2
/// backend maps them to driver controls: focus to `V4L2_CID_FOCUS_AUTO`/`FOCUS_ABSOLUTE` (and
/// `AUTO_FOCUS_STATUS` for adjusting), exposure to `V4L2_CID_EXPOSURE_AUTO`/`EXPOSURE_ABSOLUTE`
/// and `GAIN` (as ISO), white balance to `V4L2_CID_AUTO_WHITE_BALANCE` and
/// `WHITE_BALANCE_TEMPERATURE` or `RED_BALANCE`/`BLUE_BALANCE`, zoom to `ZOOM_ABSOLUTE`, torch
/// to a flash LED's `V4L2_CID_FLASH_TORCH_INTENSITY`; `capabilities` from `VIDIOC_QUERYCTRL`.
package protocol CaptureControls: AnyObject, Sendable {
    /// What the controls can do.
    var capabilities: CaptureControlCapabilities { get }
    /// What the controls are doing now.
    var state: CaptureControlState { get }
    /// The settings a new `AVCaptureDevice` object starts from: all automatic for the virtual
    /// camera (reset by every plug-in), what the driver is doing for a V4L2 camera (left as the
    /// user or another program set it).
    var initialSettings: CaptureControlSettings { get }
    /// The gains that make the scene's light neutral (what the grey-world balance would pick).
    var neutralWhiteBalanceGains: CaptureWhiteBalanceGains { get }

    /// Asks for new settings; they take effect from the next frame (moves, such as the lens's,
    /// take as long as they take).
    func apply(_ settings: CaptureControlSettings)

    /// Calls `handler` with the state after each frame that changed it, on the device's thread
    /// (it must return quickly); nil stops the calls.
    func setStateHandler(_ handler: (@Sendable (CaptureControlState) -> Void)?)
}

extension CaptureControls {
    /// Everything automatic, no zoom, torch off.
    package var initialSettings: CaptureControlSettings { CaptureControlSettings() }

    /// The correlated colour temperature (kelvin) and tint of the light that `gains` make
    /// neutral, by the one white-balance model every camera shares.
    package func temperatureAndTint(for gains: CaptureWhiteBalanceGains) -> (temperature: Float, tint: Float) {
        let (temperature, tint) = WhiteBalanceModel.temperatureAndTint(for: gains)
        return (Float(temperature), Float(tint))
    }

    /// The gains that make light of a temperature and tint neutral (the smallest gain is 1).
    package func gains(forTemperature temperature: Float, tint: Float) -> CaptureWhiteBalanceGains {
        WhiteBalanceModel.gains(temperature: Double(temperature), tint: Double(tint))
    }
}
