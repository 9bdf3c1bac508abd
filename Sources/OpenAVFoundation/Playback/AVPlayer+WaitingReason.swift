extension AVPlayer {
    /// Why a player with a rate other than 0 is not playing.
    public struct WaitingReason: RawRepresentable, Hashable, Sendable {
        /// The reason's name, as Apple spells it.
        public let rawValue: String

        /// Makes a reason from its name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// Waiting for enough media to play without stalling (the item is loading or
        /// buffering).
        public static let toMinimizeStalls = WaitingReason(rawValue: "AVPlayerWaitingToMinimizeStallsReason")
        /// Waiting while the player measures how fast media arrives.
        public static let evaluatingBufferingRate = WaitingReason(rawValue: "AVPlayerWaitingWhileEvaluatingBufferingRateReason")
        /// The player has no item to play.
        public static let noItemToPlay = WaitingReason(rawValue: "AVPlayerWaitingWithNoItemToPlayReason")
        /// Waiting for the other participants of coordinated playback (never on Linux).
        public static let waitingForCoordinatedPlayback = WaitingReason(rawValue: "AVPlayerWaitingForCoordinatedPlaybackReason")
    }
}
