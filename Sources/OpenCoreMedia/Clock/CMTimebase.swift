import Foundation
import OpenCoreVideo
import Synchronization

/// A timeline under the application's control: its time moves at its rate relative to its
/// source, a clock or another timebase, and it can be set, stopped and started.
///
/// A timebase is made with rate zero and time zero. At rate 1 its time advances one second per
/// second of its source; at rate 2 two seconds; at rate -1 it runs backwards. With a source
/// timebase, the effective rate is the product of the rates up to the ultimate source clock.
/// Timers (`addTimer`) fire when the timebase reaches their time, and follow its rate changes,
/// time jumps and its source's. It posts `CMTimebase.timeJumped` and
/// `CMTimebase.effectiveRateChanged` through `NotificationCenter.default`, with the timebase as
/// the object, from a queue of its own.
///
/// A read-only timebase (`AVPlayerItem.timebase`) refuses to be set, with
/// `CMTimebase.Error.readOnly`.
///
/// Differs from Apple: a Swift class rather than a CoreFoundation type; the only clock is the
/// host time clock, so `CMSyncMightDrift` is always false.
public final class CMTimebase: @unchecked Sendable, Hashable {
    /// Where the timebase takes its time from.
    enum Source {
        case clock(CMClock)
        case timebase(CMTimebase)

        /// The source's time now.
        var time: CMTime {
            switch self {
            case .clock(let clock): clock.time
            case .timebase(let timebase): timebase.time
            }
        }

        /// The source's rate relative to the host time clock.
        var effectiveRate: Double {
            switch self {
            case .clock: 1
            case .timebase(let timebase): timebase.effectiveRate
            }
        }
    }

    /// What the time is computed from: the time `time` at the source's time `sourceTime`, and
    /// the rate since then.
    struct Anchor {
        var time: CMTime
        var sourceTime: CMTime
        var rate: Double

        /// The timebase's time when its source reads `sourceTime`.
        func time(atSourceTime now: CMTime) -> CMTime {
            guard rate != 0 else { return time }
            let elapsed = CMTimeSubtract(now, sourceTime)
            return CMTimeAdd(time, rate == 1 ? elapsed : CMTimeMultiplyByFloat64(elapsed, multiplier: rate))
        }

        /// The source's time when the timebase reads `time`; nil when the timebase is stopped.
        func sourceTime(atTime target: CMTime) -> CMTime? {
            guard rate != 0 else { return nil }
            let distance = CMTimeSubtract(target, time)
            return CMTimeAdd(sourceTime, rate == 1 ? distance : CMTimeMultiplyByFloat64(distance, multiplier: 1 / rate))
        }
    }

    /// The state that changes, behind the lock.
    struct State {
        var source: Source
        var anchor: Anchor
        /// Timebases whose source is this one, told when it changes.
        var dependents: [WeakTimebase] = []
        /// The timers this timebase schedules, by the timer's identity.
        var timers: [ObjectIdentifier: TimebaseTimer] = [:]
    }

    /// A dependent timebase, held weakly: a source does not keep its dependents alive.
    struct WeakTimebase {
        weak var timebase: CMTimebase?
    }

    let state: Mutex<State>
    /// Held while timers are armed, so that two threads moving the same timer (a rate change
    /// and a new fire time) arm it in the order they read it. Taken before `state`, never while
    /// holding it; the timers' owners are not called with it held.
    let scheduling = Mutex(())
    /// Posts this timebase's notifications, in order, away from the caller's thread.
    private let notificationQueue = DispatchQueue(label: "OpenCoreMedia.CMTimebase.notifications")
    /// Whether the setters refuse with `kCMTimebaseError_ReadOnly`: a timebase that shows the
    /// time of something else, which only `follow(time:atHostTime:rate:)` moves.
    let isReadOnly: Bool

    init(source: Source, readOnly: Bool = false) {
        state = Mutex(State(source: source, anchor: Anchor(time: .zero, sourceTime: source.time, rate: 0)))
        isReadOnly = readOnly
        if case .timebase(let parent) = source { parent.addDependent(self) }
    }

    /// A read-only timebase on the host time clock, for its owner to move with
    /// `follow(time:atHostTime:rate:)`: a player's, which its current item shows.
    package static func makeReadOnly() -> CMTimebase {
        CMTimebase(source: .clock(.hostTimeClock), readOnly: true)
    }

    /// Moves the timebase to read `time` at host time `hostTime`, running on at `rate`.
    /// It posts `timeJumped` only when that differs from where it was heading by more than
    /// `jumpTolerance` (small corrections, such as following a sound device's clock, are not
    /// jumps), and `effectiveRateChanged` when the rate changes.
    package func follow(time: CMTime, atHostTime hostTime: CMTime, rate: Double) {
        let expected = self.time(atHostTime: hostTime)
        let jumps = CMTimeCompare(CMTimeAbsoluteValue(CMTimeSubtract(time, expected)), Self.jumpTolerance) > 0
        change(jumps: jumps) { state, _ in
            state.anchor = Anchor(time: time, sourceTime: hostTime, rate: rate)
        }
    }

    /// Moves the time by `delta`, the rate kept, without posting `timeJumped`: a small correction
    /// by the clock that really drives it (an audio renderer's sound device moves a
    /// synchronizer's timebase so). Applied to the anchor as it is when called, atomically.
    package func nudge(by delta: CMTime) {
        change(jumps: false) { state, _ in
            state.anchor.time = CMTimeAdd(state.anchor.time, delta)
        }
    }

    /// How far `follow` may move the time from where it was heading without posting `timeJumped`.
    static let jumpTolerance = CMTime(value: 1, timescale: 100)

    /// A timebase driven by `sourceClock`, with rate zero and time zero.
    public convenience init(sourceClock: CMClock) throws {
        self.init(source: .clock(sourceClock))
    }

    /// A timebase driven by `sourceTimebase`, with rate zero and time zero.
    public convenience init(sourceTimebase: CMTimebase) throws {
        self.init(source: .timebase(sourceTimebase))
    }

    /// A timebase driven by `masterClock`: the older name of `init(sourceClock:)`.
    @available(*, deprecated, renamed: "init(sourceClock:)")
    public convenience init(masterClock: CMClock) throws {
        try self.init(sourceClock: masterClock)
    }

    /// A timebase driven by `masterTimebase`: the older name of `init(sourceTimebase:)`.
    @available(*, deprecated, renamed: "init(sourceTimebase:)")
    public convenience init(masterTimebase: CMTimebase) throws {
        try self.init(sourceTimebase: masterTimebase)
    }

    // MARK: Reading

    /// The current time.
    public var time: CMTime {
        let (source, anchor) = state.withLock { ($0.source, $0.anchor) }
        return anchor.time(atSourceTime: source.time)
    }

    /// The current time in `timescale`, rounded with `rounding`.
    public func time(withTimescale timescale: CMTimeScale, rounding: CMTimeRoundingMethod = .default) -> CMTime {
        CMTimeConvertScale(time, timescale: timescale, method: rounding)
    }

    /// The rate relative to the immediate source clock or timebase.
    public var rate: Double { state.withLock { $0.anchor.rate } }

    /// The current time and rate, read together.
    public var timeAndRate: (time: CMTime, rate: Double) {
        let (source, anchor) = state.withLock { ($0.source, $0.anchor) }
        return (anchor.time(atSourceTime: source.time), anchor.rate)
    }

    /// The rate relative to the ultimate source clock: this timebase's rate times its source
    /// timebases' rates.
    public var effectiveRate: Double {
        let (source, rate) = state.withLock { ($0.source, $0.anchor.rate) }
        return rate == 0 ? 0 : rate * source.effectiveRate
    }

    /// The immediate source: a `CMClock` or a `CMTimebase`. Setting it keeps the time and the
    /// rate where they are; a source that would make a loop, a source that is neither, or a
    /// read-only timebase stops the process (`CMTimebaseSetSourceTimebase` returns an error
    /// instead).
    public var source: any CMSyncProtocol {
        get {
            switch state.withLock({ $0.source }) {
            case .clock(let clock): clock
            case .timebase(let timebase): timebase
            }
        }
        set {
            let status = switch newValue {
            case let clock as CMClock: CMTimebaseSetSourceClock(self, clock)
            case let timebase as CMTimebase: CMTimebaseSetSourceTimebase(self, timebase)
            default: kCMTimebaseError_InvalidParameter
            }
            Misuse.check(status == noErr, .timebaseSourceRefused(status: status))
        }
    }

    /// The immediate source clock, or nil when the source is a timebase.
    public var sourceClock: CMClock? {
        state.withLock { if case .clock(let clock) = $0.source { clock } else { nil } }
    }

    /// The immediate source timebase, or nil when the source is a clock.
    public var sourceTimebase: CMTimebase? {
        state.withLock { if case .timebase(let timebase) = $0.source { timebase } else { nil } }
    }

    /// The clock at the root of the chain of source timebases.
    public var ultimateSourceClock: CMClock {
        switch state.withLock({ $0.source }) {
        case .clock(let clock): clock
        case .timebase(let timebase): timebase.ultimateSourceClock
        }
    }

    /// The older name of `sourceClock`.
    @available(*, deprecated, renamed: "sourceClock")
    public var masterClock: CMClock? { sourceClock }

    /// The older name of `sourceTimebase`.
    @available(*, deprecated, renamed: "sourceTimebase")
    public var masterTimebase: CMTimebase? { sourceTimebase }

    /// The older name of `ultimateSourceClock`.
    @available(*, deprecated, renamed: "ultimateSourceClock")
    public var ultimateMasterClock: CMClock { ultimateSourceClock }

    /// A time far in the future (256 years), as a run-loop timer interval: the interval of the
    /// repeating timers a timebase schedules.
    public static let veryLongTimeInterval: CFTimeInterval = 256 * 365 * 24 * 60 * 60

    /// A date far in the future (256 years after 2001), where a timebase parks a timer that is
    /// not due.
    public static let farFuture: CFAbsoluteTime = veryLongTimeInterval

    // MARK: Setting

    /// Sets the current time; posts `timeJumped`.
    ///
    /// Throws `CMTimebase.Error.invalidParameter` for a time that is not numeric.
    public func setTime(_ time: CMTime) throws {
        try throwIfError(CMTimebaseSetTime(self, time: time))
    }

    /// Sets the time the timebase had when its source read `referenceTime`; posts `timeJumped`.
    public func setAnchorTime(_ anchorTime: CMTime, referenceTime: CMTime) throws {
        try throwIfError(CMTimebaseSetAnchorTime(self, timebaseTime: anchorTime, immediateSourceTime: referenceTime))
    }

    /// Sets the rate, keeping the current time; posts `effectiveRateChanged` when the effective
    /// rate changes.
    public func setRate(_ rate: Double) throws {
        try throwIfError(CMTimebaseSetRate(self, rate: rate))
    }

    /// Sets the rate and the time the timebase had when its source read `referenceTime`, as if
    /// it had run at `rate` since then; posts `timeJumped`, and `effectiveRateChanged` when the
    /// effective rate changes.
    public func setRateAndAnchorTime(rate: Double, anchorTime: CMTime, referenceTime: CMTime) throws {
        try throwIfError(CMTimebaseSetRateAndAnchorTime(self, rate: rate, anchorTime: anchorTime,
                                                      immediateSourceTime: referenceTime))
    }

    /// Waits until the timebase has posted the notifications of its changes so far.
    ///
    /// Called from an observer of this timebase's notifications, it would wait for itself: do not.
    public func notificationBarrier() throws {
        waitForNotifications()
    }

    /// Returns once the notification queue has posted what it held.
    func waitForNotifications() {
        notificationQueue.sync {}
    }

    // MARK: Changes

    /// What a change did, for the notifications and the dependents.
    struct Change {
        var jumped: Bool
        var effectiveRateChanged: Bool
    }

    /// Replaces the anchor (or the source) with what `body` makes of the state and the source's
    /// time now, then reschedules the timers, posts the notifications and tells the dependents.
    func change(jumps: Bool, _ body: (inout State, CMTime) -> Void) {
        let before = effectiveRate
        let sourceNow = state.withLock { $0.source }.time
        state.withLock { body(&$0, sourceNow) }
        let after = effectiveRate
        didChange(Change(jumped: jumps, effectiveRateChanged: before != after))
    }

    /// Drives the timebase from `newSource`, its time and rate carrying on from where they are.
    func setSource(_ newSource: Source) {
        let newSourceNow = newSource.time
        change(jumps: false) { state, sourceNow in
            state.anchor = Anchor(time: state.anchor.time(atSourceTime: sourceNow), sourceTime: newSourceNow, rate: state.anchor.rate)
            state.source = newSource
        }
    }

    /// Reschedules the timers, posts what `change` calls for and passes it on to the dependents.
    private func didChange(_ change: Change) {
        rescheduleTimers()
        if change.jumped || change.effectiveRateChanged { post(change) }
        let dependents = state.withLock { state in
            state.dependents.removeAll { $0.timebase == nil }
            return state.dependents.compactMap(\.timebase)
        }
        for dependent in dependents where dependent.isDriven(by: self) {
            dependent.sourceDidChange(change)
        }
    }

    /// Follows a change of the source: a stopped timebase neither jumps nor changes its
    /// effective rate with its source, but its timers move all the same.
    private func sourceDidChange(_ change: Change) {
        let moving = rate != 0
        didChange(Change(jumped: change.jumped && moving, effectiveRateChanged: change.effectiveRateChanged && moving))
    }

    private func isDriven(by source: CMTimebase) -> Bool {
        state.withLock { if case .timebase(let timebase) = $0.source { timebase === source } else { false } }
    }

    func addDependent(_ dependent: CMTimebase) {
        state.withLock { $0.dependents.append(WeakTimebase(timebase: dependent)) }
    }

    /// Whether `candidate` is this timebase or one of its sources, so that making this one its
    /// source would make a loop.
    func isSelfOrSource(_ candidate: CMTimebase) -> Bool {
        if candidate === self { return true }
        return sourceTimebase?.isSelfOrSource(candidate) ?? false
    }

    /// Posts the notifications of `change` on the notification queue, with the time it left
    /// the timebase at as `kCMTimebaseNotificationKey_EventTime`.
    private func post(_ change: Change) {
        let eventTime = time
        notificationQueue.async { [self] in
            let userInfo = [kCMTimebaseNotificationKey_EventTime: CMTimeCopyAsDictionary(eventTime, allocator: nil) as Any]
            if change.jumped {
                NotificationCenter.default.post(name: CMTimebase.timeJumped, object: self, userInfo: userInfo)
            }
            if change.effectiveRateChanged {
                NotificationCenter.default.post(name: CMTimebase.effectiveRateChanged, object: self, userInfo: userInfo)
            }
        }
    }

    // MARK: Host time

    /// The host time at which the timebase reads `time`, or nil when it never will (it or a
    /// source of it is stopped). A time already passed in the direction it moves gives a host
    /// time in the past.
    func hostTime(atTime time: CMTime) -> CMTime? {
        guard time.isNumeric else { return nil }
        let (source, anchor) = state.withLock { ($0.source, $0.anchor) }
        guard let sourceTime = anchor.sourceTime(atTime: time) else { return nil }
        switch source {
        case .clock: return sourceTime
        case .timebase(let timebase): return timebase.hostTime(atTime: sourceTime)
        }
    }

    /// The timebase's time at host time `hostTime`.
    func time(atHostTime hostTime: CMTime) -> CMTime {
        let (source, anchor) = state.withLock { ($0.source, $0.anchor) }
        switch source {
        case .clock: return anchor.time(atSourceTime: hostTime)
        case .timebase(let timebase): return anchor.time(atSourceTime: timebase.time(atHostTime: hostTime))
        }
    }

    // MARK: Identity

    /// Identity: timebases are equal only to themselves.
    public static func == (lhs: CMTimebase, rhs: CMTimebase) -> Bool { lhs === rhs }

    /// Hashes the timebase's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
