extension AVAudioSession {
    /// A route-sharing policy (kept for source compatibility; Linux routes are the server's).
    public enum RouteSharingPolicy: UInt, Sendable {
        /// The system's routing (the only one on Linux).
        case `default` = 0
        /// Routes for long-form audio, such as music and podcasts.
        case longFormAudio = 1
        /// Routes chosen by the app.
        case independent = 2
    }
}
