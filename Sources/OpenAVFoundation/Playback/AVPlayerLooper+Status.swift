extension AVPlayerLooper {
    /// Whether the looper is looping.
    public enum Status: Int, Sendable {
        /// Not yet known.
        case unknown = 0
        /// Looping.
        case ready = 1
        /// The template item cannot be played; `error` says why.
        case failed = 2
        /// `disableLooping()` stopped it.
        case cancelled = 3
    }
}
