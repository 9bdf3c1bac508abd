/// The loading state of one of an asset's values, as `statusOfValue(forKey:error:)` reports it.
public enum AVKeyValueStatus: Int, Sendable {
    /// Loading has not been asked for.
    case unknown = 0
    /// Loading is under way.
    case loading = 1
    /// The value is loaded and can be read without blocking.
    case loaded = 2
    /// Loading failed; the error says why.
    case failed = 3
    /// Loading was cancelled with `cancelLoading()`.
    case cancelled = 4
}
