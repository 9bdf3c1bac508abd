extension AVAudioSession {
    /// Whether an interruption began or ended.
    public enum InterruptionType: UInt, Sendable {
        /// The sound server went away.
        case began = 1
        /// The sound server is back.
        case ended = 0
    }
}
