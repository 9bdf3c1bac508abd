extension AVPlayerItem {
    /// Whether an item can be played.
    public enum Status: Int, Sendable {
        /// Not yet known: the item has not been given to a player, or its asset is loading.
        case unknown = 0
        /// The item is ready to play.
        case readyToPlay = 1
        /// The item cannot be played; `error` says why.
        case failed = 2
    }
}
