extension AVPlayer {
    /// What a player does when its item has played to its end.
    public enum ActionAtItemEnd: Int, Sendable {
        /// Goes on with the next item (an `AVQueuePlayer`'s default).
        case advance = 0
        /// Pauses at the end (an `AVPlayer`'s default).
        case pause = 1
        /// Does nothing: the rate stays, the time stays at the end.
        case none = 2
    }
}
