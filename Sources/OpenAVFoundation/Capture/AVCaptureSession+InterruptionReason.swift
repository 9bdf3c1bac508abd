import Foundation

extension AVCaptureSession {
    /// Why a session was interrupted, under `AVCaptureSessionInterruptionReasonKey` in
    /// `wasInterruptedNotification`'s user info, with Apple's raw values.
    ///
    /// Linux: nothing interrupts a session (no app goes to the background, no other client takes
    /// a device from a running session), so no session posts one; the reasons are here for code
    /// that handles them.
    public enum InterruptionReason: Int, Sendable {
        /// The app went to the background while using a camera.
        case videoDeviceNotAvailableInBackground = 1
        /// Another client took the audio device.
        case audioDeviceInUseByAnotherClient = 2
        /// Another client took the video device.
        case videoDeviceInUseByAnotherClient = 3
        /// The camera is not available while several apps are in the foreground.
        case videoDeviceNotAvailableWithMultipleForegroundApps = 4
        /// The camera was shut down because of the system's pressure (heat, power).
        case videoDeviceNotAvailableDueToSystemPressure = 5
        /// Sensitive content was detected and the capture paused.
        case sensitiveContentMitigationActivated = 6
    }
}

/// The user-info key of `AVCaptureSession.wasInterruptedNotification` under which the
/// `InterruptionReason` is (as an `NSNumber` of its raw value).
public let AVCaptureSessionInterruptionReasonKey: String = "AVCaptureSessionInterruptionReasonKey"

/// The user-info key under which the system pressure state of a pressure interruption is.
public let AVCaptureSessionInterruptionSystemPressureStateKey: String = "AVCaptureSessionInterruptionSystemPressureStateKey"
