import OpenCoreMedia
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The host time clock in integer nanoseconds (`CLOCK_MONOTONIC`, as `CMClock.hostTimeClock`),
/// absolute sleeps on it, and exact grid arithmetic for the device threads.
package enum HostClock {
    /// Nanoseconds per second.
    package static let nanosecondsPerSecond: UInt64 = 1_000_000_000

    /// The host time now, in nanoseconds.
    package static var now: UInt64 { CMClock.monotonicNanoseconds() }

    /// Sleeps until the host time is at least `deadline` nanoseconds:
    /// `clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME)`, so the wake-up time does not depend on
    /// how long the caller took to get here (no drift); retried after signals.
    package static func sleep(untilNanoseconds deadline: UInt64) {
        var spec = timespec(tv_sec: Int(deadline / nanosecondsPerSecond), tv_nsec: Int(deadline % nanosecondsPerSecond))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {}
    }

    /// `a * b / c`, rounded down, without intermediate overflow (the result must fit).
    package static func multiplyDivide(_ a: UInt64, _ b: UInt64, _ c: UInt64) -> UInt64 {
        let (high, low) = a.multipliedFullWidth(by: b)
        return c.dividingFullWidth((high, low)).quotient
    }

    /// `a * b / c`, rounded up, without intermediate overflow (the result must fit).
    package static func multiplyDivideRoundingUp(_ a: UInt64, _ b: UInt64, _ c: UInt64) -> UInt64 {
        let (high, low) = a.multipliedFullWidth(by: b)
        let (quotient, remainder) = c.dividingFullWidth((high, low))
        return remainder == 0 ? quotient : quotient + 1
    }
}

/// A time grid on the host clock: tick `n` is at exactly `n * step` seconds, with `step` a
/// rational `value / timescale` (a frame duration, or one audio sample `1 / rate`).
///
/// The virtual devices put their frames and samples on such a grid, so every timestamp is an
/// exact `CMTime` in the step's timescale and consecutive ones differ by exactly the step.
package struct HostTimeGrid: Hashable, Sendable {
    /// Numerator of the step, in `timescale` units (reduced).
    package let value: UInt64
    /// Denominator of the step.
    package let timescale: UInt64

    /// A grid with the step `duration`, reduced to lowest terms; nil for a non-positive or
    /// non-numeric duration.
    package init?(step duration: CMTime) {
        guard duration.isNumeric, duration.value > 0, duration.timescale > 0 else { return nil }
        var (a, b) = (UInt64(duration.value), UInt64(duration.timescale))
        while b != 0 { (a, b) = (b, a % b) }
        value = UInt64(duration.value) / a
        timescale = UInt64(duration.timescale) / a
    }

    /// The step as a `CMTime`.
    package var step: CMTime { CMTime(value: CMTimeValue(value), timescale: CMTimeScale(timescale)) }

    /// The exact host time of tick `n`.
    package func time(ofTick n: UInt64) -> CMTime {
        CMTime(value: CMTimeValue(n * value), timescale: CMTimeScale(timescale))
    }

    /// The host nanosecond at which tick `n` has arrived (its time, rounded up).
    package func deadline(ofTick n: UInt64) -> UInt64 {
        HostClock.multiplyDivideRoundingUp(n * value, HostClock.nanosecondsPerSecond, timescale)
    }

    /// The last tick at or before the host nanosecond `nanoseconds`.
    package func tick(atOrBefore nanoseconds: UInt64) -> UInt64 {
        HostClock.multiplyDivide(nanoseconds, timescale, value * HostClock.nanosecondsPerSecond)
    }

    /// The first tick at or after the host nanosecond `nanoseconds`.
    package func tick(atOrAfter nanoseconds: UInt64) -> UInt64 {
        HostClock.multiplyDivideRoundingUp(nanoseconds, timescale, value * HostClock.nanosecondsPerSecond)
    }

    /// The whole seconds of tick `n`'s time (rounded down).
    package func wholeSeconds(ofTick n: UInt64) -> UInt64 {
        n * value / timescale
    }

    /// Whether tick `n` is the first at or after a whole second: a whole second lies in
    /// `(time(n - 1), time(n)]`.
    package func isFirstTickOfSecond(_ n: UInt64) -> Bool {
        n == 0 || wholeSeconds(ofTick: n) > wholeSeconds(ofTick: n - 1)
    }
}
