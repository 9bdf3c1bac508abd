/// A time interval in seconds, as Core Foundation spells it.
public typealias CFTimeInterval = Double

/// A date in seconds since 1 January 2001 00:00:00 UTC, as Core Foundation spells it
/// (`Date.timeIntervalSinceReferenceDate`).
public typealias CFAbsoluteTime = CFTimeInterval

/// The host time now, in seconds: QuartzCore's function, here because Linux has no QuartzCore.
/// It reads the host time clock (`CLOCK_MONOTONIC`), as `CMClock.hostTimeClock` does, so
/// `AVPlayerItemVideoOutput.itemTime(forHostTime:)` takes its value.
public func CACurrentMediaTime() -> CFTimeInterval {
    Double(CMClock.monotonicNanoseconds()) / 1e9
}
