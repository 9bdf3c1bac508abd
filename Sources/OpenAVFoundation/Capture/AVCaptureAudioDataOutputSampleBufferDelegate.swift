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
