import Foundation

/// The capture device's notification names in the spelling of Apple's older Swift SDKs, still
/// common in real code (Apple's AVCam sample observes `.AVCaptureDeviceSubjectAreaDidChange`);
/// each is the `AVCaptureDevice` class constant it was renamed to.
extension NSNotification.Name {
    /// `AVCaptureDevice.wasConnectedNotification`.
    @available(*, deprecated, renamed: "AVCaptureDevice.wasConnectedNotification")
    public static var AVCaptureDeviceWasConnected: NSNotification.Name { AVCaptureDevice.wasConnectedNotification }
    /// `AVCaptureDevice.wasDisconnectedNotification`.
    @available(*, deprecated, renamed: "AVCaptureDevice.wasDisconnectedNotification")
    public static var AVCaptureDeviceWasDisconnected: NSNotification.Name { AVCaptureDevice.wasDisconnectedNotification }
    /// `AVCaptureDevice.subjectAreaDidChangeNotification`.
    @available(*, deprecated, renamed: "AVCaptureDevice.subjectAreaDidChangeNotification")
    public static var AVCaptureDeviceSubjectAreaDidChange: NSNotification.Name {
        AVCaptureDevice.subjectAreaDidChangeNotification
    }
}
