/// How an engine in manual rendering mode is driven.
public enum AVAudioEngineManualRenderingMode: Int, Sendable {
    /// The caller renders as fast as it likes, unbound to real time (to a file, say); nodes may
    /// wait for their data, so every render is complete.
    case offline = 0
    /// The caller renders from its own real-time context: nodes never wait, and a player whose
    /// file has not been read far enough plays silence.
    case realtime = 1
}
