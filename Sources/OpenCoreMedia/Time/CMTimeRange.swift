import Foundation
import OpenCoreVideo

/// A range of time: a start and a duration. The range holds `start` but not `start + duration`.
///
/// A range is valid when both times are valid and the duration is a non-negative epoch-0 time.
///
/// Linux addition: `Hashable` and `Sendable` (Apple's is `Equatable`).
public struct CMTimeRange: Sendable, Hashable {
    /// The first time in the range.
    public var start: CMTime
    /// The length of the range.
    public var duration: CMTime

    /// Creates an invalid range (both times invalid).
    public init() {
        self.init(start: .invalid, duration: .invalid)
    }

    /// Creates a range from a start and a duration.
    public init(start: CMTime, duration: CMTime) {
        self.start = start
        self.duration = duration
    }

    /// Creates the range from `start` up to, not including, `end`.
    public init(start: CMTime, end: CMTime) {
        self.init(start: start, duration: end - start)
    }

    /// The empty range at time zero.
    public static let zero = CMTimeRange(start: .zero, duration: .zero)
    /// An invalid range.
    public static let invalid = CMTimeRange()

    /// The first time after the range (`start + duration`); invalid when the range is invalid.
    public var end: CMTime { CMTimeRangeGetEnd(self) }

    /// Whether the range is valid: both times valid, and the duration a non-negative epoch-0 time.
    public var isValid: Bool {
        start.isValid && duration.isValid && duration.epoch == 0 && duration.value >= 0
    }
    /// Whether the range is valid and its start or duration is indefinite.
    public var isIndefinite: Bool { isValid && (start.isIndefinite || duration.isIndefinite) }
    /// Whether the range is valid and has a zero duration.
    public var isEmpty: Bool { isValid && duration == .zero }

    /// Whether `time` is inside the range: `start <= time < end`.
    public func containsTime(_ time: CMTime) -> Bool { CMTimeRangeContainsTime(self, time: time) }
    /// Whether `range` lies entirely inside this range.
    public func containsTimeRange(_ range: CMTimeRange) -> Bool {
        CMTimeRangeContainsTimeRange(self, otherRange: range)
    }
    /// The smallest range that holds both ranges.
    public func union(_ otherRange: CMTimeRange) -> CMTimeRange {
        CMTimeRangeGetUnion(self, otherRange: otherRange)
    }
    /// The largest range that both ranges hold; `CMTimeRange.zero` when they do not overlap.
    public func intersection(_ otherRange: CMTimeRange) -> CMTimeRange {
        CMTimeRangeGetIntersection(self, otherRange: otherRange)
    }

    /// Whether two ranges have equal starts and equal durations (as `CMTimeCompare` defines it).
    public static func == (lhs: CMTimeRange, rhs: CMTimeRange) -> Bool { CMTimeRangeEqual(lhs, rhs) }
}

/// An invalid range; the C spelling of `CMTimeRange.invalid`.
///
/// Linux addition: Apple's Swift SDK renamed the C constant to `CMTimeRange.invalid`.
public let kCMTimeRangeInvalid = CMTimeRange.invalid
/// The empty range at zero; the C spelling of `CMTimeRange.zero`.
///
/// Linux addition: Apple's Swift SDK renamed the C constant to `CMTimeRange.zero`.
public let kCMTimeRangeZero = CMTimeRange.zero

/// Makes a range from a start and a duration.
public func CMTimeRangeMake(start: CMTime, duration: CMTime) -> CMTimeRange {
    CMTimeRange(start: start, duration: duration)
}

/// Makes the range from `start` up to, not including, `end`.
public func CMTimeRangeFromTimeToTime(start: CMTime, end: CMTime) -> CMTimeRange {
    CMTimeRange(start: start, end: end)
}

/// The first time after the range; invalid when the range is invalid.
public func CMTimeRangeGetEnd(_ range: CMTimeRange) -> CMTime {
    range.isValid ? range.start + range.duration : .invalid
}

/// The smallest range holding both ranges: from the earlier start to the later end.
public func CMTimeRangeGetUnion(_ range: CMTimeRange, otherRange: CMTimeRange) -> CMTimeRange {
    guard range.isValid, otherRange.isValid else { return .invalid }
    return CMTimeRange(start: CMTimeMinimum(range.start, otherRange.start),
                       end: CMTimeMaximum(range.end, otherRange.end))
}

/// The largest range both ranges hold; `kCMTimeRangeZero` when they do not overlap.
public func CMTimeRangeGetIntersection(_ range: CMTimeRange, otherRange: CMTimeRange) -> CMTimeRange {
    guard range.isValid, otherRange.isValid else { return .invalid }
    let start = CMTimeMaximum(range.start, otherRange.start)
    let end = CMTimeMinimum(range.end, otherRange.end)
    return CMTimeCompare(start, end) < 0 ? CMTimeRange(start: start, end: end) : .zero
}

/// Whether `time` is in the range: `start <= time < start + duration`.
public func CMTimeRangeContainsTime(_ range: CMTimeRange, time: CMTime) -> Bool {
    range.isValid && time.isValid && CMTimeCompare(time, range.start) >= 0 && CMTimeCompare(time, range.end) < 0
}

/// Whether `otherRange` lies entirely inside `range`.
public func CMTimeRangeContainsTimeRange(_ range: CMTimeRange, otherRange: CMTimeRange) -> Bool {
    range.isValid && otherRange.isValid
        && CMTimeCompare(otherRange.start, range.start) >= 0
        && CMTimeCompare(otherRange.end, range.end) <= 0
}

/// Whether two ranges have equal starts and durations.
public func CMTimeRangeEqual(_ range1: CMTimeRange, _ range2: CMTimeRange) -> Bool {
    range1.start == range2.start && range1.duration == range2.duration
}

/// Whether the range is valid.
public func CMTIMERANGE_IS_VALID(_ range: CMTimeRange) -> Bool { range.isValid }
/// Whether the range is invalid.
public func CMTIMERANGE_IS_INVALID(_ range: CMTimeRange) -> Bool { !range.isValid }
/// Whether the range is valid and indefinite.
public func CMTIMERANGE_IS_INDEFINITE(_ range: CMTimeRange) -> Bool { range.isIndefinite }
/// Whether the range is valid and empty.
public func CMTIMERANGE_IS_EMPTY(_ range: CMTimeRange) -> Bool { range.isEmpty }

/// The nearest time inside the range: `time` itself when inside, the start when before it, the
/// end when after it. Invalid for an invalid time or an empty or invalid range.
public func CMTimeClampToRange(_ time: CMTime, range: CMTimeRange) -> CMTime {
    guard time.isValid, range.isValid, !range.isEmpty else { return .invalid }
    if CMTimeCompare(time, range.start) < 0 { return range.start }
    if CMTimeCompare(time, range.end) > 0 { return range.end }
    return time
}

/// `time` wrapped into the range, as a loop would: a time `k` durations past the start maps to
/// the same offset from the start. Invalid for an invalid time or an empty or invalid range.
public func CMTimeFoldIntoRange(_ time: CMTime, foldRange range: CMTimeRange) -> CMTime {
    guard time.isNumeric, range.isValid, !range.isEmpty, range.start.isNumeric, range.duration.isNumeric
    else { return .invalid }
    let offset = time - range.start
    guard offset.isNumeric else { return .invalid }
    let (to, td) = (Int128(offset.timescale), Int128(range.duration.timescale))
    let lcm = to / RationalTime.gcd(to, td) * td
    let offsetUnits = Int128(offset.value) * (lcm / to)
    let durationUnits = Int128(range.duration.value) * (lcm / td)
    var folded = offsetUnits % durationUnits
    if folded < 0 { folded += durationUnits }
    let foldedOffset = RationalTime.time(folded, over: lcm, timescale: min(lcm, RationalTime.maxTimescale),
                                         alreadyRounded: offset.hasBeenRounded, epoch: 0)
    return range.start + foldedOffset
}

/// The dictionary key of a range's start.
public let kCMTimeRangeStartKey: CFString = "start"
/// The dictionary key of a range's duration.
public let kCMTimeRangeDurationKey: CFString = "duration"

/// The range as a dictionary of two time dictionaries, for property lists.
public func CMTimeRangeCopyAsDictionary(_ range: CMTimeRange, allocator: CFAllocator?) -> CFDictionary? {
    guard let start = CMTimeCopyAsDictionary(range.start, allocator: allocator),
          let duration = CMTimeCopyAsDictionary(range.duration, allocator: allocator) else { return nil }
    return [kCMTimeRangeStartKey: start, kCMTimeRangeDurationKey: duration] as NSDictionary
}

/// The range stored by `CMTimeRangeCopyAsDictionary`; invalid when a key is missing.
public func CMTimeRangeMakeFromDictionary(_ dictionaryRepresentation: CFDictionary) -> CMTimeRange {
    let start = dictionaryRepresentation[kCMTimeRangeStartKey] as? NSDictionary
    let duration = dictionaryRepresentation[kCMTimeRangeDurationKey] as? NSDictionary
    return CMTimeRange(start: CMTimeMakeFromDictionary(start), duration: CMTimeMakeFromDictionary(duration))
}

/// A description such as `{{0/1 = 0.000}, {3/1 = 3.000}}`.
public func CMTimeRangeCopyDescription(allocator: CFAllocator?, range: CMTimeRange) -> CFString? {
    let start = CMTimeCopyDescription(allocator: allocator, time: range.start) ?? ""
    let duration = CMTimeCopyDescription(allocator: allocator, time: range.duration) ?? ""
    return "{\(start), \(duration)}"
}

/// Prints the range's description to standard output, as Apple's does (a debugging aid).
public func CMTimeRangeShow(_ range: CMTimeRange) {
    print(CMTimeRangeCopyDescription(allocator: nil, range: range) ?? "")
}

extension CMTimeRange {
    /// Hashes the range so that ranges equal under `CMTimeRangeEqual` hash alike. Linux addition.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(start)
        hasher.combine(duration)
    }
}
