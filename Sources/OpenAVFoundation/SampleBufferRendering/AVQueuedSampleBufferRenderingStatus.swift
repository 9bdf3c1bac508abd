/// Whether a queued sample buffer renderer is rendering, or failed.
public enum AVQueuedSampleBufferRenderingStatus: Int, Sendable {
    /// Nothing was enqueued yet (or since a flush after a failure).
    case unknown = 0
    /// The renderer takes what is enqueued.
    case rendering = 1
    /// The renderer failed; its `error` says why. A flush lets it start again.
    case failed = 2
}
