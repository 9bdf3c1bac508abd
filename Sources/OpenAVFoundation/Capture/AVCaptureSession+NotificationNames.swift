import Foundation

/// The capture session's notification names in the spelling of Apple's older Swift SDKs, still
/// common in real code; each is the `AVCaptureSession` class constant it was renamed to.
extension NSNotification.Name {
    /// `AVCaptureSession.runtimeErrorNotification`.
    @available(*, deprecated, renamed: "AVCaptureSession.runtimeErrorNotification")
    public static let AVCaptureSessionRuntimeError = AVCaptureSession.runtimeErrorNotification
    /// `AVCaptureSession.didStartRunningNotification`.
    @available(*, deprecated, renamed: "AVCaptureSession.didStartRunningNotification")
    public static let AVCaptureSessionDidStartRunning = AVCaptureSession.didStartRunningNotification
    /// `AVCaptureSession.didStopRunningNotification`.
    @available(*, deprecated, renamed: "AVCaptureSession.didStopRunningNotification")
    public static let AVCaptureSessionDidStopRunning = AVCaptureSession.didStopRunningNotification
    /// `AVCaptureSession.wasInterruptedNotification`.
    @available(*, deprecated, renamed: "AVCaptureSession.wasInterruptedNotification")
    public static let AVCaptureSessionWasInterrupted = AVCaptureSession.wasInterruptedNotification
    /// `AVCaptureSession.interruptionEndedNotification`.
    @available(*, deprecated, renamed: "AVCaptureSession.interruptionEndedNotification")
    public static let AVCaptureSessionInterruptionEnded = AVCaptureSession.interruptionEndedNotification
}
