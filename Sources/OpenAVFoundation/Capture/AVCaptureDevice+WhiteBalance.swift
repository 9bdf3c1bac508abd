import Foundation
import CaptureDevices
import OpenCoreMedia

extension AVCaptureDevice {
    /// A value for `setWhiteBalanceModeLocked(with:completionHandler:)`: keep the gains.
    ///
    /// Differs from Apple: the sentinel's value here is all gains zero.
    public static let currentWhiteBalanceGains = WhiteBalanceGains(redGain: 0, greenGain: 0, blueGain: 0)

    /// Whether the camera has a white balance mode.
    public func isWhiteBalanceModeSupported(_ whiteBalanceMode: WhiteBalanceMode) -> Bool {
        controlCapabilities.whiteBalanceModes.contains(whiteBalanceMode.captureMode)
    }

    /// How the camera balances colours (`.continuousAutoWhiteBalance` at first). Setting
    /// `.autoWhiteBalance` balances once; when done the mode reads `.locked`. Needs the
    /// configuration lock and a supported mode.
    public var whiteBalanceMode: WhiteBalanceMode {
        get {
            let requested = requestedControls
            return WhiteBalanceMode(reportedMode(asked: requested.whiteBalanceMode, single: .autoWhiteBalance, request: requested.whiteBalanceScanRequest,
                                      locked: .locked, inEffect: \.whiteBalanceMode))
        }
        set {
            Misuse.check(isWhiteBalanceModeSupported(newValue), .whiteBalanceModeNotSupported)
            changeControls("whiteBalanceMode") { settings in
                settings.whiteBalanceMode = newValue.captureMode
                if newValue == .autoWhiteBalance { settings.whiteBalanceScanRequest = settings.generation + 1 }
                if newValue == .locked { settings.whiteBalanceGains = nil }
            }
        }
    }

    /// Whether the automatic white balance is still moving.
    public var isAdjustingWhiteBalance: Bool { controlState?.isAdjustingWhiteBalance ?? false }

    /// The white balance gains of the latest frame.
    public var deviceWhiteBalanceGains: WhiteBalanceGains {
        controlState.map { WhiteBalanceGains($0.whiteBalanceGains) } ?? WhiteBalanceGains()
    }

    /// The gains a grey-world balance of the scene picks (what the automatic white balance
    /// reaches).
    public var grayWorldDeviceWhiteBalanceGains: WhiteBalanceGains {
        backend.controls.map { WhiteBalanceGains($0.neutralWhiteBalanceGains) } ?? WhiteBalanceGains()
    }

    /// The largest white balance gain (the smallest is 1).
    public var maxWhiteBalanceGain: Float { controlCapabilities.maxWhiteBalanceGain }

    /// Whether `setWhiteBalanceModeLocked(with:completionHandler:)` can set gains.
    public var isLockingWhiteBalanceWithCustomDeviceGainsSupported: Bool {
        controlCapabilities.lockingWhiteBalanceWithCustomGains
    }

    /// Locks white balance with gains (each from 1 to `maxWhiteBalanceGain`, or
    /// `currentWhiteBalanceGains`); `handler` gets the time of the first frame balanced so.
    /// Needs the configuration lock.
    public func setWhiteBalanceModeLocked(with whiteBalanceGains: WhiteBalanceGains,
                                          completionHandler handler: (@Sendable (CMTime) -> Void)? = nil) {
        Misuse.check(isLockingWhiteBalanceWithCustomDeviceGainsSupported, .whiteBalanceGainsNotSupported)
        let keep = whiteBalanceGains == Self.currentWhiteBalanceGains
        Misuse.check(keep || [whiteBalanceGains.redGain, whiteBalanceGains.greenGain, whiteBalanceGains.blueGain]
                        .allSatisfy { (1...maxWhiteBalanceGain).contains($0) },
                     .whiteBalanceGainsOutOfRange)
        changeControls("whiteBalanceMode", completion: handler) { settings in
            settings.whiteBalanceMode = .locked
            settings.whiteBalanceGains = keep ? nil : whiteBalanceGains.captureGains
        }
    }

    /// The temperature and tint of the light that `whiteBalanceGains` make neutral.
    ///
    /// Differs from Apple: the camera's colour model is `WhiteBalanceModel` (a desaturated sRGB
    /// sensor) unless the backend knows better.
    public func temperatureAndTintValues(for whiteBalanceGains: WhiteBalanceGains) -> WhiteBalanceTemperatureAndTintValues {
        let (temperature, tint) = backend.controls?.temperatureAndTint(for: whiteBalanceGains.captureGains)
            ?? { let values = WhiteBalanceModel.temperatureAndTint(for: whiteBalanceGains.captureGains)
                 return (Float(values.temperature), Float(values.tint)) }()
        return WhiteBalanceTemperatureAndTintValues(temperature: temperature, tint: tint)
    }

    /// The gains that make light of a temperature and tint neutral (the smallest gain is 1).
    public func deviceWhiteBalanceGains(for tempAndTintValues: WhiteBalanceTemperatureAndTintValues) -> WhiteBalanceGains {
        let gains = backend.controls?.gains(forTemperature: tempAndTintValues.temperature, tint: tempAndTintValues.tint)
            ?? WhiteBalanceModel.gains(temperature: Double(tempAndTintValues.temperature), tint: Double(tempAndTintValues.tint))
        return WhiteBalanceGains(gains)
    }
}

extension AVCaptureDevice.WhiteBalanceMode {
    /// The device layer's mode.
    var captureMode: CaptureWhiteBalanceMode {
        switch self {
        case .locked: .locked
        case .autoWhiteBalance: .autoWhiteBalance
        case .continuousAutoWhiteBalance: .continuousAutoWhiteBalance
        }
    }

    /// The mode of the device layer's mode.
    init(_ mode: CaptureWhiteBalanceMode) {
        switch mode {
        case .locked: self = .locked
        case .autoWhiteBalance: self = .autoWhiteBalance
        case .continuousAutoWhiteBalance: self = .continuousAutoWhiteBalance
        }
    }
}

extension AVCaptureDevice.WhiteBalanceGains {
    /// The device layer's gains.
    var captureGains: CaptureWhiteBalanceGains {
        CaptureWhiteBalanceGains(red: redGain, green: greenGain, blue: blueGain)
    }

    /// The gains of the device layer's gains.
    init(_ gains: CaptureWhiteBalanceGains) {
        self.init(redGain: gains.red, greenGain: gains.green, blueGain: gains.blue)
    }
}
