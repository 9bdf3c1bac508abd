import HostSystem

/// Why a capture device could not start or stopped delivering.
///
/// Bad data and vanished devices are errors, never crashes (DESIGN.md → API rules); the session
/// turns them into `AVError`s (`deviceWasDisconnected`, `deviceNotConnected`, …).
package struct CaptureDeviceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    package enum Reason: String, Hashable, Sendable {
        /// The format is not one of the device's `formats`.
        case unsupportedFormat
        /// The frame duration is outside the format's frame rate ranges.
        case unsupportedFrameDuration
        /// `start` was called while the device was running.
        case alreadyRunning
        /// The device went away (an unplugged camera: `ENODEV`).
        case disconnected
        /// Another program holds the device exclusively (`EBUSY`).
        case busy
        /// The device exists but cannot be used now (permission denied, out of memory).
        case unavailable
        /// Any other failure reported by the platform API.
        case failed
    }

    /// The kind of failure.
    package var reason: Reason
    /// What happened, for people: names the device and the operation.
    package var message: String

    /// An error of a kind, with a message.
    package init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    package var description: String { "\(reason.rawValue): \(message)" }
}

extension CaptureDeviceError {
    /// The capture devices' error for a sound server's.
    init(_ error: SoundServerError) {
        let reason: Reason = switch error.reason {
        case .unsupportedFormat: .unsupportedFormat
        case .disconnected: .disconnected
        case .unavailable: .unavailable
        case .failed: .failed
        }
        self.init(reason, error.message)
    }
}

extension PulseAudioConnection {
    /// Connects as `init(server:clientName:timeout:)` does, for a capture device: a failure is a
    /// `CaptureDeviceError`.
    static func forCapture(server: String?, clientName: String, timeout: UInt64) throws(CaptureDeviceError) -> PulseAudioConnection {
        do throws(SoundServerError) {
            return try PulseAudioConnection(server: server, clientName: clientName, timeout: timeout)
        } catch {
            throw CaptureDeviceError(error)
        }
    }
}
