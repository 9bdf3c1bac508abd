import Dispatch
import Foundation
import MediaEngine

/// Loads an asset's contents once, off the caller's thread, for every loading style: the
/// completion-handler style, `async` loading, and the old blocking properties all wait here.
final class AssetLoader: @unchecked Sendable {
    /// How loading stands.
    enum State {
        case idle
        case loading
        case loaded(AssetContents)
        case failed(AVError)
        case cancelled
    }

    /// Called once with the outcome; nil means loading was cancelled.
    typealias Waiter = (Result<AssetContents, AVError>?) -> Void

    private let lock = NSLock()
    private var state: State = .idle
    private var waiters: [Waiter] = []
    /// Bumped by `cancel()` so that a load finishing after it is ignored.
    private var generation = 0
    private let read: @Sendable () throws(AVError) -> AssetContents
    /// Whether the contents are made afresh at every request and never wait (a composition's,
    /// which edits change).
    private let isLive: Bool

    /// A loader that reads with `read` when first asked.
    init(read: @escaping @Sendable () throws(AVError) -> AssetContents) {
        self.read = read
        isLive = false
    }

    /// A loader that is always loaded: every request gets `current()` as it stands.
    init(live current: @escaping @Sendable () -> AssetContents) {
        read = current
        isLive = true
    }

    /// A loader reading a local file, or a network one with `network` (exact timing when
    /// `precise`).
    static func forURL(_ url: URL, precise: Bool, network: NetworkOptions = .standard) -> AssetLoader {
        AssetLoader { () throws(AVError) -> AssetContents in
            do throws(EngineError) {
                return try AssetContents(url: url, precise: precise, network: network)
            } catch {
                throw AVError(error, fallback: .failedToParse)
            }
        }
    }

    /// The current state.
    var current: State {
        if isLive, let contents = try? read() { return .loaded(contents) }
        return lock.withLock { state }
    }

    /// Calls `waiter` with the outcome, starting the load if nothing has started it.
    func whenLoaded(_ waiter: @escaping Waiter) {
        if isLive, let contents = try? read() { return waiter(.success(contents)) }
        let outcome: Result<AssetContents, AVError>? = lock.withLock {
            switch state {
            case .loaded(let contents): return .success(contents)
            case .failed(let error): return .failure(error)
            case .loading:
                waiters.append(waiter)
                return nil
            case .idle, .cancelled:
                state = .loading
                waiters.append(waiter)
                let generation = self.generation
                DispatchQueue.global(qos: .userInitiated).async { self.finish(generation) }
                return nil
            }
        }
        if let outcome { waiter(outcome) }
    }

    /// Reads the contents and hands the outcome to everyone waiting.
    private func finish(_ generation: Int) {
        let outcome: Result<AssetContents, AVError>
        do {
            outcome = .success(try read())
        } catch {
            outcome = .failure(error)
        }
        let ready: [Waiter] = lock.withLock {
            guard generation == self.generation else { return [] }
            switch outcome {
            case .success(let contents): state = .loaded(contents)
            case .failure(let error): state = .failed(error)
            }
            defer { waiters = [] }
            return waiters
        }
        ready.forEach { $0(outcome) }
    }

    /// Cancels a load under way: its waiters hear "cancelled"; a later request loads again.
    func cancel() {
        let cancelled: [Waiter] = lock.withLock {
            guard case .loading = state else { return [] }
            state = .cancelled
            generation += 1
            defer { waiters = [] }
            return waiters
        }
        cancelled.forEach { $0(nil) }
    }

    /// The contents, loading them if needed, without blocking a thread.
    func contents() async throws -> AssetContents {
        try await withCheckedThrowingContinuation { continuation in
            whenLoaded { outcome in
                switch outcome {
                case .success(let contents): continuation.resume(returning: contents)
                case .failure(let error): continuation.resume(throwing: error)
                case nil: continuation.resume(throwing: AVError(.operationCancelled, reason: "loading was cancelled"))
                }
            }
        }
    }

    /// The contents, loading them if needed and blocking the calling thread until they are
    /// there (the deprecated synchronous properties).
    func contentsBlocking() -> Result<AssetContents, AVError> {
        if case .loaded(let contents) = current { return .success(contents) }
        let done = DispatchSemaphore(value: 0)
        let box = OutcomeBox()
        whenLoaded { outcome in
            box.outcome = outcome
            done.signal()
        }
        done.wait()
        return box.outcome ?? .failure(AVError(.operationCancelled, reason: "loading was cancelled"))
    }

    /// Holds an outcome across the semaphore wait.
    private final class OutcomeBox: @unchecked Sendable {
        var outcome: Result<AssetContents, AVError>?
    }
}
