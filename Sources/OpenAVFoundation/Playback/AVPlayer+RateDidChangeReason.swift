extension AVPlayer {
    /// Why a player's rate changed: the value under `AVPlayer.rateDidChangeReasonKey` in a
    /// `rateDidChangeNotification`'s user info.
    public struct RateDidChangeReason: RawRepresentable, Hashable, Sendable {
        /// The reason's name.
        public let rawValue: String

        /// Makes a reason from its name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The program set the rate (`rate`, `play()`, `pause()`, `playImmediately(atRate:)`,
        /// `setRate(_:time:atHostTime:)`).
        public static let setRateCalled = RateDidChangeReason(rawValue: "AVPlayerRateDidChangeReasonSetRateCalled")
        /// The player could not play at the rate asked for (not posted on Linux).
        public static let setRateFailed = RateDidChangeReason(rawValue: "AVPlayerRateDidChangeReasonSetRateFailed")
        /// An audio session interruption paused the player (iOS; never on Linux).
        public static let audioSessionInterrupted = RateDidChangeReason(rawValue: "AVPlayerRateDidChangeReasonAudioSessionInterrupted")
        /// The app went to the background (iOS; never on Linux).
        public static let appBackgrounded = RateDidChangeReason(rawValue: "AVPlayerRateDidChangeReasonAppBackgrounded")
    }
}
