extension AVCaptureDevice {
    /// Where a device sits on the system's hardware.
    ///
    /// Hardware on Linux reports `.unspecified` (a computer has no front or back); virtual
    /// cameras added for tests may be `.front` or `.back`.
    public enum Position: Int, Sendable {
        /// The position is not known or does not apply.
        case unspecified = 0
        /// On the back of the system.
        case back = 1
        /// On the front of the system.
        case front = 2
    }
}
