import CV4L2
import Foundation
import HostSystem
import Logging
import OpenCoreMedia

/// Apple's camera controls on a V4L2 camera's driver controls, as far as the driver offers them:
///
/// - focus: `V4L2_CID_FOCUS_AUTO` (continuous auto focus on, or locked) and `FOCUS_ABSOLUTE`
///   (the lens position: the driver's range turned into 0 nearest … 1 farthest, larger driver
///   values focusing closer, as V4L2 defines it);
/// - exposure: `EXPOSURE_AUTO` (auto or aperture priority: continuous; manual: locked or
///   custom) with `EXPOSURE_ABSOLUTE` (100 µs units) as the exposure duration, and
///   `AUTOGAIN`/`GAIN` with the gain value as the ISO (the formats' ISO range is the gain's; a
///   gain of 0 is out of reach of `setExposureModeCustom`, whose ISO 0 means the current one);
/// - white balance: `AUTO_WHITE_BALANCE` and `WHITE_BALANCE_TEMPERATURE` (gains and
///   temperature related by `WhiteBalanceModel`, tint 0);
/// - zoom: `ZOOM_ABSOLUTE`, the factor being the value over the minimum (UVC's 100 is 1×), set at
///   once (a ramp jumps to its factor);
/// - torch: `FLASH_LED_MODE` (torch or none) and `FLASH_TORCH_INTENSITY` as the level.
///
/// A mode is offered exactly when its driver controls are. Settings are written to the driver
/// when they change, so a new device object starts from what the driver is doing
/// (`initialSettings`) instead of resetting it; the state is read back from the driver.
final class V4L2CameraControls: CaptureControls, @unchecked Sendable {
    /// The camera's node.
    private let path: String
    /// The driver's controls that Apple's map to, by identifier.
    private let offered: [V4L2Control.ID: V4L2Control]
    let capabilities: CaptureControlCapabilities

    private let lock = NSLock()
    /// The settings last written (nil: none yet; the driver's own are then `initialSettings`).
    private var applied: CaptureControlSettings?
    private var handler: (@Sendable (CaptureControlState) -> Void)?
    /// The state last read, answered when the node no longer opens.
    private var lastState: CaptureControlState?
    private let logger = Logger(label: "OpenAVFoundation.CaptureDevices.V4L2CameraControls")

    /// `EXPOSURE_AUTO` menu values that expose automatically (auto, aperture priority).
    private static let automaticExposures: Set<Int64> = [Int64(V4L2_EXPOSURE_AUTO.rawValue),
                                                         Int64(V4L2_EXPOSURE_APERTURE_PRIORITY.rawValue)]
    private static let manualExposure = Int64(V4L2_EXPOSURE_MANUAL.rawValue)
    private static let torchLEDMode = Int64(V4L2_FLASH_LED_MODE_TORCH.rawValue)
    private static let noLEDMode = Int64(V4L2_FLASH_LED_MODE_NONE.rawValue)

    /// Controls of the camera at `path`, from its driver controls (`V4L2Control.all`).
    init(path: String, driverControls: [V4L2Control]) {
        self.path = path
        let mapped: Set<V4L2Control.ID> = [.focusAuto, .focusAbsolute, .exposureAuto, .exposureAbsolute, .autoGain, .gain,
                                           .autoWhiteBalance, .whiteBalanceTemperature, .zoomAbsolute, .flashLEDMode,
                                           .flashTorchIntensity]
        var offered: [V4L2Control.ID: V4L2Control] = [:]
        for control in driverControls where mapped.contains(control.id) && !control.isReadOnly {
            offered[control.id] = control
        }
        self.offered = offered
        let has = { (id: V4L2Control.ID) in offered[id] != nil }

        var focusModes: Set<CaptureFocusMode> = []
        if has(.focusAuto) { focusModes.formUnion([.continuousAutoFocus, .locked]) }
        if has(.focusAbsolute) { focusModes.insert(.locked) }
        var exposureModes: Set<CaptureExposureMode> = []
        let exposureMenu = Set(offered[.exposureAuto]?.menuItems.keys ?? [:].keys)
        if has(.autoGain) || !exposureMenu.isDisjoint(with: Self.automaticExposures) {
            exposureModes.insert(.continuousAutoExposure)
        }
        if has(.gain) || (has(.exposureAbsolute) && (exposureMenu.isEmpty || exposureMenu.contains(Self.manualExposure))) {
            exposureModes.formUnion([.locked, .custom])
        }
        var whiteBalanceModes: Set<CaptureWhiteBalanceMode> = []
        if has(.autoWhiteBalance) { whiteBalanceModes.formUnion([.continuousAutoWhiteBalance, .locked]) }
        if has(.whiteBalanceTemperature) { whiteBalanceModes.insert(.locked) }
        let torch = offered[.flashLEDMode]?.menuItems[Self.torchLEDMode] != nil || has(.flashTorchIntensity)
        capabilities = CaptureControlCapabilities(
            focusModes: focusModes, focusPointOfInterest: false, lockingFocusWithCustomLensPosition: has(.focusAbsolute),
            exposureModes: exposureModes, exposurePointOfInterest: false, exposureTargetBiasRange: 0...0,
            whiteBalanceModes: whiteBalanceModes, lockingWhiteBalanceWithCustomGains: has(.whiteBalanceTemperature),
            maxWhiteBalanceGain: 4, hasTorch: torch, hasFlash: false)
    }

    /// The camera's formats with the ranges its driver controls give: exposure durations from
    /// `EXPOSURE_ABSOLUTE`, ISOs from `GAIN`, the largest zoom factor from `ZOOM_ABSOLUTE`.
    static func formats(_ formats: [CaptureVideoFormat], withRangesOf driverControls: [V4L2Control]) -> [CaptureVideoFormat] {
        let control = { (id: V4L2Control.ID) in driverControls.first { $0.id == id && !$0.isReadOnly } }
        return formats.map { format in
            var format = format
            if let exposure = control(.exposureAbsolute) {
                format.exposureDurations = duration(exposure.minimum)...duration(exposure.maximum)
            }
            if let gain = control(.gain) { format.isos = Float(gain.minimum)...Float(gain.maximum) }
            if let zoom = control(.zoomAbsolute) { format.maxZoomFactor = zoomFactor(zoom.maximum, of: zoom) }
            return format
        }
    }

    /// An `EXPOSURE_ABSOLUTE` value (100 µs units) as a duration.
    static func duration(_ value: Int64) -> CMTime { CMTime(value: value, timescale: 10_000) }

    /// The `EXPOSURE_ABSOLUTE` value (100 µs units) nearest a duration.
    static func exposureValue(_ duration: CMTime) -> Int64 { Int64((duration.seconds * 10_000).rounded()) }

    /// The zoom factor of a `ZOOM_ABSOLUTE` value: the value over the minimum (or over 1).
    static func zoomFactor(_ value: Int64, of zoom: V4L2Control) -> Double {
        Double(value) / Double(max(zoom.minimum, 1))
    }

    /// The `ZOOM_ABSOLUTE` value of a zoom factor (before clamping to the control's steps).
    static func zoomValue(_ factor: Double, of zoom: V4L2Control) -> Int64 {
        Int64((factor * Double(max(zoom.minimum, 1))).rounded())
    }

    /// The lens position (0 nearest, 1 farthest) of a `FOCUS_ABSOLUTE` value, larger values
    /// focusing closer.
    static func lensPosition(_ value: Int64, of focus: V4L2Control) -> Float {
        guard focus.maximum > focus.minimum else { return 1 }
        return Float(focus.maximum - value) / Float(focus.maximum - focus.minimum)
    }

    /// The `FOCUS_ABSOLUTE` value of a lens position (before clamping to the control's steps).
    static func focusValue(_ lensPosition: Float, of focus: V4L2Control) -> Int64 {
        focus.maximum - Int64((Double(lensPosition) * Double(focus.maximum - focus.minimum)).rounded())
    }

    // MARK: State

    var state: CaptureControlState {
        guard let node = try? V4L2Node(path: path) else {
            return lock.withLock { lastState } ?? Self.state(of: [:], offered: offered, asked: CaptureControlSettings(), generation: 0)
        }
        var values: [V4L2Control.ID: Int64] = [:]
        for id in offered.keys {
            var control = v4l2_control(id: id.rawValue, value: 0)
            if node.control(cv4l2_g_ctrl(), &control) == nil { values[id] = Int64(control.value) }
        }
        return lock.withLock {
            let state = Self.state(of: values, offered: offered, asked: applied ?? CaptureControlSettings(),
                                   generation: applied?.generation ?? 0)
            lastState = state
            return state
        }
    }

    /// The state the driver's control values show; manual exposure reads as `asked`'s manual
    /// mode (`.custom` or `.locked`).
    private static func state(of values: [V4L2Control.ID: Int64], offered: [V4L2Control.ID: V4L2Control],
                              asked: CaptureControlSettings, generation: UInt64) -> CaptureControlState {
        let focusMode: CaptureFocusMode = switch (values[.focusAuto], values[.focusAbsolute]) {
        case (let auto?, _): auto != 0 ? .continuousAutoFocus : .locked
        case (nil, _?): .locked
        case (nil, nil): .continuousAutoFocus
        }
        let lensPosition = values[.focusAbsolute].flatMap { value in offered[.focusAbsolute].map { Self.lensPosition(value, of: $0) } } ?? 1
        let automaticExposure: Bool = if let mode = values[.exposureAuto] {
            automaticExposures.contains(mode)
        } else if let autoGain = values[.autoGain] {
            autoGain != 0
        } else {
            values[.gain] == nil && values[.exposureAbsolute] == nil
        }
        let manualMode: CaptureExposureMode = asked.exposureMode == .custom ? .custom : .locked
        let whiteBalanceMode: CaptureWhiteBalanceMode = switch (values[.autoWhiteBalance], values[.whiteBalanceTemperature]) {
        case (let auto?, _): auto != 0 ? .continuousAutoWhiteBalance : .locked
        case (nil, _?): .locked
        case (nil, nil): .continuousAutoWhiteBalance
        }
        let gains = values[.whiteBalanceTemperature].map { WhiteBalanceModel.gains(temperature: Double($0), tint: 0) }
            ?? CaptureWhiteBalanceGains(red: 1, green: 1, blue: 1)
        var torchLevel: Float = 0
        if values[.flashLEDMode].map({ $0 == torchLEDMode }) ?? (values[.flashTorchIntensity] != nil) {
            torchLevel = 1
            if let value = values[.flashTorchIntensity], let intensity = offered[.flashTorchIntensity], intensity.maximum > 0 {
                torchLevel = Float(value) / Float(intensity.maximum)
            }
        }
        return CaptureControlState(
            focusMode: focusMode, lensPosition: lensPosition, isAdjustingFocus: false,
            exposureMode: automaticExposure ? .continuousAutoExposure : manualMode,
            exposureDuration: values[.exposureAbsolute].map(duration) ?? .invalid, iso: values[.gain].map(Float.init) ?? 0,
            isAdjustingExposure: false, exposureTargetOffset: 0, whiteBalanceMode: whiteBalanceMode,
            whiteBalanceGains: gains, isAdjustingWhiteBalance: false,
            zoomFactor: values[.zoomAbsolute].flatMap { value in offered[.zoomAbsolute].map { zoomFactor(value, of: $0) } } ?? 1,
            isRampingZoom: false, torchLevel: torchLevel, settledGeneration: generation,
            time: CMTime(value: CMTimeValue(HostClock.now), timescale: 1_000_000_000))
    }

    /// What the driver is doing now, as settings: a new device object starts from them.
    var initialSettings: CaptureControlSettings {
        let now = state
        var settings = CaptureControlSettings()
        settings.focusMode = now.focusMode
        settings.exposureMode = now.exposureMode
        settings.whiteBalanceMode = now.whiteBalanceMode
        settings.zoomFactor = now.zoomFactor
        settings.torchLevel = now.torchLevel
        return settings
    }

    var neutralWhiteBalanceGains: CaptureWhiteBalanceGains { state.whiteBalanceGains }

    func setStateHandler(_ handler: (@Sendable (CaptureControlState) -> Void)?) {
        lock.withLock { self.handler = handler }
    }

    // MARK: Applying

    /// Writes what changed since the last settings to the driver (automatic switches first, then
    /// the values), then reports the state with the settings' generation settled. A control the
    /// driver refuses is logged and left as the driver has it.
    func apply(_ settings: CaptureControlSettings) {
        let previous = lock.withLock { applied } ?? initialSettings
        lock.withLock { applied = settings }
        guard let node = try? V4L2Node(path: path) else { return }
        let set = { [offered, logger] (id: V4L2Control.ID, value: Int64) in
            guard let control = offered[id] else { return }
            var request = v4l2_control(id: id.rawValue, value: Int32(truncatingIfNeeded: control.clamped(value)))
            if let code = node.control(cv4l2_s_ctrl(), &request) {
                logger.warning("\(node.error(code, "setting \(control.name) to \(value)").message)")
            }
        }
        if settings.focusMode != previous.focusMode || settings.lensPosition != previous.lensPosition {
            set(.focusAuto, settings.focusMode == .locked ? 0 : 1)
            if settings.focusMode == .locked, let position = settings.lensPosition, let focus = offered[.focusAbsolute] {
                set(.focusAbsolute, Self.focusValue(position, of: focus))
            }
        }
        if settings.exposureMode != previous.exposureMode || settings.exposureDuration != previous.exposureDuration
            || settings.iso != previous.iso {
            if settings.exposureMode == .continuousAutoExposure || settings.exposureMode == .autoExpose {
                let menu = offered[.exposureAuto]?.menuItems ?? [:]
                if let automatic = Self.automaticExposures.sorted().first(where: { menu[$0] != nil }) { set(.exposureAuto, automatic) }
                set(.autoGain, 1)
            } else {
                set(.exposureAuto, Self.manualExposure)
                set(.autoGain, 0)
                if settings.exposureMode == .custom {
                    if let duration = settings.exposureDuration {
                        set(.exposureAbsolute, Self.exposureValue(duration))
                    }
                    if let iso = settings.iso { set(.gain, Int64(iso.rounded())) }
                }
            }
        }
        if settings.whiteBalanceMode != previous.whiteBalanceMode || settings.whiteBalanceGains != previous.whiteBalanceGains {
            set(.autoWhiteBalance, settings.whiteBalanceMode == .locked ? 0 : 1)
            if settings.whiteBalanceMode == .locked, let gains = settings.whiteBalanceGains {
                set(.whiteBalanceTemperature, Int64(WhiteBalanceModel.temperatureAndTint(for: gains).temperature.rounded()))
            }
        }
        if settings.zoomFactor != previous.zoomFactor, let zoom = offered[.zoomAbsolute] {
            set(.zoomAbsolute, Self.zoomValue(settings.zoomFactor, of: zoom))
        }
        if settings.torchLevel != previous.torchLevel {
            if let intensity = offered[.flashTorchIntensity], settings.torchLevel > 0 || offered[.flashLEDMode] == nil {
                // Without an LED mode control, the lowest intensity is the torch off.
                set(.flashTorchIntensity, max(intensity.minimum, Int64((Float(intensity.maximum) * settings.torchLevel).rounded())))
            }
            set(.flashLEDMode, settings.torchLevel > 0 ? Self.torchLEDMode : Self.noLEDMode)
        }
        node.close()
        let now = state
        lock.withLock { handler }?(now)
    }
}

extension V4L2Control {
    /// The nearest value the control takes: within its range, on its steps from the minimum.
    func clamped(_ value: Int64) -> Int64 {
        let inRange = Swift.min(Swift.max(value, minimum), maximum)
        guard step > 1 else { return inRange }
        let steps = ((Double(inRange - minimum) / Double(step)).rounded())
        return Swift.min(maximum, minimum + Int64(steps) * step)
    }
}
