import Foundation
import HostSystem
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
///
/// Priority: a device thread (a camera's or a screen's; a microphone's asks only for nice -10,
/// see `DeviceRunner`) asks for real-time scheduling (`SCHED_FIFO` at
/// `realTimePriority`, below a sound server's threads), allowed to root or by `RLIMIT_RTPRIO`,
/// else for a nice value of -10 (root, or `RLIMIT_NICE`), else runs at normal priority. On a
/// busy two-core machine a normal thread wakes up to 3 ms late at the 99th percentile and a
/// real-time one within 0.1 ms (`cyclictest` beside an x264 encode), and a frame's capture-to-
/// delegate latency follows: 6 ms at the 99th percentile with nice -10, 1.2 ms real-time (the
/// capture benchmark). A device thread sleeps between frames and its work per frame is bounded
/// (a conversion, the outputs' bookkeeping), and the kernel keeps 5% of each second for normal
/// threads in any case (`sched_rt_runtime_us`), so the encoders and the client's threads are not
/// starved. Threads it starts do not inherit the priority.
package final class DeviceThread: @unchecked Sendable {
    /// The real-time priority a device thread asks for (`SCHED_FIFO`): the lowest but one, below
    /// a sound server's (PulseAudio's and PipeWire's threads take 5 and up through rtkit).
    static let realTimePriority: Int32 = 2

    /// The longest single sleep: how late, at worst, a stop is noticed while the loop waits.
    package static let maximumSleepSlice: UInt64 = 20_000_000

    private let condition = NSCondition()
    private var stopRequested = false
    private var finished = false
    private var threadID: pthread_t?

    private init() {}

    /// Starts `body` on a new thread named `name`; `body` gets this object to sleep on. Without
    /// `realTime` the thread asks only for nice -10 (microphones: see `DeviceRunner`).
    package static func start(name: String, realTime: Bool = true,
                              body: @escaping @Sendable (DeviceThread) -> Void) -> DeviceThread {
        let deviceThread = DeviceThread()
        let thread = Thread {
            deviceThread.condition.withLock { deviceThread.threadID = pthread_self() }
            raisePriority(realTime: realTime)
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

    /// Puts the calling thread ahead of normal threads, as far as the process may (see the type's
    /// description); does nothing where it may not.
    private static func raisePriority(realTime asksForRealTime: Bool) {
        // Threads this one starts (a dispatch queue's workers, an encoder's threads) must not
        // inherit the priority: SCHED_RESET_ON_FORK gives them normal scheduling and nice 0.
        let resetOnFork: Int32 = 0x4000_0000
        var realTime = sched_param()
        realTime.sched_priority = realTimePriority
        if asksForRealTime, pthread_setschedparam(pthread_self(), SCHED_FIFO | resetOnFork, &realTime) == 0 { return }
        var parameters = sched_param()
        guard pthread_setschedparam(pthread_self(), SCHED_OTHER | resetOnFork, &parameters) == 0 else { return }
        // On Linux a nice value is the thread's own: `who` 0 is the calling thread.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, -10)
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

    /// The frame loop of a device on `grid`: from the first tick at or after now, prepares each
    /// tick's frame ahead of its deadline with `prepare(tick, sequence)`, sleeps to the deadline,
    /// then hands it to `deliver(frame, tick, sequence, &drops)`, which delivers it and returns
    /// false to end the loop (`sequence` counts ticks from the first). Ticks already overtaken
    /// when the thread wakes are skipped and recorded as `.late` in `drops`, and the frame is
    /// prepared again for the tick it is delivered at. A device that can only produce a frame at
    /// its deadline (a screen grab) prepares nothing and does its work in `deliver`. Ends when a
    /// stop is asked for.
    package func runFrames<Frame>(on grid: HostTimeGrid, prepare: (_ tick: UInt64, _ sequence: UInt64) -> Frame,
                                  deliver: (_ frame: Frame, _ tick: UInt64, _ sequence: UInt64,
                                            _ drops: inout [CaptureDropRun]) -> Bool) {
        let first = grid.tick(atOrAfter: HostClock.now)
        var tick = first
        var drops: [CaptureDropRun] = []
        var frame: Frame? = prepare(tick, 0)
        while sleep(untilNanoseconds: grid.deadline(ofTick: tick)) {
            let latest = grid.tick(atOrBefore: HostClock.now)
            if latest > tick {
                drops.record(Int(latest - tick), .late)
                tick = latest
                frame = nil
            }
            guard deliver(frame ?? prepare(tick, tick - first), tick, tick - first, &drops) else { return }
            frame = nil
            tick += 1
            frame = prepare(tick, tick - first)
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
