import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request of a resource loader to its delegate: what it wants to know about the resource
/// (`contentInformationRequest`), which bytes (`dataRequest`), and how the delegate answers
/// (`finishLoading()`, `finishLoading(with:)`). The delegate may answer from any thread.
public final class AVAssetResourceLoadingRequest: NSObject, @unchecked Sendable {
    /// The URL request for the resource: the asset's URL.
    public let request: URLRequest

    /// What the delegate fills in about the resource before it responds with data, or nil when
    /// the loader already knows.
    public let contentInformationRequest: AVAssetResourceLoadingContentInformationRequest?

    /// The bytes asked for, or nil.
    public let dataRequest: AVAssetResourceLoadingDataRequest?

    /// The URL response the delegate may set for the resource (not looked at here).
    public var response: URLResponse? {
        get { condition.withLock { storedResponse } }
        set { condition.withLock { storedResponse = newValue } }
    }

    /// A redirect the delegate may set (not followed here: the delegate answers with the data).
    public var redirect: URLRequest? {
        get { condition.withLock { storedRedirect } }
        set { condition.withLock { storedRedirect = newValue } }
    }

    /// Whether the delegate called `finishLoading()` or `finishLoading(with:)`.
    public var isFinished: Bool { condition.withLock { finished } }

    /// Whether the loader cancelled the request (it then tells the delegate).
    public var isCancelled: Bool { condition.withLock { cancelled } }

    // Guarded by `condition`, which the byte source waiting for the request shares.
    let condition: NSCondition
    private weak var loader: AVAssetResourceLoader?
    private var storedResponse: URLResponse?
    private var storedRedirect: URLRequest?
    private var finished = false
    private var cancelled = false
    /// The bytes received from the data request's offset on.
    private(set) var received = Data()
    /// The error the request failed with.
    private(set) var failure: (any Error)?
    /// When bytes or the answer last came (or the request was made).
    private(set) var lastProgress = Date()

    /// A request for `url` from `loader`, guarded by `condition`: content information when
    /// `asksForInformation`, bytes from `offset` (`length` of them, or all to the end).
    init(url: URL, loader: AVAssetResourceLoader, condition: NSCondition, asksForInformation: Bool,
         offset: Int64, length: Int, toEnd: Bool) {
        request = URLRequest(url: url)
        self.condition = condition
        self.loader = loader
        contentInformationRequest = asksForInformation ? AVAssetResourceLoadingContentInformationRequest() : nil
        dataRequest = AVAssetResourceLoadingDataRequest(offset: offset, length: length, toEnd: toEnd)
        super.init()
        dataRequest?.loadingRequest = self
    }

    /// Says the request is done: the data responded with is all there is of the range asked
    /// for (less than asked means the resource ends there).
    public func finishLoading() {
        condition.withLock {
            guard !finished, !cancelled else { return }
            finished = true
            lastProgress = Date()
            condition.broadcast()
        }
    }

    /// Says the request failed with `error` (a generic error when nil): what reads the asset
    /// fails with it underneath.
    public func finishLoading(with error: (any Error)?) {
        fail(error ?? URLError(.resourceUnavailable))
    }

    /// Finishes the request with a failure.
    func fail(_ error: any Error) {
        condition.withLock {
            guard !finished, !cancelled else { return }
            finished = true
            failure = error
            lastProgress = Date()
            condition.broadcast()
        }
    }

    /// Bytes from the delegate, following those before.
    func append(_ data: Data) {
        condition.withLock {
            guard !finished, !cancelled, !data.isEmpty else { return }
            received.append(data)
            lastProgress = Date()
            condition.broadcast()
        }
    }

    /// How many bytes were received (for the data request's `currentOffset`).
    var receivedCount: Int { condition.withLock { received.count } }

    /// Cancels an unfinished request and tells the delegate; the caller holds `condition`.
    func cancelLocked() {
        guard !finished, !cancelled else { return }
        cancelled = true
        condition.broadcast()
        loader?.cancelled(self)
    }

    /// Whether it finished (caller holds `condition`).
    var isFinishedLocked: Bool { finished }
}
