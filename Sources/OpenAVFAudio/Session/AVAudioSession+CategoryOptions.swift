extension AVAudioSession {
    /// Options of a category. Accepted and kept on Linux: mixing with others is always what a
    /// sound server does.
    public struct CategoryOptions: OptionSet, Hashable, Sendable {
        /// The option bits, as Apple's.
        public let rawValue: UInt
        /// The options with these bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Mix with other apps' sound (always so on Linux).
        public static let mixWithOthers = CategoryOptions(rawValue: 0x1)
        /// Lower other apps' sound while playing (not done on Linux).
        public static let duckOthers = CategoryOptions(rawValue: 0x2)
        /// Allow Bluetooth hands-free inputs (always so on Linux).
        public static let allowBluetooth = CategoryOptions(rawValue: 0x4)
        /// Play to the speaker rather than the receiver (no receiver on Linux).
        public static let defaultToSpeaker = CategoryOptions(rawValue: 0x8)
        /// Pause spoken audio of other apps and mix with the rest (mixing only, on Linux).
        public static let interruptSpokenAudioAndMixWithOthers = CategoryOptions(rawValue: 0x11)
        /// Allow Bluetooth A2DP outputs (always so on Linux).
        public static let allowBluetoothA2DP = CategoryOptions(rawValue: 0x20)
        /// Allow AirPlay outputs (none on Linux).
        public static let allowAirPlay = CategoryOptions(rawValue: 0x40)
        /// Do not interrupt when the microphone is muted (never interrupted so on Linux).
        public static let overrideMutedMicrophoneInterruption = CategoryOptions(rawValue: 0x80)
    }
}
