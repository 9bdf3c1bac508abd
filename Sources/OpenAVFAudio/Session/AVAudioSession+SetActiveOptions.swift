extension AVAudioSession {
    /// Options of `setActive(_:options:)`.
    public struct SetActiveOptions: OptionSet, Hashable, Sendable {
        /// The option bits, as Apple's.
        public let rawValue: UInt
        /// The options with these bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Tell other apps the session ended (nothing to tell on a sound server).
        public static let notifyOthersOnDeactivation = SetActiveOptions(rawValue: 1)
    }
}
