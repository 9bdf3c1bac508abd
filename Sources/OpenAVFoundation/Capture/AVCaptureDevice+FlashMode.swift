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

    /// Whether the device has a flash: false for every device here (the Test Pattern Camera has
    /// none, and V4L2 offers no flash control).
    public var hasFlash: Bool { false }

    /// Whether the flash can be used now: false, as there is no flash.
    public var isFlashAvailable: Bool { hasFlash }
}
