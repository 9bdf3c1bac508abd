import Foundation
import CaptureDevices
import OpenCoreMedia

extension AVCaptureDevice {
    /// A value for `setExposureModeCustom(duration:iso:completionHandler:)`: keep the exposure
    /// duration.
    ///
    /// Differs from Apple: the sentinel's value here is `.zero`.
    public static let currentExposureDuration = CMTime.zero
    /// A value for `setExposureModeCustom(duration:iso:completionHandler:)`: keep the ISO.
    ///
    /// Differs from Apple: the sentinel's value here is 0.
    public static let currentISO: Float = 0
    /// A value for `setExposureTargetBias(_:completionHandler:)`: keep the bias.
    ///
    /// Differs from Apple: the sentinel's value here is NaN.
    public static let currentExposureTargetBias = Float.nan

    /// Whether the camera has an exposure mode.
    public func isExposureModeSupported(_ exposureMode: ExposureMode) -> Bool {
        controlCapabilities.exposureModes.contains(exposureMode.captureMode)
    }

    /// How the camera sets its exposure (`.continuousAutoExposure` at first). Setting
    /// `.autoExpose` meters once; when done the mode reads `.locked`. Setting `.custom` keeps
    /// the current duration and ISO. Needs the configuration lock and a supported mode.
    public var exposureMode: ExposureMode {
        get {
            let requested = requestedControls
            return ExposureMode(reportedMode(asked: requested.exposureMode, single: .autoExpose, request: requested.exposureScanRequest,
                                      locked: .locked, inEffect: \.exposureMode))
        }
        set {
            Misuse.check(isExposureModeSupported(newValue), .exposureModeNotSupported)
            changeControls("exposureMode") { settings in
                settings.exposureMode = newValue.captureMode
                if newValue == .autoExpose { settings.exposureScanRequest = settings.generation + 1 }
                if newValue == .custom { (settings.exposureDuration, settings.iso) = (nil, nil) }
            }
        }
    }

    /// Whether `exposurePointOfInterest` can be set.
    public var isExposurePointOfInterestSupported: Bool { controlCapabilities.exposurePointOfInterest }

    /// Where to meter, from (0, 0) top left to (1, 1) bottom right; it takes effect when an
    /// exposure mode is set next. Needs the configuration lock. The virtual camera's chart is
    /// evenly lit, so every point meters alike.
    public var exposurePointOfInterest: CGPoint {
        get { requestedControls.exposurePointOfInterest }
        set {
            Misuse.check(isExposurePointOfInterestSupported, .exposurePointOfInterestNotSupported)
            changeControls("exposurePointOfInterest") { $0.exposurePointOfInterest = newValue }
        }
    }

    /// Whether the automatic exposure is still moving.
    public var isAdjustingExposure: Bool { controlState?.isAdjustingExposure ?? false }

    /// The exposure duration of the latest frame.
    public var exposureDuration: CMTime { controlState?.exposureDuration ?? .invalid }

    /// The ISO of the latest frame.
    public var iso: Float { controlState?.iso ?? 0 }

    /// Switches to `.custom` exposure with a duration and ISO (within the active format's
    /// `minExposureDuration`...`maxExposureDuration` and `minISO`...`maxISO`, or the `current…`
    /// values); `handler` gets the time of the first frame exposed so. Needs the configuration
    /// lock.
    public func setExposureModeCustom(duration: CMTime, iso: Float, completionHandler handler: (@Sendable (CMTime) -> Void)? = nil) {
        Misuse.check(isExposureModeSupported(.custom), .customExposureNotSupported)
        let format = activeFormat
        Misuse.check(duration == Self.currentExposureDuration
                        || (duration >= format.minExposureDuration && duration <= format.maxExposureDuration),
                     .exposureDurationOutOfRange)
        Misuse.check(iso == Self.currentISO || (format.minISO...format.maxISO).contains(iso), .isoOutOfRange)
        changeControls("exposureMode", completion: handler) { settings in
            settings.exposureMode = .custom
            settings.exposureDuration = duration == Self.currentExposureDuration ? nil : duration
            settings.iso = iso == Self.currentISO ? nil : iso
        }
    }

    /// The automatic exposure's target, in EV from the metered exposure (0 at first).
    public var exposureTargetBias: Float { requestedControls.exposureTargetBias }
    /// The lowest exposure target bias.
    public var minExposureTargetBias: Float { controlCapabilities.exposureTargetBiasRange.lowerBound }
    /// The highest exposure target bias.
    public var maxExposureTargetBias: Float { controlCapabilities.exposureTargetBiasRange.upperBound }

    /// Sets the automatic exposure's target (from `minExposureTargetBias` to
    /// `maxExposureTargetBias`, or `currentExposureTargetBias`); `handler` gets the time of the
    /// first frame metered with it. Needs the configuration lock.
    public func setExposureTargetBias(_ bias: Float, completionHandler handler: (@Sendable (CMTime) -> Void)? = nil) {
        Misuse.check(bias.isNaN || (minExposureTargetBias...maxExposureTargetBias).contains(bias), .exposureTargetBiasOutOfRange)
        changeControls("exposureTargetBias", completion: handler) { settings in
            if !bias.isNaN { settings.exposureTargetBias = bias }
        }
    }

    /// How far the latest frame's exposure is from the automatic exposure's target, in EV.
    public var exposureTargetOffset: Float { controlState?.exposureTargetOffset ?? 0 }

    /// Whether the camera can boost its exposure in low light: false for the cameras here.
    public var isLowLightBoostSupported: Bool { false }

    /// Whether a low-light boost is on now: always false.
    public var isLowLightBoostEnabled: Bool { false }

    /// Whether the camera boosts its exposure when the light is low: always false. Setting it
    /// needs the configuration lock; setting true while `isLowLightBoostSupported` is false is
    /// a programmer error, as on Apple platforms.
    public var automaticallyEnablesLowLightBoostWhenAvailable: Bool {
        get { false }
        set {
            Misuse.check(holdsConfigurationLock,
                         .notLockedForConfiguration(property: "automaticallyEnablesLowLightBoostWhenAvailable"))
            Misuse.check(!newValue || isLowLightBoostSupported, .lowLightBoostNotSupported)
        }
    }
}

extension AVCaptureDevice.ExposureMode {
    /// The device layer's mode.
    var captureMode: CaptureExposureMode {
        switch self {
        case .locked: .locked
        case .autoExpose: .autoExpose
        case .continuousAutoExposure: .continuousAutoExposure
        case .custom: .custom
        }
    }

    /// The mode of the device layer's mode.
    init(_ mode: CaptureExposureMode) {
        switch mode {
        case .locked: self = .locked
        case .autoExpose: self = .autoExpose
        case .continuousAutoExposure: self = .continuousAutoExposure
        case .custom: self = .custom
        }
    }
}
