extension AVAudioSession {
    /// Where a data source sits on the device.
    public struct Location: RawRepresentable, Hashable, Sendable {
        /// The constant's string, as Apple's.
        public let rawValue: String
        /// The constant with this string.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The upper part of the device.
        public static let upper = Location(rawValue: "Upper")
        /// The lower part of the device.
        public static let lower = Location(rawValue: "Lower")
    }
}
