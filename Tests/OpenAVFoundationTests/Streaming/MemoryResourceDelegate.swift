import Foundation
@testable import OpenAVFoundation

/// A resource loader delegate serving a file from memory, as a caching or decrypting player
/// would: it answers on a queue of its own, in pieces, after the call returns; it records every
/// request and cancellation.
final class MemoryResourceDelegate: NSObject, AVAssetResourceLoaderDelegate, @unchecked Sendable {
    /// How it answers.
    enum Behaviour {
        /// Content information with byte ranges, data in pieces of `piece` bytes.
        case byteRanges(piece: Int)
        /// Content information without byte-range access: the loader asks for everything once.
        case wholeResource
        /// No content information at all; the data as asked.
        case noInformation
        /// As `byteRanges(piece: 256 KiB)`, but data requests from `offset` on get nothing.
        case stallsFrom(offset: Int64)
        /// Every request fails with `MemoryResourceDelegate.failure`.
        case fails
        /// Declines every request.
        case declines
        /// Takes every request and never answers.
        case neverAnswers
    }

    /// The error `.fails` answers with.
    static let failure = NSError(domain: "MemoryResourceDelegate", code: 42, userInfo: [NSLocalizedDescriptionKey: "the cache is gone"])

    /// What a request asked for.
    struct Asked: Equatable {
        var offset: Int64
        var length: Int
        var toEnd: Bool
        var information: Bool
    }

    let data: Data
    let behaviour: Behaviour
    let queue = DispatchQueue(label: "MemoryResourceDelegate")
    private let answering = DispatchQueue(label: "MemoryResourceDelegate.answers")
    private let lock = NSLock()
    private var asked: [Asked] = []
    private var cancelledRequests: [Asked] = []
    private var cancellationObservers: [@Sendable () -> Void] = []
    private var stalled = false
    private var stallObservers: [@Sendable () -> Void] = []

    init(file: URL, behaviour: Behaviour) throws {
        data = try Data(contentsOf: file)
        self.behaviour = behaviour
    }

    /// Every request made so far, in order.
    var requests: [Asked] { lock.withLock { asked } }

    /// Every request cancelled so far, in order.
    var cancellations: [Asked] { lock.withLock { cancelledRequests } }

    /// Calls `done` once a request has been cancelled (at once if one was).
    func whenCancelled(_ done: @escaping @Sendable () -> Void) {
        let now = lock.withLock { () -> Bool in
            if !cancelledRequests.isEmpty { return true }
            cancellationObservers.append(done)
            return false
        }
        if now { done() }
    }

    /// Calls `done` once a request of `.stallsFrom` was left unanswered (at once if one was).
    func whenStalled(_ done: @escaping @Sendable () -> Void) {
        let now = lock.withLock { () -> Bool in
            if stalled { return true }
            stallObservers.append(done)
            return false
        }
        if now { done() }
    }

    private static func asked(_ request: AVAssetResourceLoadingRequest) -> Asked {
        Asked(offset: request.dataRequest?.requestedOffset ?? -1, length: request.dataRequest?.requestedLength ?? 0,
              toEnd: request.dataRequest?.requestsAllDataToEndOfResource ?? false, information: request.contentInformationRequest != nil)
    }

    func resourceLoader(_ resourceLoader: AVAssetResourceLoader,
                        shouldWaitForLoadingOfRequestedResource loadingRequest: AVAssetResourceLoadingRequest) -> Bool {
        dispatchPrecondition(condition: .onQueue(queue))
        lock.withLock { asked.append(Self.asked(loadingRequest)) }
        switch behaviour {
        case .declines: return false
        case .neverAnswers: return true
        case .fails:
            answering.async { loadingRequest.finishLoading(with: Self.failure) }
            return true
        case .stallsFrom(let offset):
            if let request = loadingRequest.dataRequest, request.requestedOffset >= offset {
                let observers = lock.withLock { () -> [@Sendable () -> Void] in
                    stalled = true
                    defer { stallObservers = [] }
                    return stallObservers
                }
                observers.forEach { $0() }
                return true
            }
        case .byteRanges, .wholeResource, .noInformation: break
        }
        if let information = loadingRequest.contentInformationRequest {
            if case .noInformation = behaviour {} else {
                information.contentType = "public.mpeg-4"
                information.contentLength = Int64(data.count)
                if case .wholeResource = behaviour {} else { information.isByteRangeAccessSupported = true }
            }
        }
        let piece: Int
        switch behaviour {
        case .byteRanges(let size): piece = size
        default: piece = 256 * 1024
        }
        answering.async { [data] in
            guard let request = loadingRequest.dataRequest else { return loadingRequest.finishLoading() }
            let start = Int(request.requestedOffset)
            let end = request.requestsAllDataToEndOfResource ? data.count : min(data.count, start + request.requestedLength)
            var offset = start
            while offset < end, !loadingRequest.isCancelled {
                let next = min(end, offset + piece)
                request.respond(with: data.subdata(in: offset..<next))
                offset = next
            }
            loadingRequest.finishLoading()
        }
        return true
    }

    func resourceLoader(_ resourceLoader: AVAssetResourceLoader, didCancel loadingRequest: AVAssetResourceLoadingRequest) {
        dispatchPrecondition(condition: .onQueue(queue))
        let observers = lock.withLock { () -> [@Sendable () -> Void] in
            precondition(loadingRequest.isCancelled)
            cancelledRequests.append(Self.asked(loadingRequest))
            defer { cancellationObservers = [] }
            return cancellationObservers
        }
        observers.forEach { $0() }
    }
}
