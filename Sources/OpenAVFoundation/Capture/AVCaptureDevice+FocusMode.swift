extension AVCaptureDevice {
    /// How a camera focuses.
    public enum FocusMode: Int, Sendable {
        /// The lens stays where it is (or where `setFocusModeLocked(lensPosition:completionHandler:)` put it).
        case locked = 0
        /// Focus once, then switch to `.locked`.
        case autoFocus = 1
        /// Keep the scene in focus.
        case continuousAutoFocus = 2
    }
}
