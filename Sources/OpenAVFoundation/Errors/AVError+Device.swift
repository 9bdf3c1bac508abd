import CaptureDevices
import Foundation

extension AVError {
    /// When a device failure happened: as the device started, or while it ran.
    enum DeviceFailureMoment {
        /// Starting the device (or configuring it before a start) failed.
        case starting
        /// The running device stopped delivering.
        case running
    }

    /// The `AVError` for a capture device failure, the one mapping of device errors: a device
    /// that went away gives `.deviceNotConnected` when starting and `.deviceWasDisconnected`
    /// while running; one already running in this process `.deviceAlreadyUsedByAnotherSession`;
    /// one another program holds `.deviceInUseByAnotherApplication`; a format it refuses
    /// `.unsupportedDeviceActiveFormat`; anything else `.unknown`. The device, when known, is
    /// under `AVErrorDeviceKey`; the device error is underneath.
    init(_ error: CaptureDeviceError, at moment: DeviceFailureMoment, device: AVCaptureDevice?) {
        let code: AVError.Code = switch (error.reason, moment) {
        case (.disconnected, .starting): .deviceNotConnected
        case (.disconnected, .running): .deviceWasDisconnected
        case (.alreadyRunning, _): .deviceAlreadyUsedByAnotherSession
        case (.busy, _): .deviceInUseByAnotherApplication
        case (.unsupportedFormat, _): .unsupportedDeviceActiveFormat
        default: .unknown
        }
        self.init(code, reason: error.message, underlying: error, userInfo: device.map { [AVErrorDeviceKey: $0] } ?? [:])
    }
}
