import Foundation
import OpenCoreVideo

/// A timer a timebase schedules: a run-loop timer or a dispatch timer source, the time on the
/// timebase's timeline at which it fires next, and whether the timebase leaves it alone.
/// Unchecked: `Timer` and the dispatch source are set from any thread, as Core Foundation and
/// libdispatch allow.
struct TimebaseTimer: @unchecked Sendable {
    enum Kind {
        case runLoop(Timer)
        case dispatch(any DispatchSourceTimer)
    }

    let kind: Kind
    /// When it fires next, on the timebase's timeline; not numeric for never.
    var fireTime = CMTime.invalid
    /// Set by `setTimerToFireImmediately`: the timebase does not move the timer again until its
    /// next fire time is set.
    var firesImmediately = false

    /// Whether its owner has invalidated or cancelled it, so that the timebase lets it go.
    var isFinished: Bool {
        switch kind {
        case .runLoop(let timer): !timer.isValid
        case .dispatch(let source): source.isCancelled
        }
    }

    /// Host nanoseconds added to every deadline, so that a timer never fires before its time:
    /// the rate's floating-point division and a run loop's conversion of the date to its own
    /// clock each round by less.
    static let marginNanoseconds: UInt64 = 20_000

    /// Arms the timer for host time `deadline` (`CLOCK_MONOTONIC`), or parks it far in the
    /// future for nil.
    func arm(hostTime deadline: CMTime?) {
        let nanoseconds = deadline.map {
            CMClockConvertHostTimeToSystemUnits(CMTimeConvertScale($0, timescale: CMClock.nanosecondsPerSecond,
                                                                   method: .roundTowardPositiveInfinity)) + Self.marginNanoseconds
        }
        switch kind {
        case .runLoop(let timer):
            guard let nanoseconds else {
                timer.fireDate = Date(timeIntervalSinceReferenceDate: CMTimebase.farFuture)
                return
            }
            let now = CMClock.monotonicNanoseconds()
            let delay = nanoseconds > now ? Double(nanoseconds - now) / 1e9 : 0
            timer.fireDate = Date(timeIntervalSinceNow: delay)
        case .dispatch(let source):
            source.schedule(deadline: nanoseconds.map { DispatchTime(uptimeNanoseconds: $0) } ?? .distantFuture,
                            repeating: .never, leeway: .nanoseconds(0))
        }
    }

    /// Fires the timer now, once.
    func fireNow() {
        switch kind {
        case .runLoop(let timer): timer.fireDate = Date()
        case .dispatch(let source): source.schedule(deadline: .now(), repeating: .never, leeway: .nanoseconds(0))
        }
    }
}

extension CMTimebase {
    // MARK: Run-loop timers

    /// Adds a repeating run-loop timer to those the timebase schedules; the timer should already
    /// be on `runloop`. Until its next fire time is set, it is parked far in the future.
    ///
    /// Create it with `CMTimebase.farFuture` as its date and `CMTimebase.veryLongTimeInterval`
    /// as its interval, so that it fires only when the timebase schedules it.
    public func addTimer(_ timer: Timer, on runloop: RunLoop) throws {
        try throwIfError(CMTimebaseAddTimer(self, timer: timer, runloop: runloop))
    }

    /// Stops scheduling a run-loop timer.
    public func removeTimer(_ timer: Timer) throws {
        try throwIfError(CMTimebaseRemoveTimer(self, timer: timer))
    }

    /// Sets the time on the timebase's timeline at which the timer fires next; the timebase
    /// moves it as its rate and time change. A time that is not numeric, or a stopped
    /// timebase, parks it far in the future.
    public func setTimerNextFireTime(_ timer: Timer, fireTime: CMTime) throws {
        try throwIfError(CMTimebaseSetTimerNextFireTime(self, timer: timer, fireTime: fireTime, flags: 0))
    }

    /// Fires the timer once, now, and leaves it alone until its next fire time is set.
    public func setTimerToFireImmediately(_ timer: Timer) throws {
        try throwIfError(CMTimebaseSetTimerToFireImmediately(self, timer: timer))
    }

    // MARK: Dispatch timer sources

    /// Adds a dispatch timer source to those the timebase schedules. Until its next fire time is
    /// set, it is scheduled for `DispatchTime.distantFuture`; resume it yourself.
    public func addTimer<T: DispatchSourceTimer>(_ timer: T) throws {
        try throwIfError(CMTimebaseAddTimerDispatchSource(self, timerSource: timer))
    }

    /// Stops scheduling a dispatch timer source.
    public func removeTimer<T: DispatchSourceTimer>(_ timer: T) throws {
        try throwIfError(CMTimebaseRemoveTimerDispatchSource(self, timerSource: timer))
    }

    /// Sets the time on the timebase's timeline at which the timer source fires next; the
    /// timebase moves it as its rate and time change. A time that is not numeric, or a stopped
    /// timebase, schedules it for `DispatchTime.distantFuture`.
    public func setTimerNextFireTime<T: DispatchSourceTimer>(_ timer: T, fireTime: CMTime) throws {
        try throwIfError(CMTimebaseSetTimerDispatchSourceNextFireTime(self, timerSource: timer, fireTime: fireTime, flags: 0))
    }

    /// Fires the timer source once, now, and leaves it alone until its next fire time is set.
    public func setTimerToFireImmediately<T: DispatchSourceTimer>(_ timer: T) throws {
        try throwIfError(CMTimebaseSetTimerDispatchSourceToFireImmediately(self, timerSource: timer))
    }

    // MARK: Scheduling

    /// Adds `timer` (once) and parks it.
    func add(_ timer: TimebaseTimer, id: ObjectIdentifier) {
        scheduling.withLock { _ in
            let added = state.withLock { state in
                guard state.timers[id] == nil else { return false }
                state.timers[id] = timer
                return true
            }
            if added { timer.arm(hostTime: nil) }
        }
    }

    /// Removes a timer; `kCMTimebaseError_InvalidParameter` when it is not one of this timebase's.
    func removeTimer(id: ObjectIdentifier) -> OSStatus {
        state.withLock { $0.timers.removeValue(forKey: id) } == nil ? kCMTimebaseError_InvalidParameter : noErr
    }

    /// Sets a timer's next fire time and arms it; `kCMTimebaseError_InvalidParameter` when it is
    /// not one of this timebase's.
    func setNextFireTime(_ fireTime: CMTime, id: ObjectIdentifier) -> OSStatus {
        scheduling.withLock { _ in
            let timer = state.withLock { state -> TimebaseTimer? in
                state.timers[id]?.fireTime = fireTime
                state.timers[id]?.firesImmediately = false
                return state.timers[id]
            }
            guard let timer else { return kCMTimebaseError_InvalidParameter }
            timer.arm(hostTime: hostTime(atTime: fireTime))
            return noErr
        }
    }

    /// Fires a timer now and leaves it alone; `kCMTimebaseError_InvalidParameter` when it is not
    /// one of this timebase's.
    func fireImmediately(id: ObjectIdentifier) -> OSStatus {
        scheduling.withLock { _ in
            let timer = state.withLock { state -> TimebaseTimer? in
                state.timers[id]?.fireTime = .invalid
                state.timers[id]?.firesImmediately = true
                return state.timers[id]
            }
            guard let timer else { return kCMTimebaseError_InvalidParameter }
            timer.fireNow()
            return noErr
        }
    }

    /// Moves every timer to the host time of its fire time after a change of rate, time or
    /// source; lets go of the timers their owners invalidated or cancelled.
    func rescheduleTimers() {
        scheduling.withLock { _ in
            let timers = state.withLock { state in
                state.timers = state.timers.filter { !$0.value.isFinished }
                return state.timers.values.filter { !$0.firesImmediately }
            }
            for timer in timers {
                timer.arm(hostTime: hostTime(atTime: timer.fireTime))
            }
        }
    }
}
