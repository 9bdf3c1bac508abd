extension AVCaptureDevice {
    /// How a camera balances colours.
    public enum WhiteBalanceMode: Int, Sendable {
        /// The gains stay as they are (or as `setWhiteBalanceModeLocked(with:completionHandler:)` set them).
        case locked = 0
        /// Balance once, then switch to `.locked`.
        case autoWhiteBalance = 1
        /// Keep balancing.
        case continuousAutoWhiteBalance = 2
    }
}
