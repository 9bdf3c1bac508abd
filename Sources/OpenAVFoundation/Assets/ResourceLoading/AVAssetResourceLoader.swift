import Dispatch
import Foundation
import MediaEngine

/// The object through which an `AVURLAsset` asks its delegate for the bytes of a URL with a
/// scheme of the app's own (not `file`, `http` or `https`), for everything that reads the asset:
/// loading its properties, readers, the image generator, export and playback.
///
/// Each reader of the asset loads on its own: a first request asks for the content information
/// (with the first two bytes, as Apple's loader does), then data requests follow what is read,
/// a megabyte at a time where the delegate supports byte ranges, else one request for the whole
/// resource, kept in memory. A request that gets no bytes for 30 seconds (or the asset's
/// `AVURLAssetHTTPTimeoutIntervalKey`) is cancelled and fails the read with `URLError.timedOut`
/// underneath. Apple's content-key and renewal API is not here.
public final class AVAssetResourceLoader: NSObject, @unchecked Sendable {
    private let lock = NSLock()
    private weak var storedDelegate: (any AVAssetResourceLoaderDelegate)?
    private var storedQueue: DispatchQueue?
    /// The sources made for the asset's readers, held weakly, to cancel when the asset goes.
    private var sources: [WeakSource] = []

    private struct WeakSource {
        weak var source: ResourceLoaderByteSource?
    }

    override init() {
        super.init()
    }

    /// The delegate, held weakly; nil until `setDelegate(_:queue:)`.
    public var delegate: (any AVAssetResourceLoaderDelegate)? { lock.withLock { storedDelegate } }

    /// The queue the delegate's methods are called on.
    public var delegateQueue: DispatchQueue? { lock.withLock { storedQueue } }

    /// Sets the delegate and the queue its methods are called on. Set it before anything
    /// loads the asset: loads that started without a delegate fail.
    public func setDelegate(_ delegate: (any AVAssetResourceLoaderDelegate)?, queue delegateQueue: DispatchQueue?) {
        lock.withLock {
            storedDelegate = delegate
            storedQueue = delegateQueue
        }
    }

    /// Hands `request` to the delegate on its queue; a request it does not take on, or one
    /// made without a delegate, fails (from another thread: the caller holds the request's lock).
    func load(_ request: AVAssetResourceLoadingRequest) {
        guard let current = delegate, let queue = delegateQueue else {
            return DispatchQueue.global().async {
                request.fail(URLError(.unsupportedURL, userInfo: [
                    NSLocalizedDescriptionKey: "no resource loader delegate loads \(request.request.url?.absoluteString ?? "the URL")"]))
            }
        }
        nonisolated(unsafe) let delegate = current  // called on the queue the app chose for it
        queue.async {
            guard !delegate.resourceLoader(self, shouldWaitForLoadingOfRequestedResource: request) else { return }
            request.fail(URLError(.unsupportedURL, userInfo: [
                NSLocalizedDescriptionKey: "the resource loader delegate did not load \(request.request.url?.absoluteString ?? "the URL")"]))
        }
    }

    /// Tells the delegate that `request` was cancelled.
    func cancelled(_ request: AVAssetResourceLoadingRequest) {
        guard let current = delegate, let queue = delegateQueue else { return }
        nonisolated(unsafe) let delegate = current  // called on the queue the app chose for it
        queue.async { delegate.resourceLoader(self, didCancel: request) }
    }
}

extension AVAssetResourceLoader: ByteSourceFactory {
    /// URLs of any scheme but `file`, `http` and `https`, once there is a delegate.
    package func serves(_ url: URL) -> Bool {
        !url.isFileURL && !NetworkOptions.isNetworkURL(url) && delegate != nil
    }

    /// A source asking the delegate for `url`'s bytes, kept (weakly) to cancel with the asset.
    package func makeSource(for url: URL, timeout: Duration) -> any ByteSource {
        let source = ResourceLoaderByteSource(loader: self, url: url, timeout: timeout)
        lock.withLock {
            sources.removeAll { $0.source == nil }
            sources.append(WeakSource(source: source))
        }
        return source
    }

    /// Cancels every load under way (the asset was let go): the delegate is told of each
    /// unfinished request.
    func cancelAll() {
        let live = lock.withLock { sources.compactMap(\.source) }
        live.forEach { $0.cancel() }
    }
}
