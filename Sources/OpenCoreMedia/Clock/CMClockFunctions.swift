import Foundation
import OpenCoreVideo

/// A clock or a timebase, as taken by `CMSyncConvertTime`: a `CMClock` or a `CMTimebase`.
public typealias CMClockOrTimebase = AnyObject

/// The host time clock: `CLOCK_MONOTONIC` in nanoseconds.
public func CMClockGetHostTimeClock() -> CMClock {
    CMClock.hostTimeClock
}

/// A clock's current time.
public func CMClockGetTime(_ clock: CMClock) -> CMTime {
    clock.time
}

/// Reads a clock's time and its reference clock's time at the same moment.
@discardableResult
public func CMClockGetAnchorTime(
    _ clock: CMClock, clockTimeOut: UnsafeMutablePointer<CMTime>, referenceClockTimeOut: UnsafeMutablePointer<CMTime>
) -> OSStatus {
    let now = clock.time
    clockTimeOut.pointee = now
    referenceClockTimeOut.pointee = now
    return noErr
}

/// Whether two clocks might drift relative to each other; never here, all clocks being host time.
public func CMClockMightDrift(_ clock: CMClock, otherClock: CMClock) -> Bool {
    clock.mightDrift(relativeTo: otherClock)
}

/// Converts a host time to system units: nanoseconds of `CLOCK_MONOTONIC`; `0` for a
/// non-numeric or negative time.
public func CMClockConvertHostTimeToSystemUnits(_ hostTime: CMTime) -> UInt64 {
    guard hostTime.isNumeric, hostTime.timescale > 0, hostTime.value >= 0 else { return 0 }
    if hostTime.timescale == CMClock.nanosecondsPerSecond { return UInt64(hostTime.value) }
    let (high, low) = UInt64(hostTime.value).multipliedFullWidth(by: 1_000_000_000)
    let (quotient, _) = UInt64(hostTime.timescale).dividingFullWidth((high, low))
    return quotient
}

/// Converts system units (nanoseconds of `CLOCK_MONOTONIC`) to a host time with timescale
/// 1,000,000,000.
public func CMClockMakeHostTimeFromSystemUnits(_ hostTime: UInt64) -> CMTime {
    CMTime(value: CMTimeValue(clamping: hostTime), timescale: CMClock.nanosecondsPerSecond)
}

/// Converts a time from one clock's or timebase's timeline to another's, through the host time
/// clock at the root of both; `.invalid` when the source is a stopped timebase (its time is at
/// no single host time) or either is neither a clock nor a timebase.
public func CMSyncConvertTime(
    _ time: CMTime, from fromClockOrTimebase: CMClockOrTimebase, to toClockOrTimebase: CMClockOrTimebase
) -> CMTime {
    let hostTime: CMTime
    switch fromClockOrTimebase {
    case is CMClock: hostTime = time
    case let timebase as CMTimebase:
        guard timebase !== toClockOrTimebase else { return time }
        guard let converted = timebase.hostTime(atTime: time) else { return .invalid }
        hostTime = converted
    default: return .invalid
    }
    switch toClockOrTimebase {
    case is CMClock: return hostTime
    case let timebase as CMTimebase: return timebase.time(atHostTime: hostTime)
    default: return .invalid
    }
}

/// The current time of a clock or timebase; `.invalid` for anything else.
public func CMSyncGetTime(_ clockOrTimebase: CMClockOrTimebase) -> CMTime {
    switch clockOrTimebase {
    case let clock as CMClock: clock.time
    case let timebase as CMTimebase: timebase.time
    default: .invalid
    }
}

/// The rate of a clock or timebase relative to another: the ratio of their rates relative to the
/// host time clock; NaN relative to a stopped timebase, or for anything that is neither.
public func CMSyncGetRelativeRate(_ ofClockOrTimebase: CMClockOrTimebase, relativeTo relativeToClockOrTimebase: CMClockOrTimebase) -> Float64 {
    guard let rate = hostRate(of: ofClockOrTimebase), let reference = hostRate(of: relativeToClockOrTimebase), reference != 0
    else { return .nan }
    return rate / reference
}

/// The rate of a clock or timebase relative to another, and the times both read at one moment.
/// `kCMClockError_InvalidParameter` for anything that is neither a clock nor a timebase.
public func CMSyncGetRelativeRateAndAnchorTime(
    _ ofClockOrTimebase: CMClockOrTimebase, relativeTo relativeToClockOrTimebase: CMClockOrTimebase,
    relativeRateOut outRelativeRate: UnsafeMutablePointer<Float64>?,
    anchorTimeOut outOfClockOrTimebaseAnchorTime: UnsafeMutablePointer<CMTime>?,
    relativeToAnchorTimeOut outRelativeToClockOrTimebaseAnchorTime: UnsafeMutablePointer<CMTime>?
) -> OSStatus {
    guard hostRate(of: ofClockOrTimebase) != nil, hostRate(of: relativeToClockOrTimebase) != nil else {
        return kCMClockError_InvalidParameter
    }
    let host = CMClock.hostTimeClock
    let now = host.time
    outRelativeRate?.pointee = CMSyncGetRelativeRate(ofClockOrTimebase, relativeTo: relativeToClockOrTimebase)
    outOfClockOrTimebaseAnchorTime?.pointee = CMSyncConvertTime(now, from: host, to: ofClockOrTimebase)
    outRelativeToClockOrTimebaseAnchorTime?.pointee = CMSyncConvertTime(now, from: host, to: relativeToClockOrTimebase)
    return noErr
}

/// The rate of a clock (1) or a timebase (its effective rate) relative to the host time clock;
/// nil for anything else.
private func hostRate(of clockOrTimebase: CMClockOrTimebase) -> Double? {
    switch clockOrTimebase {
    case is CMClock: 1
    case let timebase as CMTimebase: timebase.effectiveRate
    default: nil
    }
}

/// Whether two clocks or timebases might drift relative to each other; never here, every clock
/// and every timebase's ultimate source being the host time clock.
public func CMSyncMightDrift(_ clockOrTimebase1: CMClockOrTimebase, _ clockOrTimebase2: CMClockOrTimebase) -> Bool {
    false
}

/// A required parameter was missing.
public let kCMClockError_MissingRequiredParameter: OSStatus = -12745
/// A parameter was not valid.
public let kCMClockError_InvalidParameter: OSStatus = -12746
/// Memory could not be allocated.
public let kCMClockError_AllocationFailed: OSStatus = -12747
/// The clock does not support the operation.
public let kCMClockError_UnsupportedOperation: OSStatus = -12756
