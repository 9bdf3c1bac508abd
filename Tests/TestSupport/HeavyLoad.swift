import Foundation

/// Keeps the tests that load both cores for many seconds (an emulated VM, 4K encoding) apart
/// from the tests that measure real-time pacing (live audio from a sound server): test targets
/// run their suites in parallel in one process, and such pairs would measure each other.
public enum HeavyLoad {
    private static let lock = NSLock()

    /// Runs `body` while no other test holding the lock runs.
    public static func exclusively<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
