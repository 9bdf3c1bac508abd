import Foundation

/// Follows a photo capture from `AVCapturePhotoOutput.capturePhoto(with:delegate:)` to the
/// photo, in Apple's order, each call once per request, on the output's private serial queue:
/// `willBeginCaptureFor`, `willCapturePhotoFor`, `didCapturePhotoFor`,
/// `didFinishProcessingPhoto`, `didFinishCaptureFor`. When the capture fails (the session
/// stopped before a frame came) the two `…Capture…PhotoFor` calls are skipped and the error is
/// passed to the last two.
///
/// Apple's optional methods are requirements with empty default implementations here: a class
/// implements only the ones it needs, as on Apple platforms.
public protocol AVCapturePhotoCaptureDelegate: NSObjectProtocol {
    /// The settings are resolved and the capture will begin.
    func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings)

    /// The photo is about to be taken (the shutter moment).
    ///
    /// Differs from Apple: called when the camera's frame for the photo has arrived.
    func photoOutput(_ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings)

    /// The photo was taken; processing follows.
    func photoOutput(_ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings)

    /// The photo, or the error that prevented it (the photo then has metadata but no image).
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: (any Error)?)

    /// The request is complete; `error` is the failure, if any.
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
                     error: (any Error)?)
}

extension AVCapturePhotoCaptureDelegate {
    /// Does nothing.
    public func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings) {}

    /// Does nothing.
    public func photoOutput(_ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {}

    /// Does nothing.
    public func photoOutput(_ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {}

    /// Does nothing.
    public func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto,
                            error: (any Error)?) {}

    /// Does nothing.
    public func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
                            error: (any Error)?) {}
}
