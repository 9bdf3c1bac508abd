/// The user-info key of `AVCaptureSession.runtimeErrorNotification` under which the `AVError` is.
public let AVCaptureSessionErrorKey: String = "AVCaptureSessionErrorKey"
