extension AVCaptureDevice {
    /// The state of a camera's torch (its continuous light).
    public enum TorchMode: Int, Sendable {
        /// The torch is off.
        case off = 0
        /// The torch is on.
        case on = 1
        /// The torch comes on when the scene is dark (not supported by the virtual camera).
        case auto = 2
    }
}
