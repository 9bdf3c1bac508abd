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
    /// The camera's newest picture, not yet taken by the window: one slot whose picture a
    /// newer one replaces (`dropOldest`; its overruns are the pictures never shown); and the
    /// picture the window took last, which it shows again until a newer one comes.
    private struct Pictures {
        var waiting = BoundedQueue<CVPixelBuffer>(capacity: 1, policy: .dropOldest)
        var taken: CVPixelBuffer?
    }
    private let pictures = Locked(Pictures())

    override func accepts(_ mediaType: AVMediaType) -> Bool { mediaType == .video }

    override func receive(_ sample: CaptureSample, from connection: AVCaptureConnection) {
        guard sample.isVideo, let picture = sample.pixelBuffer else { return }
        pictures.withLock { _ = $0.waiting.push(picture) }
    }

    /// The picture for the window to show: the newest from the camera, taken from the slot
    /// when one came since the last call, else the one taken then.
    func takePicture() -> CVPixelBuffer? {
        pictures.withLock { pictures in
            if !pictures.waiting.isEmpty { pictures.taken = pictures.waiting.pop() }
            return pictures.taken
        }
    }

    /// The newest picture from the camera, if one came, left for the window.
    var picture: CVPixelBuffer? { pictures.withLock { $0.waiting.first ?? $0.taken } }
}
