import Foundation
import OpenCoreMedia
import Synchronization
import Testing

/// Host time now, nanoseconds of `CLOCK_MONOTONIC`: the oracle the timebase is measured against.
private func hostNanoseconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
}

private func milliseconds(_ count: Int64) -> CMTime { CMTime(value: count, timescale: 1000) }

private func nanoseconds(_ time: CMTime) -> Int64 {
    CMTimeConvertScale(time, timescale: 1_000_000_000, method: .roundTowardPositiveInfinity).value
}

/// How late a timer may fire on a busy two-core machine. Every test puts its fire times at
/// least 100 ms away from where a timebase that ignored the rate, the jump or the source would
/// fire them, so a wrong schedule fails this bound or the never-early one.
private let lateBoundNanoseconds: Int64 = 40_000_000

/// What a timer saw when it fired: the host time and the timebase's time.
private struct Firing {
    var hostNanoseconds: Int64
    var timebaseTime: CMTime
}

/// A dispatch timer source on a timebase, recording each firing and signalling it.
private final class RecordingTimer: @unchecked Sendable {
    let source: any DispatchSourceTimer
    let fired = DispatchSemaphore(value: 0)
    let firings = Mutex<[Firing]>([])

    init(on timebase: CMTimebase, queue: DispatchQueue = DispatchQueue(label: "CMTimebaseTests.timer", qos: .userInteractive)) throws {
        source = DispatchSource.makeTimerSource(queue: queue)
        source.setEventHandler { [unowned self, unowned timebase] in
            let firing = Firing(hostNanoseconds: hostNanoseconds(), timebaseTime: timebase.time)
            firings.withLock { $0.append(firing) }
            fired.signal()
        }
        try timebase.addTimer(source)
        source.resume()
    }

    deinit { source.cancel() }

    /// Waits for the next firing, up to `timeout` seconds; nil when none came.
    func next(timeout: Double = 5) -> Firing? {
        guard fired.wait(timeout: .now() + timeout) == .success else { return nil }
        return firings.withLock { $0.last }
    }
}

/// Collects the timebase notifications a timebase posts.
private final class NotificationRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var names: [NSNotification.Name] = []
    private var observers: [NSObjectProtocol] = []

    init(_ timebase: CMTimebase) {
        for name in [CMTimebase.timeJumped, CMTimebase.effectiveRateChanged] {
            observers.append(NotificationCenter.default.addObserver(forName: name, object: timebase, queue: nil) { [weak self] note in
                guard let self else { return }
                lock.withLock { names.append(note.name) }
            })
        }
    }

    deinit { observers.forEach(NotificationCenter.default.removeObserver) }

    /// The names posted so far, after the timebase has posted everything it owes, then forgotten.
    func take(_ timebase: CMTimebase) throws -> [NSNotification.Name] {
        try timebase.notificationBarrier()
        return lock.withLock { defer { names = [] }; return names }
    }
}

@Suite(.timeLimit(.minutes(1))) struct CMTimebaseTests {
    /// Checks that a timer fired at its host time, never early and at most the bound late, and
    /// that the timebase had reached the fire time (from above when it runs backwards); prints
    /// the lateness.
    private func expectOnTime(_ firing: Firing?, fireTime: CMTime, expectedHost: Int64, backwards: Bool = false,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        guard let firing else {
            Issue.record("the timer did not fire", sourceLocation: sourceLocation)
            return
        }
        let late = firing.hostNanoseconds - expectedHost
        print("CMTimebase timer fired \(late / 1000) µs after its time")
        #expect(late >= 0, "fired \(-late) ns early", sourceLocation: sourceLocation)
        #expect(late <= lateBoundNanoseconds, "fired \(late / 1_000_000) ms late", sourceLocation: sourceLocation)
        #expect(backwards ? firing.timebaseTime <= fireTime : firing.timebaseTime >= fireTime,
                "the timebase read \(firing.timebaseTime.seconds) s, short of \(fireTime.seconds) s", sourceLocation: sourceLocation)
    }

    /// The host time at which `timebase` reaches `time`, as the timebase itself says.
    private func hostTime(of time: CMTime, on timebase: CMTimebase) -> Int64 {
        nanoseconds(CMSyncConvertTime(time, from: timebase, to: CMClockGetHostTimeClock()))
    }

    // MARK: Time and rate

    @Test func newTimebaseIsStoppedAtZero() throws {
        var made: CMTimebase?
        #expect(CMTimebaseCreateWithSourceClock(allocator: kCFAllocatorDefault, sourceClock: CMClockGetHostTimeClock(),
                                                timebaseOut: &made) == noErr)
        let timebase = try #require(made)
        #expect(timebase.time == .zero)
        #expect(timebase.rate == 0 && timebase.effectiveRate == 0)
        #expect(timebase.sourceClock === CMClock.hostTimeClock && timebase.sourceTimebase == nil)
        #expect(CMTimebaseCopyUltimateSourceClock(timebase) === CMClock.hostTimeClock)
        #expect(CMTimebase.farFuture == 256 * 365 * 86400 && CMTimebase.veryLongTimeInterval == CMTimebase.farFuture)
    }

    @Test func timeAdvancesAtItsRateAgainstTheHostClock() throws {
        let timebase = try CMTimebase(sourceClock: .hostTimeClock)
        for rate in [1.0, 2.5, 0.25, -1.5] {
            let before = hostNanoseconds()
            try timebase.setRateAndAnchorTime(rate: rate, anchorTime: milliseconds(10_000), referenceTime: CMClock.hostTimeClock.time)
            let set = hostNanoseconds()
            for _ in 0..<1000 { _ = timebase.time }
            let readFrom = hostNanoseconds()
            let (time, readRate) = timebase.timeAndRate
            let readTo = hostNanoseconds()
            #expect(readRate == rate)
            // The anchor was taken in [before, set] and the time read in [readFrom, readTo].
            let elapsed = nanoseconds(time - milliseconds(10_000))
            let bounds = [Double(readFrom - set) * rate, Double(readTo - before) * rate]
            #expect(Double(elapsed) >= bounds.min()! - 1 && Double(elapsed) <= bounds.max()! + 1,
                    "rate \(rate): \(elapsed) ns not in \(bounds)")
        }
    }

    @Test func anchorsConvertExactly() throws {
        let timebase = try CMTimebase(sourceClock: .hostTimeClock)
        try timebase.setRateAndAnchorTime(rate: 0.5, anchorTime: milliseconds(10_000), referenceTime: CMTime(value: 1_000, timescale: 1))
        let host = CMClock.hostTimeClock
        #expect(CMSyncConvertTime(CMTime(value: 1_004, timescale: 1), from: host, to: timebase) == milliseconds(12_000))
        #expect(CMSyncConvertTime(milliseconds(13_000), from: timebase, to: host) == CMTime(value: 1_006, timescale: 1))
        try timebase.setRate(0)
        let stopped = timebase.time
        #expect(timebase.time == stopped && CMSyncGetTime(timebase) == stopped)
        #expect(CMSyncConvertTime(milliseconds(13_000), from: timebase, to: host) == .invalid)
        try timebase.setTime(milliseconds(42_000))
        #expect(timebase.time == milliseconds(42_000) && timebase.time(withTimescale: 10) == CMTime(value: 420, timescale: 10))
    }

    @Test func sourceTimebaseMultipliesRates() throws {
        let parent = try CMTimebase(sourceClock: .hostTimeClock)
        let child = try CMTimebase(sourceTimebase: parent)
        #expect(child.sourceTimebase === parent && child.sourceClock == nil && child.ultimateSourceClock === CMClock.hostTimeClock)
        try parent.setRateAndAnchorTime(rate: 2, anchorTime: .zero, referenceTime: CMTime(value: 100, timescale: 1))
        try child.setRateAndAnchorTime(rate: -0.25, anchorTime: milliseconds(1_000), referenceTime: .zero)
        #expect(child.effectiveRate == -0.5)
        // Host 104 s: the parent reads 8 s, the child 1 - 0.25 * 8 = -1 s.
        #expect(CMSyncConvertTime(CMTime(value: 104, timescale: 1), from: CMClock.hostTimeClock, to: child) == milliseconds(-1_000))
        #expect(CMSyncConvertTime(milliseconds(-1_000), from: child, to: parent) == milliseconds(8_000))
        // A new source: the time carries on, the rate is now relative to the host clock.
        let before = child.time
        #expect(CMTimebaseSetSourceClock(child, CMClockGetHostTimeClock()) == noErr)
        let after = child.time
        #expect(child.sourceClock === CMClock.hostTimeClock && child.effectiveRate == -0.25)
        #expect(abs((after - before).seconds) < 0.01)
        #expect(CMTimebaseSetSourceTimebase(child, parent) == noErr && child.effectiveRate == -0.5)
        #expect(CMTimebaseSetSourceTimebase(parent, child) == kCMTimebaseError_InvalidParameter)
        #expect(CMTimebaseSetSourceTimebase(parent, parent) == kCMTimebaseError_InvalidParameter)
    }

    @Test func syncProtocolRelatesClocksAndTimebases() throws {
        let host = CMClock.hostTimeClock
        let parent = try CMTimebase(sourceClock: host)
        let child = try CMTimebase(sourceTimebase: parent)
        try parent.setRateAndAnchorTime(rate: 2, anchorTime: .zero, referenceTime: CMTime(value: 100, timescale: 1))
        try child.setRateAndAnchorTime(rate: 0.5, anchorTime: .zero, referenceTime: .zero)
        let rates = [child.rate(relativeTo: host), parent.rate(relativeTo: child), host.rate(relativeTo: parent)]
        #expect(rates == [1, 2, 0.5])
        let converted = [child.convertTime(milliseconds(3_000), to: host), host.convertTime(CMTime(value: 104, timescale: 1), to: parent)]
        #expect(converted == [CMTime(value: 103, timescale: 1), milliseconds(8_000)])
        let drifts = child.mightDrift(relativeTo: host)
        #expect(!drifts)
        let relative = try child.rateAndAnchorTime(relativeTo: parent)
        #expect(relative.rate == 0.5)
        #expect(relative.anchorTime == CMTimeMultiplyByFloat64(relative.referenceTime, multiplier: 0.5))
        let stopped = try CMTimebase(sourceClock: host)
        let relativeToStopped = child.rate(relativeTo: stopped)
        #expect(relativeToStopped.isNaN)
        // The source, read and set as one value.
        let childSource = child.source as? CMTimebase, parentSource = parent.source as? CMClock
        let sourcesRead = childSource === parent && parentSource === host
        #expect(sourcesRead)
        let before = child.time
        child.source = host
        let sourceSet = child.sourceClock === host && CMTimebaseCopySource(child) === host
        #expect(sourceSet)
        #expect(child.effectiveRate == 0.5 && abs((child.time - before).seconds) < 0.01)
    }

    @Test func badParametersAreErrors() throws {
        let timebase = try CMTimebase(sourceClock: .hostTimeClock)
        #expect(throws: CMTimebase.Error.invalidParameter) { try timebase.setTime(.invalid) }
        #expect(throws: CMTimebase.Error.invalidParameter) { try timebase.setRate(.nan) }
        let stranger = DispatchSource.makeTimerSource()
        stranger.resume()
        #expect(throws: CMTimebase.Error.invalidParameter) { try timebase.setTimerNextFireTime(stranger, fireTime: .zero) }
        #expect(CMTimebaseRemoveTimerDispatchSource(timebase, timerSource: stranger) == kCMTimebaseError_InvalidParameter)
    }

    // MARK: Timers

    @Test func dispatchTimersFireAtTheirTimeAtEveryRate() throws {
        for rate in [1.0, 2.0, 0.5, -1.0] {
            let timebase = try CMTimebase(sourceClock: .hostTimeClock)
            let timer = try RecordingTimer(on: timebase)
            try timebase.setTime(milliseconds(1_000))
            let started = hostNanoseconds()
            try timebase.setRate(rate)
            // 200 ms of timebase time ahead in the direction it moves.
            let fireTime = milliseconds(rate > 0 ? 1_200 : 800)
            try timebase.setTimerNextFireTime(timer.source, fireTime: fireTime)
            let expected = hostTime(of: fireTime, on: timebase)
            // The rate took effect between `started` and now: 200 ms of timebase time later.
            let distance = Int64(200e6 / abs(rate))
            #expect((started + distance...hostNanoseconds() + distance).contains(expected), "rate \(rate)")
            expectOnTime(timer.next(), fireTime: fireTime, expectedHost: expected, backwards: rate < 0)
        }
    }

    @Test func timersFollowRateChangesAndJumps() throws {
        let timebase = try CMTimebase(sourceClock: .hostTimeClock)
        let first = try RecordingTimer(on: timebase)
        let second = try RecordingTimer(on: timebase)
        try timebase.setRate(1)
        try timebase.setTimerNextFireTime(first.source, fireTime: milliseconds(100))
        try timebase.setTimerNextFireTime(second.source, fireTime: milliseconds(400))
        expectOnTime(first.next(), fireTime: milliseconds(100), expectedHost: hostTime(of: milliseconds(100), on: timebase))
        // On the first firing, triple the rate: the second fires ~200 ms earlier than at rate 1.
        try timebase.setRate(3)
        let tripled = hostTime(of: milliseconds(400), on: timebase)
        #expect(tripled - hostNanoseconds() < 120_000_000)
        expectOnTime(second.next(), fireTime: milliseconds(400), expectedHost: tripled)
        // Jump back: a fire time set again is reached again, 300 ms of timebase time later.
        try timebase.setTime(milliseconds(100))
        try timebase.setRate(1)
        try timebase.setTimerNextFireTime(second.source, fireTime: milliseconds(400))
        expectOnTime(second.next(), fireTime: milliseconds(400), expectedHost: hostTime(of: milliseconds(400), on: timebase))
    }

    @Test func stoppedTimebaseHoldsItsTimersUntilItMoves() throws {
        let stopped = try CMTimebase(sourceClock: .hostTimeClock)
        let held = try RecordingTimer(on: stopped)
        try stopped.setTimerNextFireTime(held.source, fireTime: milliseconds(50))
        let moving = try CMTimebase(sourceClock: .hostTimeClock)
        let witness = try RecordingTimer(on: moving)
        try moving.setRate(1)
        try moving.setTimerNextFireTime(witness.source, fireTime: milliseconds(150))
        #expect(witness.next() != nil)
        let heldFirings = held.firings.withLock { $0.count }
        #expect(heldFirings == 0, "a timer of a stopped timebase fired")
        try stopped.setRate(1)
        expectOnTime(held.next(), fireTime: milliseconds(50), expectedHost: hostTime(of: milliseconds(50), on: stopped))
    }

    @Test func timersOfADependentFollowItsSource() throws {
        let parent = try CMTimebase(sourceClock: .hostTimeClock)
        let child = try CMTimebase(sourceTimebase: parent)
        let timer = try RecordingTimer(on: child)
        try child.setRate(2)
        try child.setTimerNextFireTime(timer.source, fireTime: milliseconds(600))
        // The parent is stopped: nothing is due until it moves.
        let started = hostNanoseconds()
        try parent.setRate(1)
        let atParentRate1 = hostTime(of: milliseconds(600), on: child)
        #expect((started + 300_000_000...hostNanoseconds() + 300_000_000).contains(atParentRate1))
        try parent.setRate(3)
        let atParentRate3 = hostTime(of: milliseconds(600), on: child)
        #expect(atParentRate3 - hostNanoseconds() < 105_000_000)
        expectOnTime(timer.next(), fireTime: milliseconds(600), expectedHost: atParentRate3)
    }

    @Test func runLoopTimersFireAtTheirTime() throws {
        let timebase = try CMTimebase(sourceClock: .hostTimeClock)
        let fired = DispatchSemaphore(value: 0)
        let firings = Mutex<[Firing]>([])
        nonisolated(unsafe) let timer = Timer(fire: Date(timeIntervalSinceReferenceDate: CMTimebase.farFuture),
                          interval: CMTimebase.veryLongTimeInterval, repeats: true) { [unowned timebase] _ in
            let firing = Firing(hostNanoseconds: hostNanoseconds(), timebaseTime: timebase.time)
            firings.withLock { $0.append(firing) }
            fired.signal()
        }
        let running = DispatchSemaphore(value: 0)
        let stop = Atomic(false)
        let loopBox = Mutex<RunLoop?>(nil)
        let thread = Thread {
            loopBox.withLock { $0 = RunLoop.current }
            RunLoop.current.add(timer, forMode: .default)
            running.signal()
            while !stop.load(ordering: .relaxed) {
                _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.02))
            }
        }
        thread.start()
        running.wait()
        defer { stop.store(true, ordering: .relaxed); timer.invalidate() }
        let runLoop = try #require(loopBox.withLock { $0 })
        try timebase.addTimer(timer, on: runLoop)
        try timebase.setRate(2)
        try timebase.setTimerNextFireTime(timer, fireTime: milliseconds(400))
        let expected = hostTime(of: milliseconds(400), on: timebase)
        #expect(fired.wait(timeout: .now() + 5) == .success)
        expectOnTime(firings.withLock(\.last), fireTime: milliseconds(400), expectedHost: expected)
        // Fired once: the timer's own interval parks it far away again.
        try timebase.setTimerNextFireTime(timer, fireTime: milliseconds(600))
        try timebase.setRate(0.5)
        let slowed = hostTime(of: milliseconds(600), on: timebase)
        #expect(fired.wait(timeout: .now() + 5) == .success)
        expectOnTime(firings.withLock(\.last), fireTime: milliseconds(600), expectedHost: slowed)
        let count = firings.withLock { $0.count }
        #expect(count == 2)
    }

    @Test func fireImmediatelyFiresOnceAndIsLeftAlone() throws {
        let timebase = try CMTimebase(sourceClock: .hostTimeClock)
        let timer = try RecordingTimer(on: timebase)
        let asked = hostNanoseconds()
        try timebase.setTimerToFireImmediately(timer.source)
        let firing = try #require(timer.next())
        #expect(firing.hostNanoseconds - asked < lateBoundNanoseconds)
        try timebase.setRate(1)
        try timebase.setTime(.zero)
        let count = timer.firings.withLock { $0.count }
        #expect(count == 1)
        try timebase.removeTimer(timer.source)
        #expect(throws: CMTimebase.Error.invalidParameter) { try timebase.setTimerToFireImmediately(timer.source) }
    }

    // MARK: Read-only timebases

    @Test func readOnlyTimebaseRefusesSettersAndFollowsItsOwner() throws {
        let timebase = CMTimebase.makeReadOnly()
        #expect(throws: CMTimebase.Error.readOnly) { try timebase.setRate(1) }
        #expect(throws: CMTimebase.Error.readOnly) { try timebase.setTime(.zero) }
        #expect(CMTimebaseSetSourceClock(timebase, CMClockGetHostTimeClock()) == kCMTimebaseError_ReadOnly)
        let recorder = NotificationRecorder(timebase)
        let host = CMClock.hostTimeClock.time
        timebase.follow(time: milliseconds(1_000), atHostTime: host, rate: 1)
        #expect(try recorder.take(timebase) == [CMTimebase.timeJumped, CMTimebase.effectiveRateChanged])
        #expect(CMSyncConvertTime(host + milliseconds(500), from: CMClock.hostTimeClock, to: timebase) == milliseconds(1_500))
        // Following a clock that drifts by less than 10 ms is no jump; a seek is.
        timebase.follow(time: milliseconds(1_504), atHostTime: host + milliseconds(500), rate: 1)
        #expect(try recorder.take(timebase).isEmpty)
        timebase.follow(time: milliseconds(9_000), atHostTime: host + milliseconds(600), rate: 1)
        #expect(try recorder.take(timebase) == [CMTimebase.timeJumped])
    }

    // MARK: Notifications

    @Test func changesPostTheirNotifications() throws {
        let timebase = try CMTimebase(sourceClock: .hostTimeClock)
        let dependent = try CMTimebase(sourceTimebase: timebase)
        let own = NotificationRecorder(timebase)
        let dependents = NotificationRecorder(dependent)
        try timebase.setRate(1)
        #expect(try own.take(timebase) == [CMTimebase.effectiveRateChanged])
        #expect(try dependents.take(dependent).isEmpty, "a stopped dependent's effective rate stays 0")
        try timebase.setRate(1)
        #expect(try own.take(timebase).isEmpty)
        try dependent.setRate(1)
        #expect(try dependents.take(dependent) == [CMTimebase.effectiveRateChanged])
        try timebase.setTime(milliseconds(5_000))
        #expect(try own.take(timebase) == [CMTimebase.timeJumped])
        #expect(try dependents.take(dependent) == [CMTimebase.timeJumped])
        try timebase.setRate(2)
        #expect(try own.take(timebase) == [CMTimebase.effectiveRateChanged])
        #expect(try dependents.take(dependent) == [CMTimebase.effectiveRateChanged])
        try timebase.setRateAndAnchorTime(rate: 0, anchorTime: .zero, referenceTime: CMClock.hostTimeClock.time)
        #expect(try own.take(timebase) == [CMTimebase.timeJumped, CMTimebase.effectiveRateChanged])
    }

    @Test func timeJumpedCarriesTheEventTime() throws {
        let timebase = try CMTimebase(sourceClock: .hostTimeClock)
        let received = Mutex<CMTime?>(nil)
        let observer = NotificationCenter.default.addObserver(forName: NSNotification.Name(kCMTimebaseNotification_TimeJumped),
                                                              object: timebase, queue: nil) { note in
            let dictionary = note.userInfo?[kCMTimebaseNotificationKey_EventTime] as? NSDictionary
            received.withLock { $0 = CMTimeMakeFromDictionary(dictionary) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try timebase.setTime(milliseconds(7_000))
        #expect(CMTimebaseNotificationBarrier(timebase) == noErr)
        #expect(received.withLock { $0 } == milliseconds(7_000))
    }
}
