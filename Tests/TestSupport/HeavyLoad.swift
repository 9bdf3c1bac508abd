import Dispatch
import Testing

/// Keeps the tests that load both cores for many seconds (an emulated VM, encoding at 4K, the
/// serialized capture session suite) apart from the tests that measure real-time pacing (live
/// audio from a sound server): test targets run their suites in parallel in one process, and
/// such pairs would measure each other.
public enum HeavyLoad {
    /// Held by whoever runs heavy or timing-sensitive work (a semaphore: an async suite scope
    /// may release it from another thread than the one that took it).
    private static let semaphore = DispatchSemaphore(value: 1)

    private static func acquire() { semaphore.wait() }
    private static func tryAcquire() -> Bool { semaphore.wait(timeout: .now()) == .success }
    private static func release() { semaphore.signal() }

    /// Runs `body` while no other holder runs.
    public static func exclusively<Result>(_ body: () throws -> Result) rethrows -> Result {
        acquire()
        defer { release() }
        return try body()
    }

    /// A suite trait: the whole suite runs while no other holder runs.
    public struct Scope: SuiteTrait, TestScoping {
        /// The trait.
        public init() {}

        /// Runs the suite holding the lock.
        public func provideScope(for test: Test, testCase: Test.Case?,
                                 performing function: @Sendable () async throws -> Void) async throws {
            // Polled, never waited for: a blocked wait would hold one of the few threads the
            // test runner's tasks share, which the holder's own tests need.
            while !HeavyLoad.tryAcquire() { try await Task.sleep(nanoseconds: 20_000_000) }
            defer { HeavyLoad.release() }
            try await function()
        }
    }
}
