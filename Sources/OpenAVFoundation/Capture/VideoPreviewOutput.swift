import CaptureDevices
import Foundation
import HostSystem
import OpenCoreVideo

/// What stands behind a preview layer in its session: an output taking its connection's video
/// and keeping only the newest picture, for the layer's window to take when it redraws. It
/// never waits and never makes the camera wait: pictures the window does not get to are dropped,
/// so a recording from the same session is never slowed by its preview.
final class VideoPreviewOutput: AVCaptureOutput, @unchecked Sendable {
    /// The layer this output serves.
    weak var layer: AVCaptureVideoPreviewLayer?
    @Locked private var newest: CVPixelBuffer? = nil

    override func accepts(_ mediaType: AVMediaType) -> Bool { mediaType == .video }

    override func receive(_ sample: CaptureSample, from connection: AVCaptureConnection) {
        guard sample.isVideo, let picture = sample.pixelBuffer else { return }
        newest = picture
    }

    /// The newest picture from the camera, if one came.
    var picture: CVPixelBuffer? { newest }
}
