extension AVPlayer {
    /// Whether playback is under way, paused, or waiting to go on.
    public enum TimeControlStatus: Int, Sendable {
        /// The rate is 0.
        case paused = 0
        /// The rate is not 0, but playback waits: see `reasonForWaitingToPlay`.
        case waitingToPlayAtSpecifiedRate = 1
        /// Playback is under way at the rate asked for.
        case playing = 2
    }
}
