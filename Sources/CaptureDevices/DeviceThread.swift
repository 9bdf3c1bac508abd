import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A device's own thread: runs a production loop that sleeps to absolute host-clock deadlines,
/// and stops synchronously.
///
/// The loop calls `sleep(untilNanoseconds:)` before each frame; it returns false once a stop was
/// asked for, and the loop ends. `stop()` waits until the loop has ended, so no delivery happens
/// after it returns. Long waits (low frame rates) are cut into slices of at most
/// `maximumSleepSlice` so that a stop is noticed promptly; every slice ends at an absolute time,
/// and the last one at the deadline itself.
package final class DeviceThread: @unchecked Sendable {
    /// The longest single sleep: how late, at worst, a stop is noticed while the loop waits.
    package static let maximumSleepSlice: UInt64 = 20_000_000

    private let condition = NSCondition()
    private var stopRequested = false
    private var finished = false
    private var threadID: pthread_t?

    private init() {}

    /// Starts `body` on a new thread named `name`; `body` gets this object to sleep on.
    package static func start(name: String, body: @escaping @Sendable (DeviceThread) -> Void) -> DeviceThread {
        let deviceThread = DeviceThread()
        let thread = Thread {
            deviceThread.condition.withLock { deviceThread.threadID = pthread_self() }
            body(deviceThread)
            deviceThread.condition.withLock {
                deviceThread.finished = true
                deviceThread.condition.broadcast()
            }
        }
        thread.name = name
        thread.start()
        return deviceThread
    }

    /// Whether a stop was asked for.
    package var isStopRequested: Bool {
        condition.withLock { stopRequested }
    }

    /// Sleeps until the host clock reaches `deadline` (nanoseconds); false, at once or within
    /// `maximumSleepSlice`, when a stop was asked for.
    package func sleep(untilNanoseconds deadline: UInt64) -> Bool {
        while true {
            if isStopRequested { return false }
            let now = HostClock.now
            if now >= deadline { return true }
            HostClock.sleep(untilNanoseconds: min(deadline, now + Self.maximumSleepSlice))
        }
    }

    /// The frame loop of a device on `grid`: from the first tick at or after now, sleeps to each
    /// tick's deadline; ticks already overtaken when the thread wakes are skipped and recorded as
    /// `.late` in `drops`; then `frame(tick, sequence, &drops)` makes and delivers the frame
    /// (`sequence` counts ticks from the first) and returns false to end the loop. Ends when a
    /// stop is asked for.
    package func runFrames(on grid: HostTimeGrid,
                           _ frame: (_ tick: UInt64, _ sequence: UInt64, _ drops: inout [CaptureDropRun]) -> Bool) {
        let first = grid.tick(atOrAfter: HostClock.now)
        var tick = first
        var drops: [CaptureDropRun] = []
        while sleep(untilNanoseconds: grid.deadline(ofTick: tick)) {
            let latest = grid.tick(atOrBefore: HostClock.now)
            if latest > tick {
                drops.record(Int(latest - tick), .late)
                tick = latest
            }
            guard frame(tick, tick - first, &drops) else { return }
            tick += 1
        }
    }

    /// Asks the loop to end and waits until it has. From the device thread itself (a handler
    /// stopping its device) it only asks: the delivery in progress is the last.
    package func stop() {
        condition.lock()
        defer { condition.unlock() }
        stopRequested = true
        if let threadID, pthread_equal(threadID, pthread_self()) != 0 { return }
        while !finished { condition.wait() }
    }
}
