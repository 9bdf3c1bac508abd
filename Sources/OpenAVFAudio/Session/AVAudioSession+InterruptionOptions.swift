extension AVAudioSession {
    /// What to do after an interruption ended.
    public struct InterruptionOptions: OptionSet, Hashable, Sendable {
        /// The option bits, as Apple's.
        public let rawValue: UInt
        /// The options with these bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// The app may resume its sound.
        public static let shouldResume = InterruptionOptions(rawValue: 1)
    }
}
