extension AVAudioSession {
    /// Which way a data source faces.
    public struct Orientation: RawRepresentable, Hashable, Sendable {
        /// The constant's string, as Apple's.
        public let rawValue: String
        /// The constant with this string.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Facing up.
        public static let top = Orientation(rawValue: "Top")
        /// Facing down.
        public static let bottom = Orientation(rawValue: "Bottom")
        /// Facing the user.
        public static let front = Orientation(rawValue: "Front")
        /// Facing away from the user.
        public static let back = Orientation(rawValue: "Back")
        /// Facing left.
        public static let left = Orientation(rawValue: "Left")
        /// Facing right.
        public static let right = Orientation(rawValue: "Right")
    }
}
