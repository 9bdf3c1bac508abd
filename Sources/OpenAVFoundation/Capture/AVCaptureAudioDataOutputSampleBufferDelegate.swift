import Foundation
import OpenCoreMedia

/// Receives the sample buffers of an `AVCaptureAudioDataOutput`.
///
/// Apple's optional method is a requirement with an empty default implementation here.
public protocol AVCaptureAudioDataOutputSampleBufferDelegate: NSObjectProtocol {
    /// New audio, on the output's `sampleBufferCallbackQueue`.
    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer,
                       from connection: AVCaptureConnection)
}

extension AVCaptureAudioDataOutputSampleBufferDelegate {
    /// Does nothing.
    public func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer,
                              from connection: AVCaptureConnection) {}
}

extension AVCaptureAudioDataOutputSampleBufferDelegate where Self: AVCaptureVideoDataOutputSampleBufferDelegate {
    /// Does nothing. The default of a class that is the delegate of both a video and an audio
    /// data output and implements neither (both protocols' methods have this signature, so
    /// without it their two defaults would be ambiguous, where Apple's optional methods are not).
    public func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer,
                              from connection: AVCaptureConnection) {}
}
