import Foundation

/// Receives what an `AVCaptureMetadataOutput` finds.
///
/// Apple's optional method is a requirement with an empty default implementation here.
public protocol AVCaptureMetadataOutputObjectsDelegate: NSObjectProtocol {
    /// The objects found in one frame, on the output's `metadataObjectsCallbackQueue`.
    func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject],
                        from connection: AVCaptureConnection)
}

extension AVCaptureMetadataOutputObjectsDelegate {
    /// Does nothing.
    public func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject],
                               from connection: AVCaptureConnection) {}
}
