extension AVPlayer {
    /// Whether a player can play.
    public enum Status: Int, Sendable {
        /// Not yet known: no item has been ready yet.
        case unknown = 0
        /// The player can play items.
        case readyToPlay = 1
        /// The player can no longer play; `error` says why.
        case failed = 2
    }
}
