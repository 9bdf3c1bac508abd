extension AVAudioSession {
    /// A microphone's polar pattern. Linux devices say none.
    public struct PolarPattern: RawRepresentable, Hashable, Sendable {
        /// The constant's string, as Apple's.
        public let rawValue: String
        /// The constant with this string.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Equal in every direction.
        public static let omnidirectional = PolarPattern(rawValue: "Omnidirectional")
        /// Most sensitive in front.
        public static let cardioid = PolarPattern(rawValue: "Cardioid")
        /// Between omnidirectional and cardioid.
        public static let subcardioid = PolarPattern(rawValue: "Subcardioid")
        /// Two channels.
        public static let stereo = PolarPattern(rawValue: "Stereo")
    }
}
