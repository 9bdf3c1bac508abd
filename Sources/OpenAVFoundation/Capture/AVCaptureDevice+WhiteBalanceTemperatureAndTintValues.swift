extension AVCaptureDevice {
    /// A light's correlated colour temperature (kelvin) and tint (-150, green, to +150, magenta).
    public struct WhiteBalanceTemperatureAndTintValues: Sendable, Equatable {
        /// The correlated colour temperature, in kelvin.
        public var temperature: Float
        /// The tint, from -150 to +150.
        public var tint: Float

        /// A temperature and tint.
        public init(temperature: Float, tint: Float) {
            self.temperature = temperature
            self.tint = tint
        }

        /// Zero temperature and tint.
        public init() {
            self.init(temperature: 0, tint: 0)
        }
    }
}
