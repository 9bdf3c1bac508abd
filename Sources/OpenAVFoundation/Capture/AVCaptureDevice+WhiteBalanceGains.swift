extension AVCaptureDevice {
    /// A camera's red, green and blue white balance gains, each from 1 to `maxWhiteBalanceGain`.
    public struct WhiteBalanceGains: Sendable, Equatable {
        /// The red gain.
        public var redGain: Float
        /// The green gain.
        public var greenGain: Float
        /// The blue gain.
        public var blueGain: Float

        /// Gains for the three channels.
        public init(redGain: Float, greenGain: Float, blueGain: Float) {
            (self.redGain, self.greenGain, self.blueGain) = (redGain, greenGain, blueGain)
        }

        /// All gains zero.
        public init() {
            self.init(redGain: 0, greenGain: 0, blueGain: 0)
        }
    }
}
