import Foundation
import OpenCoreVideo
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A source of time: reading it tells what time it is now. Clocks cannot be set, stopped or started.
///
/// Differs from Apple: the only clock is the host time clock, which on Linux is
/// `CLOCK_MONOTONIC` in nanoseconds (timescale 1,000,000,000); capture timestamps use the same
/// clock. Audio-device clocks are not provided: a synchronizer's sound device drives its
/// host-clock timebase by nudging it instead (`AVSampleBufferRenderSynchronizer`).
public final class CMClock: Sendable, Hashable {
    private init() {}

    static let host = CMClock()

    /// The host time clock: `CLOCK_MONOTONIC`, in nanoseconds.
    public static var hostTimeClock: CMClock { host }

    /// The clock's current time.
    public var time: CMTime { CMTime(value: CMTimeValue(CMClock.monotonicNanoseconds()), timescale: CMClock.nanosecondsPerSecond) }

    /// The clock's current time and the matching time of its reference clock; for the host time
    /// clock both are the host time.
    public func anchorTime() throws -> (anchorTime: CMTime, referenceTime: CMTime) {
        let now = time
        return (now, now)
    }

    /// Whether this clock might drift relative to `otherClock`; never, since all clocks here are
    /// the host time clock.
    public func mightDrift(relativeTo otherClock: CMClock) -> Bool { false }

    /// Converts a host time to system units: nanoseconds of `CLOCK_MONOTONIC`.
    public static func convertHostTimeToSystemUnits(_ hostTime: CMTime) -> UInt64 {
        CMClockConvertHostTimeToSystemUnits(hostTime)
    }

    /// Converts system units (nanoseconds of `CLOCK_MONOTONIC`) to a host time.
    public static func convertSystemUnitsToHostTime(_ systemUnits: UInt64) -> CMTime {
        CMClockMakeHostTimeFromSystemUnits(systemUnits)
    }

    /// Identity: clocks are equal only to themselves.
    public static func == (lhs: CMClock, rhs: CMClock) -> Bool { lhs === rhs }

    /// Hashes the clock's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    static let nanosecondsPerSecond: CMTimeScale = 1_000_000_000

    /// Nanoseconds of `CLOCK_MONOTONIC`, the host time's system units.
    package static func monotonicNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}
