import Foundation

extension AVCaptureDevice {
    /// Whether a camera's flash fires when a photo is taken.
    public enum FlashMode: Int, Sendable {
        /// The flash never fires.
        case off = 0
        /// The flash always fires.
        case on = 1
        /// The flash fires when the scene is dark enough.
        case auto = 2
    }
}
