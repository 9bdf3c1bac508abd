import Foundation
import OpenCoreMedia

/// Receives the sample buffers of an `AVCaptureVideoDataOutput` and hears about dropped frames.
///
/// Apple's optional methods are requirements with empty default implementations here: a class
/// implements only the ones it needs, as on Apple platforms.
public protocol AVCaptureVideoDataOutputSampleBufferDelegate: NSObjectProtocol {
    /// A new video frame, on the output's `sampleBufferCallbackQueue`.
    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer,
                       from connection: AVCaptureConnection)

    /// A frame was dropped, once per frame: the buffer holds its timing and format but no
    /// pixels, and says why under `kCMSampleBufferAttachmentKey_DroppedFrameReason`.
    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer,
                       from connection: AVCaptureConnection)
}

extension AVCaptureVideoDataOutputSampleBufferDelegate {
    /// Does nothing.
    public func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer,
                              from connection: AVCaptureConnection) {}

    /// Does nothing.
    public func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer,
                              from connection: AVCaptureConnection) {}
}
