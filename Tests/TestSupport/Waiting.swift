import Dispatch
import Foundation

// How tests wait: on the event itself, through the API's own signal (a key-value observation, a
// notification, a time observer, a delegate call, a process's termination handler, a readable
// descriptor), always with a deadline, so that a broken feature fails the test instead of hanging
// it. `pollUntil` is only for what gives no notice when it changes.

/// Starts watching for an event with `observe` and waits until it calls `done`, at most `timeout`
/// seconds; whether the event came in time.
///
/// `observe` sets up the watch (the observation's `.initial` report, or a check of the state once
/// the watch is set, covers an event that already happened) and calls `done` when the event
/// happens, from any thread, as often as it likes. It returns how to stop watching (invalidate
/// the observation, remove the observer), or nil: that runs once the wait ends.
public func waitUntil(timeout: TimeInterval,
                      _ observe: (_ done: @escaping @Sendable () -> Void) throws -> (() -> Void)?) async rethrows -> Bool {
    let wait = AsyncWait()
    let stop = try observe { wait.finish(true) }
    defer { stop?() }
    return await wait.result(timeout: timeout)
}

/// `waitUntil(timeout:_:)` for code that is not async: blocks the calling thread until the event
/// comes or `timeout` seconds pass; whether the event came in time.
public func waitUntil(timeout: TimeInterval,
                      _ observe: (_ done: @escaping @Sendable () -> Void) throws -> (() -> Void)?) rethrows -> Bool {
    let semaphore = DispatchSemaphore(value: 0)
    let stop = try observe { semaphore.signal() }
    defer { stop?() }
    return semaphore.wait(timeout: .now() + timeout) == .success
}

/// One asynchronous wait: ended once, by the event or by the deadline, whichever comes first.
private final class AsyncWait: @unchecked Sendable {
    private let lock = NSLock()
    private var outcome: Bool?
    private var continuation: CheckedContinuation<Bool, Never>?

    /// Ends the wait with `value` (true: the event came), unless it has ended already.
    func finish(_ value: Bool) {
        let waiting = lock.withLock { () -> CheckedContinuation<Bool, Never>? in
            guard outcome == nil else { return nil }
            outcome = value
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: value)
    }

    /// How the wait ended: at once when it has, else once the event comes or `timeout` passes.
    func result(timeout: TimeInterval) async -> Bool {
        await withCheckedContinuation { continuation in
            let known = lock.withLock { () -> Bool? in
                if outcome == nil { self.continuation = continuation }
                return outcome
            }
            if let known {
                continuation.resume(returning: known)
            } else {
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { self.finish(false) }
            }
        }
    }
}

/// Checks `condition` every `interval` seconds until it holds, at most `timeout` seconds; whether
/// it held. Only for state that gives no notice when it changes (a file another process writes, a
/// sound server's latency, a page's state read through its own API): whatever has an event is
/// waited for with `waitUntil`.
public func pollUntil(timeout: TimeInterval, every interval: TimeInterval = 0.02, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while try !condition() {
        guard Date() < deadline else { return false }
        Thread.sleep(forTimeInterval: interval)
    }
    return true
}

/// `pollUntil(timeout:every:_:)` for async code: suspends between checks instead of blocking a
/// thread; throws `CancellationError` when the task is cancelled.
public func pollUntil(timeout: TimeInterval, every interval: TimeInterval = 0.02,
                      _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while try await !condition() {
        guard Date() < deadline else { return false }
        try await Task.sleep(nanoseconds: UInt64(interval * 1e9))
    }
    return true
}

/// Waits until `descriptor` can be read (data came, or every writer has closed it), at most
/// `timeout` seconds; whether it can.
public func waitUntilReadable(_ descriptor: Int32, timeout: TimeInterval) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    while true {
        let milliseconds = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
        let ready = poll(&entry, 1, milliseconds)
        if ready != -1 || errno != EINTR { return ready > 0 }
    }
}

extension Process {
    /// Waits until the process has exited (its termination handler, which this replaces, tells),
    /// at most `timeout` seconds; whether it has.
    public func exits(within timeout: TimeInterval) async -> Bool {
        await waitUntil(timeout: timeout) { done in watchExit(done) }
    }

    /// `exits(within:)` for code that is not async: blocks the calling thread.
    public func exits(within timeout: TimeInterval) -> Bool {
        waitUntil(timeout: timeout) { done in watchExit(done) }
    }

    /// Calls `done` once the process has exited: from its termination handler, or at once when it
    /// had exited before the handler was set.
    private func watchExit(_ done: @escaping @Sendable () -> Void) -> (() -> Void)? {
        terminationHandler = { _ in done() }
        if !isRunning { done() }
        return { [self] in terminationHandler = nil }
    }
}
