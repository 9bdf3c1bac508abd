import Foundation
import OpenCoreVideo

/// Makes a timebase driven by `sourceClock`, with rate zero and time zero.
public func CMTimebaseCreateWithSourceClock(allocator: CFAllocator?, sourceClock: CMClock,
                                            timebaseOut: UnsafeMutablePointer<CMTimebase?>) -> OSStatus {
    timebaseOut.pointee = CMTimebase(source: .clock(sourceClock))
    return noErr
}

/// Makes a timebase driven by `sourceTimebase`, with rate zero and time zero.
public func CMTimebaseCreateWithSourceTimebase(allocator: CFAllocator?, sourceTimebase: CMTimebase,
                                               timebaseOut: UnsafeMutablePointer<CMTimebase?>) -> OSStatus {
    timebaseOut.pointee = CMTimebase(source: .timebase(sourceTimebase))
    return noErr
}

/// The immediate source of a timebase: its clock or its timebase.
public func CMTimebaseCopySource(_ timebase: CMTimebase) -> CMClockOrTimebase {
    timebase.source as AnyObject
}

/// The immediate source clock of a timebase, or nil when its source is a timebase.
public func CMTimebaseCopySourceClock(_ timebase: CMTimebase) -> CMClock? {
    timebase.sourceClock
}

/// The immediate source timebase of a timebase, or nil when its source is a clock.
public func CMTimebaseCopySourceTimebase(_ timebase: CMTimebase) -> CMTimebase? {
    timebase.sourceTimebase
}

/// The clock at the root of a timebase's chain of sources.
public func CMTimebaseCopyUltimateSourceClock(_ timebase: CMTimebase) -> CMClock {
    timebase.ultimateSourceClock
}

/// Makes a clock the timebase's source; its time and rate carry on from where they are.
public func CMTimebaseSetSourceClock(_ timebase: CMTimebase, _ newSourceClock: CMClock) -> OSStatus {
    guard !timebase.isReadOnly else { return kCMTimebaseError_ReadOnly }
    timebase.setSource(.clock(newSourceClock))
    return noErr
}

/// Makes another timebase the timebase's source; its time and rate carry on from where they
/// are. `kCMTimebaseError_InvalidParameter` when that would make a loop.
public func CMTimebaseSetSourceTimebase(_ timebase: CMTimebase, _ newSourceTimebase: CMTimebase) -> OSStatus {
    guard !timebase.isReadOnly else { return kCMTimebaseError_ReadOnly }
    guard !newSourceTimebase.isSelfOrSource(timebase) else { return kCMTimebaseError_InvalidParameter }
    newSourceTimebase.addDependent(timebase)
    timebase.setSource(.timebase(newSourceTimebase))
    return noErr
}

/// The current time of a timebase.
public func CMTimebaseGetTime(_ timebase: CMTimebase) -> CMTime {
    timebase.time
}

/// The current time of a timebase in `timescale`, rounded with `method`.
public func CMTimebaseGetTimeWithTimeScale(_ timebase: CMTimebase, timescale: CMTimeScale,
                                           method: CMTimeRoundingMethod) -> CMTime {
    timebase.time(withTimescale: timescale, rounding: method)
}

/// Sets the current time of a timebase; posts `kCMTimebaseNotification_TimeJumped`.
/// `kCMTimebaseError_InvalidParameter` for a time that is not numeric.
public func CMTimebaseSetTime(_ timebase: CMTimebase, time: CMTime) -> OSStatus {
    guard !timebase.isReadOnly else { return kCMTimebaseError_ReadOnly }
    guard time.isNumeric else { return kCMTimebaseError_InvalidParameter }
    timebase.change(jumps: true) { state, sourceNow in
        state.anchor = CMTimebase.Anchor(time: time, sourceTime: sourceNow, rate: state.anchor.rate)
    }
    return noErr
}

/// Sets the time a timebase had when its source read `immediateSourceTime`; posts
/// `kCMTimebaseNotification_TimeJumped`.
public func CMTimebaseSetAnchorTime(_ timebase: CMTimebase, timebaseTime: CMTime, immediateSourceTime: CMTime) -> OSStatus {
    guard !timebase.isReadOnly else { return kCMTimebaseError_ReadOnly }
    guard timebaseTime.isNumeric, immediateSourceTime.isNumeric else { return kCMTimebaseError_InvalidParameter }
    timebase.change(jumps: true) { state, _ in
        state.anchor = CMTimebase.Anchor(time: timebaseTime, sourceTime: immediateSourceTime, rate: state.anchor.rate)
    }
    return noErr
}

/// The rate of a timebase relative to its immediate source.
public func CMTimebaseGetRate(_ timebase: CMTimebase) -> Float64 {
    timebase.rate
}

/// The current time and rate of a timebase, read together.
public func CMTimebaseGetTimeAndRate(_ timebase: CMTimebase, timeOut: UnsafeMutablePointer<CMTime>?,
                                     rateOut: UnsafeMutablePointer<Float64>?) -> OSStatus {
    let (time, rate) = timebase.timeAndRate
    timeOut?.pointee = time
    rateOut?.pointee = rate
    return noErr
}

/// Sets the rate of a timebase, keeping its current time; posts
/// `kCMTimebaseNotification_EffectiveRateChanged` when its effective rate changes.
/// `kCMTimebaseError_InvalidParameter` for a rate that is not finite.
public func CMTimebaseSetRate(_ timebase: CMTimebase, rate: Float64) -> OSStatus {
    guard !timebase.isReadOnly else { return kCMTimebaseError_ReadOnly }
    guard rate.isFinite else { return kCMTimebaseError_InvalidParameter }
    timebase.change(jumps: false) { state, sourceNow in
        state.anchor = CMTimebase.Anchor(time: state.anchor.time(atSourceTime: sourceNow), sourceTime: sourceNow, rate: rate)
    }
    return noErr
}

/// Sets the rate of a timebase and the time it had when its source read
/// `immediateSourceTime`, as if it had run at `rate` since then; posts
/// `kCMTimebaseNotification_TimeJumped`, and `kCMTimebaseNotification_EffectiveRateChanged`
/// when the effective rate changes.
public func CMTimebaseSetRateAndAnchorTime(_ timebase: CMTimebase, rate: Float64, anchorTime timebaseTime: CMTime,
                                           immediateSourceTime: CMTime) -> OSStatus {
    guard !timebase.isReadOnly else { return kCMTimebaseError_ReadOnly }
    guard rate.isFinite, timebaseTime.isNumeric, immediateSourceTime.isNumeric else { return kCMTimebaseError_InvalidParameter }
    timebase.change(jumps: true) { state, _ in
        state.anchor = CMTimebase.Anchor(time: timebaseTime, sourceTime: immediateSourceTime, rate: rate)
    }
    return noErr
}

/// The rate of a timebase relative to its ultimate source clock.
public func CMTimebaseGetEffectiveRate(_ timebase: CMTimebase) -> Float64 {
    timebase.effectiveRate
}

/// Adds a repeating run-loop timer, already on `runloop`, to those the timebase schedules; it is
/// parked far in the future until its next fire time is set.
///
/// Differs from Apple: the timer and run loop are Foundation's `Timer` and `RunLoop` (Linux has
/// no `CFRunLoopTimer` or `CFRunLoop`).
public func CMTimebaseAddTimer(_ timebase: CMTimebase, timer: Timer, runloop: RunLoop) -> OSStatus {
    timebase.add(TimebaseTimer(kind: .runLoop(timer)), id: ObjectIdentifier(timer))
    return noErr
}

/// Stops scheduling a run-loop timer; `kCMTimebaseError_InvalidParameter` when the timebase
/// does not schedule it.
public func CMTimebaseRemoveTimer(_ timebase: CMTimebase, timer: Timer) -> OSStatus {
    timebase.removeTimer(id: ObjectIdentifier(timer))
}

/// Sets the time on the timebase's timeline at which a run-loop timer fires next; the timebase
/// moves it as its rate and time change. `flags` is reserved: pass 0.
public func CMTimebaseSetTimerNextFireTime(_ timebase: CMTimebase, timer: Timer, fireTime: CMTime, flags: UInt32) -> OSStatus {
    timebase.setNextFireTime(fireTime, id: ObjectIdentifier(timer))
}

/// Fires a run-loop timer once, now, and leaves it alone until its next fire time is set.
public func CMTimebaseSetTimerToFireImmediately(_ timebase: CMTimebase, timer: Timer) -> OSStatus {
    timebase.fireImmediately(id: ObjectIdentifier(timer))
}

/// Adds a dispatch timer source to those the timebase schedules; it is scheduled for
/// `DispatchTime.distantFuture` until its next fire time is set.
///
/// Differs from Apple: the source is a `DispatchSourceTimer` (Linux has no `dispatch_source_t`).
public func CMTimebaseAddTimerDispatchSource(_ timebase: CMTimebase, timerSource: any DispatchSourceTimer) -> OSStatus {
    timebase.add(TimebaseTimer(kind: .dispatch(timerSource)), id: ObjectIdentifier(timerSource as AnyObject))
    return noErr
}

/// Stops scheduling a dispatch timer source; `kCMTimebaseError_InvalidParameter` when the
/// timebase does not schedule it.
public func CMTimebaseRemoveTimerDispatchSource(_ timebase: CMTimebase, timerSource: any DispatchSourceTimer) -> OSStatus {
    timebase.removeTimer(id: ObjectIdentifier(timerSource as AnyObject))
}

/// Sets the time on the timebase's timeline at which a dispatch timer source fires next; the
/// timebase moves it as its rate and time change. `flags` is reserved: pass 0.
public func CMTimebaseSetTimerDispatchSourceNextFireTime(_ timebase: CMTimebase, timerSource: any DispatchSourceTimer,
                                                         fireTime: CMTime, flags: UInt32) -> OSStatus {
    timebase.setNextFireTime(fireTime, id: ObjectIdentifier(timerSource as AnyObject))
}

/// Fires a dispatch timer source once, now, and leaves it alone until its next fire time is set.
public func CMTimebaseSetTimerDispatchSourceToFireImmediately(_ timebase: CMTimebase,
                                                              timerSource: any DispatchSourceTimer) -> OSStatus {
    timebase.fireImmediately(id: ObjectIdentifier(timerSource as AnyObject))
}

/// Waits until the timebase has posted the notifications of its changes so far.
public func CMTimebaseNotificationBarrier(_ timebase: CMTimebase) -> OSStatus {
    timebase.waitForNotifications()
    return noErr
}
