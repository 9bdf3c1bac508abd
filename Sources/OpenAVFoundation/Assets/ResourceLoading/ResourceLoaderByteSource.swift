import Foundation
import MediaEngine

/// The bytes of a custom-scheme URL, asked of a resource loader's delegate as a demuxer reads:
/// a first request for the content information, then one data request at a time for the
/// megabyte read from (the whole resource, once, when the delegate does not take byte ranges).
/// The last few finished requests are kept, for the demuxer's short seeks back; a read outside
/// them cancels an unfinished request and asks for the range it needs.
final class ResourceLoaderByteSource: ByteSource, @unchecked Sendable {
    /// How many bytes a data request asks for when the delegate takes byte ranges.
    static let requestSize = 1 << 20
    /// How many finished requests' bytes are kept.
    static let keptRequests = 4

    private let loader: AVAssetResourceLoader
    private let url: URL
    private let timeout: TimeInterval
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var contentLength: Int64?
    private var takesByteRanges = false
    private var active: AVAssetResourceLoadingRequest?
    private var kept: [(offset: Int64, data: Data)] = []
    private var isCancelled = false

    init(loader: AVAssetResourceLoader, url: URL, timeout: Duration) {
        self.loader = loader
        self.url = url
        self.timeout = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
    }

    var length: Int64? { condition.withLock { contentLength } }

    func open() throws(EngineError) {
        condition.lock()
        defer { condition.unlock() }
        let first = start(offset: 0, length: 2, toEnd: false, asksForInformation: true)
        try wait(for: first) { first.isFinishedLocked }
        if let failure = first.failure { throw failed(failure) }
        let information = first.contentInformationRequest
        let stated = information?.contentLength ?? 0
        contentLength = stated > 0 ? stated : nil
        takesByteRanges = information?.isByteRangeAccessSupported ?? false
        active = nil
        if !first.received.isEmpty { kept.append((0, first.received)) }
        if !takesByteRanges {
            // Everything, once, from the start.
            active = start(offset: 0, length: contentLength.map { Int($0) } ?? Int.max, toEnd: true, asksForInformation: false)
        }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(EngineError) -> Int {
        condition.lock()
        defer { condition.unlock() }
        while true {
            guard !isCancelled else { throw EngineError.cancelled("reading \(url.absoluteString)") }
            if let contentLength, offset >= contentLength { return 0 }
            if let piece = kept.last(where: { $0.offset <= offset && offset < $0.offset + Int64($0.data.count) }) {
                return Self.copy(piece.data, from: Int(offset - piece.offset), into: buffer)
            }
            if let request = active, let data = request.dataRequest, data.requestedOffset <= offset {
                let end = data.requestedOffset + Int64(request.received.count)
                let requestedEnd = data.requestsAllDataToEndOfResource ? Int64.max : data.requestedOffset + Int64(data.requestedLength)
                if offset < end { return Self.copy(request.received, from: Int(offset - data.requestedOffset), into: buffer) }
                if offset < requestedEnd {
                    if request.isFinishedLocked {
                        if let failure = request.failure { throw failed(failure) }
                        // Finished short of what was asked: the resource ends there.
                        return 0
                    }
                    try wait(for: request) { request.received.count > Int(offset - data.requestedOffset) || request.isFinishedLocked }
                    continue
                }
            }
            guard takesByteRanges else { return 0 }
            retireActive()
            let length = contentLength.map { min(Int64(Self.requestSize), $0 - offset) } ?? Int64(Self.requestSize)
            active = start(offset: offset, length: Int(length), toEnd: false, asksForInformation: false)
        }
    }

    func cancel() {
        condition.withLock {
            isCancelled = true
            active?.cancelLocked()
            condition.broadcast()
        }
    }

    /// Makes a request and hands it to the delegate (caller holds `condition`).
    private func start(offset: Int64, length: Int, toEnd: Bool, asksForInformation: Bool) -> AVAssetResourceLoadingRequest {
        let request = AVAssetResourceLoadingRequest(url: url, loader: loader, condition: condition, asksForInformation: asksForInformation,
                                                    offset: offset, length: length, toEnd: toEnd)
        loader.load(request)
        return request
    }

    /// Keeps the active request's bytes and cancels it if unfinished (caller holds `condition`).
    private func retireActive() {
        guard let request = active, let data = request.dataRequest else { return }
        request.cancelLocked()
        if !request.received.isEmpty { kept.append((data.requestedOffset, request.received)) }
        if kept.count > Self.keptRequests { kept.removeFirst(kept.count - Self.keptRequests) }
        active = nil
    }

    /// Waits until `done` (caller holds `condition`); a request that makes no progress within
    /// the timeout is cancelled and the read fails as a network read that timed out does.
    private func wait(for request: AVAssetResourceLoadingRequest, until done: () -> Bool) throws(EngineError) {
        while !done() {
            guard !isCancelled else { throw EngineError.cancelled("reading \(url.absoluteString)") }
            let deadline = request.lastProgress.addingTimeInterval(timeout)
            if !condition.wait(until: deadline), Date() >= request.lastProgress.addingTimeInterval(timeout), !done() {
                request.cancelLocked()
                throw EngineError.timedOut("waiting \(timeout) s for the resource loader delegate's bytes of \(url.absoluteString)")
            }
        }
    }

    /// The engine error of a request the delegate failed, with its error underneath.
    private func failed(_ failure: any Error) -> EngineError {
        var error = EngineError(operation: "loading \(url.absoluteString) through the resource loader delegate",
                                message: (failure as NSError).localizedDescription)
        error.cause = failure
        return error
    }

    /// Copies from `data` at `index` into `buffer`: how many bytes.
    private static func copy(_ data: Data, from index: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(buffer.count, data.count - index)
        data.withUnsafeBytes { bytes in
            buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + index, byteCount: count)
        }
        return count
    }
}
