extension AVCaptureDevice {
    /// How a camera sets its exposure.
    public enum ExposureMode: Int, Sendable {
        /// Exposure duration and ISO stay as they are.
        case locked = 0
        /// Meter once, then switch to `.locked`.
        case autoExpose = 1
        /// Keep metering.
        case continuousAutoExposure = 2
        /// The exposure duration and ISO given to `setExposureModeCustom(duration:iso:completionHandler:)`.
        case custom = 3
    }
}
