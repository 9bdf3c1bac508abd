import Foundation
import OpenCoreVideo

// The C-style CMTime functions and macros, with Apple's Swift names and labels. Each follows the
// behaviour CMTime.h documents; the arithmetic is exact (see RationalTime) until a result has to
// be placed on a timescale.

/// Makes a valid time of `value / timescale` seconds in epoch 0.
public func CMTimeMake(value: Int64, timescale: Int32) -> CMTime {
    CMTime(value: value, timescale: timescale)
}

/// Makes a valid time of `value / timescale` seconds in `epoch`.
public func CMTimeMakeWithEpoch(value: Int64, timescale: Int32, epoch: Int64) -> CMTime {
    CMTime(value: value, timescale: timescale, flags: .valid, epoch: epoch)
}

/// Makes the time nearest to `seconds` on `preferredTimescale`.
///
/// Invalid for a non-positive timescale or NaN seconds, ±infinity for infinite seconds. The
/// timescale is halved while the value overflows; `hasBeenRounded` is set when the result,
/// converted back to seconds, differs from `seconds`.
public func CMTimeMakeWithSeconds(_ seconds: Float64, preferredTimescale: Int32) -> CMTime {
    guard preferredTimescale > 0, !seconds.isNaN else { return .invalid }
    if seconds.isInfinite { return seconds > 0 ? .positiveInfinity : .negativeInfinity }
    var timescale = preferredTimescale
    while true {
        let exact = seconds * Float64(timescale)
        let value = exact.rounded(.toNearestOrAwayFromZero)
        if abs(value) < 0x1p63 {
            let result = Int64(value)
            var flags: CMTimeFlags = .valid
            if Float64(result) / Float64(timescale) != seconds { flags.insert(.hasBeenRounded) }
            return CMTime(value: result, timescale: timescale, flags: flags, epoch: 0)
        }
        if timescale == 1 { return seconds > 0 ? .positiveInfinity : .negativeInfinity }
        timescale /= 2
    }
}

/// The time in seconds: NaN when invalid or indefinite, ±infinity when infinite, otherwise
/// `value / timescale` computed in `Float64` (the epoch is ignored).
public func CMTimeGetSeconds(_ time: CMTime) -> Float64 {
    switch time.kind {
    case .invalid, .indefinite: return .nan
    case .positiveInfinity: return .infinity
    case .negativeInfinity: return -.infinity
    case .numeric: return Float64(time.value) / Float64(time.timescale)
    }
}

/// The time on `newTimescale`, rounded by `method`; `hasBeenRounded` is set when rounding
/// happened. Non-numeric times come back unchanged; a non-positive timescale gives an invalid
/// time, and a value that no longer fits gives ±infinity.
public func CMTimeConvertScale(_ time: CMTime, timescale newTimescale: Int32, method: CMTimeRoundingMethod) -> CMTime {
    guard time.kind == .numeric else { return time }
    guard newTimescale > 0 else { return .invalid }
    let numerator = Int128(time.value) * Int128(newTimescale)
    let denominator = Int128(time.timescale)
    var resolved = method
    if method == .quickTime {
        resolved = newTimescale < time.timescale ? .roundTowardZero : .roundAwayFromZero
    }
    var (value, rounded) = RationalTime.divide(numerator, by: denominator, method: resolved)
    if method == .quickTime, value == 0, time.value < 0 { value = -1 }
    guard let fitting = Int64(exactly: value) else {
        return time.value < 0 ? .negativeInfinity : .positiveInfinity
    }
    var flags = time.flags
    if rounded { flags.insert(.hasBeenRounded) }
    return CMTime(value: fitting, timescale: newTimescale, flags: flags, epoch: time.epoch)
}

/// The non-numeric result of adding two times when at least one is not numeric, or nil.
private func nonNumericSum(_ a: CMTime, _ b: CMTime) -> CMTime? {
    let (ka, kb) = (a.kind, b.kind)
    if ka == .numeric && kb == .numeric { return nil }
    if ka == .invalid || kb == .invalid { return .invalid }
    let aInfinite = ka == .positiveInfinity || ka == .negativeInfinity
    let bInfinite = kb == .positiveInfinity || kb == .negativeInfinity
    if aInfinite && bInfinite { return ka == kb ? a.kindConstant : .invalid }
    if aInfinite { return a.kindConstant }
    if bInfinite { return b.kindConstant }
    return .indefinite
}

extension CMTime {
    /// The constant of this time's kind (for non-numeric results).
    fileprivate var kindConstant: CMTime {
        switch kind {
        case .negativeInfinity: return .negativeInfinity
        case .positiveInfinity: return .positiveInfinity
        case .indefinite: return .indefinite
        case .invalid: return .invalid
        case .numeric: return self
        }
    }

    /// The time with its sign inverted, for subtraction of non-numeric times.
    fileprivate var negatedKind: CMTime {
        switch kind {
        case .negativeInfinity: return .positiveInfinity
        case .positiveInfinity: return .negativeInfinity
        default: return self
        }
    }
}

/// The epoch of the sum or difference of two numeric times, or nil when they cannot be combined:
/// epoch-0 times are durations that combine with any epoch; two times in the same non-zero
/// epoch give a duration (epoch 0); different non-zero epochs cannot be combined.
private func combinedEpoch(_ a: CMTimeEpoch, _ b: CMTimeEpoch) -> CMTimeEpoch? {
    if a == b { return 0 }
    if a == 0 { return b }
    if b == 0 { return a }
    return nil
}

/// The sum or difference (`sign` = -1) of two numeric times, exact until placed on the LCM
/// timescale (or `kCMTimeMaxTimescale`).
private func numericSum(_ a: CMTime, _ b: CMTime, sign: Int128) -> CMTime {
    guard let epoch = combinedEpoch(a.epoch, b.epoch) else { return .invalid }
    let rounded = a.flags.contains(.hasBeenRounded) || b.flags.contains(.hasBeenRounded)
    // The LCM of the timescales, and each operand's factor to it, without 128-bit division.
    var (x, y) = (Int64(a.timescale), Int64(b.timescale))
    while y != 0 { (x, y) = (y, x % y) }
    let (factorA, factorB) = (Int64(b.timescale) / x, Int64(a.timescale) / x)
    let lcm = Int128(a.timescale) * Int128(factorA)
    let numerator = Int128(a.value) * Int128(factorA) + sign * Int128(b.value) * Int128(factorB)
    if lcm <= RationalTime.maxTimescale, let value = Int64(exactly: numerator) {
        // Exact on the LCM timescale: the common case, and what the general path gives.
        return CMTime(value: value, timescale: Int32(lcm), flags: rounded ? [.valid, .hasBeenRounded] : .valid, epoch: epoch)
    }
    return RationalTime.time(numerator, over: lcm, timescale: min(lcm, RationalTime.maxTimescale),
                             alreadyRounded: rounded, epoch: epoch)
}

/// The sum of two times, as CMTime.h documents: the LCM timescale when it fits, rounding with
/// `hasBeenRounded` otherwise; invalid, infinite and indefinite operands propagate.
public func CMTimeAdd(_ lhs: CMTime, _ rhs: CMTime) -> CMTime {
    nonNumericSum(lhs, rhs) ?? numericSum(lhs, rhs, sign: 1)
}

/// The difference of two times (`lhs - rhs`), with the rules of `CMTimeAdd`;
/// `+infinity - +infinity` is invalid.
public func CMTimeSubtract(_ lhs: CMTime, _ rhs: CMTime) -> CMTime {
    nonNumericSum(lhs, rhs.negatedKind) ?? numericSum(lhs, rhs, sign: -1)
}

/// The non-numeric result of scaling a non-numeric time by a factor of sign `sign`, or nil.
private func nonNumericProduct(_ time: CMTime, sign: Int32) -> CMTime? {
    switch time.kind {
    case .numeric: return nil
    case .positiveInfinity, .negativeInfinity: return sign < 0 ? time.negatedKind : time.kindConstant
    default: return time.kindConstant
    }
}

/// A time multiplied by an integer, on the same timescale (halved on overflow).
public func CMTimeMultiply(_ time: CMTime, multiplier: Int32) -> CMTime {
    if let special = nonNumericProduct(time, sign: multiplier.signum()) { return special }
    let scale = Int128(time.timescale)
    return RationalTime.time(Int128(time.value) * Int128(multiplier), over: scale, timescale: scale,
                             alreadyRounded: time.flags.contains(.hasBeenRounded), epoch: time.epoch)
}

/// A time multiplied by a floating-point number. The timescale is doubled until it is at least
/// 65536 and halved while the value overflows; the value is rounded to nearest.
public func CMTimeMultiplyByFloat64(_ time: CMTime, multiplier: Float64) -> CMTime {
    if multiplier.isNaN { return .invalid }
    if let special = nonNumericProduct(time, sign: multiplier < 0 ? -1 : 1) { return special }
    if multiplier.isInfinite {
        return (time.value < 0) != (multiplier < 0) ? .negativeInfinity : .positiveInfinity
    }
    var timescale = Int64(time.timescale)
    while timescale < 65536 && timescale * 2 <= Int64(kCMTimeMaxTimescale) { timescale *= 2 }
    let exactSeconds = Float64(time.value) * multiplier / Float64(time.timescale)
    while true {
        let exact = exactSeconds * Float64(timescale)
        let value = exact.rounded(.toNearestOrAwayFromZero)
        if abs(value) < 0x1p63 {
            var flags: CMTimeFlags = .valid
            if value != exact || time.flags.contains(.hasBeenRounded) { flags.insert(.hasBeenRounded) }
            return CMTime(value: Int64(value), timescale: Int32(timescale), flags: flags, epoch: time.epoch)
        }
        if timescale == 1 { return exact < 0 ? .negativeInfinity : .positiveInfinity }
        timescale /= 2
    }
}

/// `time * multiplier / divisor`, exact whenever the result fits: the time's own timescale when
/// it holds the result exactly, otherwise the smallest timescale that does; rounded only on
/// overflow. A zero divisor gives an invalid time.
public func CMTimeMultiplyByRatio(_ time: CMTime, multiplier: Int32, divisor: Int32) -> CMTime {
    guard divisor != 0 else { return .invalid }
    if let special = nonNumericProduct(time, sign: multiplier.signum() * divisor.signum()) { return special }
    var numerator = Int128(time.value) * Int128(multiplier)
    var denominator = Int128(time.timescale) * Int128(divisor)
    if denominator < 0 { (numerator, denominator) = (-numerator, -denominator) }
    let common = RationalTime.gcd(numerator, denominator)
    let reducedDenominator = denominator / common
    let timescale = RationalTime.timescale(forDenominator: reducedDenominator, preferring: Int128(time.timescale))
    return RationalTime.time(numerator / common, over: reducedDenominator, timescale: timescale,
                             alreadyRounded: time.flags.contains(.hasBeenRounded), epoch: time.epoch)
}

/// Compares two times: -1, 0 or 1. Numeric times in different epochs order by epoch; all
/// times order as `-infinity < finite < indefinite < +infinity < invalid`.
public func CMTimeCompare(_ time1: CMTime, _ time2: CMTime) -> Int32 {
    // Two plain numeric times (the common case: packet times against a range, both sides of a
    // muxer's checks) compare by their values when the timescales agree, or by 64-bit cross
    // products when those cannot overflow; everything else takes the general path below.
    if time1.flags == .valid, time2.flags == .valid, time1.timescale > 0, time2.timescale > 0,
       time1.epoch == time2.epoch {
        if time1.timescale == time2.timescale {
            return time1.value == time2.value ? 0 : (time1.value < time2.value ? -1 : 1)
        }
        let (lhs, lhsOverflow) = time1.value.multipliedReportingOverflow(by: Int64(time2.timescale))
        let (rhs, rhsOverflow) = time2.value.multipliedReportingOverflow(by: Int64(time1.timescale))
        if !lhsOverflow, !rhsOverflow { return lhs == rhs ? 0 : (lhs < rhs ? -1 : 1) }
    }
    let (k1, k2) = (time1.kind, time2.kind)
    if k1 != k2 { return k1 < k2 ? -1 : 1 }
    guard k1 == .numeric else { return 0 }
    if time1.epoch != time2.epoch { return time1.epoch < time2.epoch ? -1 : 1 }
    let lhs = Int128(time1.value) * Int128(time2.timescale)
    let rhs = Int128(time2.value) * Int128(time1.timescale)
    return lhs == rhs ? 0 : (lhs < rhs ? -1 : 1)
}

/// Whether `comparator` holds between `CMTimeCompare(time1, time2)` and 0, as the C macro:
/// `CMTIME_COMPARE_INLINE(t1, <=, t2)`.
///
/// Linux addition: Apple documents `CMTIME_COMPARE_INLINE` as a C macro only; Swift code on
/// Apple platforms compares with `<`, `<=`, `==`.
public func CMTIME_COMPARE_INLINE(_ time1: CMTime, _ comparator: (Int32, Int32) -> Bool, _ time2: CMTime) -> Bool {
    comparator(CMTimeCompare(time1, time2), 0)
}

/// The lesser of two times, as `CMTimeCompare` orders them.
public func CMTimeMinimum(_ time1: CMTime, _ time2: CMTime) -> CMTime {
    CMTimeCompare(time1, time2) <= 0 ? time1 : time2
}

/// The greater of two times, as `CMTimeCompare` orders them.
public func CMTimeMaximum(_ time1: CMTime, _ time2: CMTime) -> CMTime {
    CMTimeCompare(time1, time2) >= 0 ? time1 : time2
}

/// The absolute value of a time: negative numeric times and negative infinity change sign.
public func CMTimeAbsoluteValue(_ time: CMTime) -> CMTime {
    switch time.kind {
    case .negativeInfinity: return .positiveInfinity
    case .numeric where time.value < 0: return CMTimeMultiply(time, multiplier: -1)
    default: return time
    }
}

/// Whether the time is valid.
public func CMTIME_IS_VALID(_ time: CMTime) -> Bool { time.isValid }
/// Whether the time is invalid.
public func CMTIME_IS_INVALID(_ time: CMTime) -> Bool { !time.isValid }
/// Whether the time is positive infinity.
public func CMTIME_IS_POSITIVEINFINITY(_ time: CMTime) -> Bool { time.isPositiveInfinity }
/// Whether the time is negative infinity.
public func CMTIME_IS_NEGATIVEINFINITY(_ time: CMTime) -> Bool { time.isNegativeInfinity }
/// Whether the time is indefinite.
public func CMTIME_IS_INDEFINITE(_ time: CMTime) -> Bool { time.isIndefinite }
/// Whether the time is numeric: valid, finite and not indefinite.
public func CMTIME_IS_NUMERIC(_ time: CMTime) -> Bool { time.isNumeric }
/// Whether the time is numeric and has been rounded.
public func CMTIME_HAS_BEEN_ROUNDED(_ time: CMTime) -> Bool { time.hasBeenRounded }

/// The dictionary key of a time's value (a 64-bit number).
public let kCMTimeValueKey: CFString = "value"
/// The dictionary key of a time's timescale (a 32-bit number).
public let kCMTimeScaleKey: CFString = "timescale"
/// The dictionary key of a time's epoch (a 64-bit number).
public let kCMTimeEpochKey: CFString = "epoch"
/// The dictionary key of a time's flags (a 32-bit number).
public let kCMTimeFlagsKey: CFString = "flags"

/// The time as a dictionary with the `kCMTime…Key` keys, for storing in property lists.
public func CMTimeCopyAsDictionary(_ time: CMTime, allocator: CFAllocator?) -> CFDictionary? {
    [
        kCMTimeValueKey: NSNumber(value: time.value),
        kCMTimeScaleKey: NSNumber(value: time.timescale),
        kCMTimeEpochKey: NSNumber(value: time.epoch),
        kCMTimeFlagsKey: NSNumber(value: time.flags.rawValue),
    ] as NSDictionary
}

/// The time stored by `CMTimeCopyAsDictionary`; invalid when a key is missing.
public func CMTimeMakeFromDictionary(_ dictionaryRepresentation: CFDictionary?) -> CMTime {
    guard let dictionary = dictionaryRepresentation as? [String: Any],
          let value = (dictionary[kCMTimeValueKey] as? NSNumber)?.int64Value,
          let timescale = (dictionary[kCMTimeScaleKey] as? NSNumber)?.int32Value,
          let epoch = (dictionary[kCMTimeEpochKey] as? NSNumber)?.int64Value,
          let flags = (dictionary[kCMTimeFlagsKey] as? NSNumber)?.uint32Value
    else { return .invalid }
    return CMTime(value: value, timescale: timescale, flags: CMTimeFlags(rawValue: flags), epoch: epoch)
}

/// A description such as `{1/3 = 0.333}`, `{INVALID}`, `{+INFINITY}`, `{-INFINITY}` or
/// `{INDEFINITE}`; rounded times add `, rounded` and non-zero epochs `, epoch = N`.
public func CMTimeCopyDescription(allocator: CFAllocator?, time: CMTime) -> CFString? {
    switch time.kind {
    case .invalid: return "{INVALID}"
    case .indefinite: return "{INDEFINITE}"
    case .positiveInfinity: return "{+INFINITY}"
    case .negativeInfinity: return "{-INFINITY}"
    case .numeric:
        var text = "\(time.value)/\(time.timescale) = " + String(format: "%.3f", time.seconds)
        if time.hasBeenRounded { text += ", rounded" }
        if time.epoch != 0 { text += ", epoch = \(time.epoch)" }
        return "{" + text + "}"
    }
}

/// Prints the time's description to standard output, as Apple's does (a debugging aid).
public func CMTimeShow(_ time: CMTime) {
    print(CMTimeCopyDescription(allocator: nil, time: time) ?? "")
}
