import Foundation
import OpenCoreVideo

/// A mapping of a segment of a source timeline onto a target timeline, as edit lists and
/// composition tracks use.
///
/// An *empty* mapping (invalid source, valid target) stands for a span of the target with no
/// media, such as an empty edit.
///
/// Linux addition: `Hashable` (field-by-field, as `CMTimeRange` compares) and `Sendable`.
public struct CMTimeMapping: Sendable, Hashable {
    /// The range on the source (media) timeline; invalid for an empty edit.
    public var source: CMTimeRange
    /// The range on the target (presentation) timeline.
    public var target: CMTimeRange

    /// Creates an invalid mapping (both ranges invalid).
    public init() {
        self.init(source: .invalid, target: .invalid)
    }

    /// Creates a mapping of `source` onto `target`.
    public init(source: CMTimeRange, target: CMTimeRange) {
        self.source = source
        self.target = target
    }

    /// An invalid mapping.
    public static let invalid = CMTimeMapping()
}

/// Makes a mapping of `source` onto `target`.
public func CMTimeMappingMake(source: CMTimeRange, target: CMTimeRange) -> CMTimeMapping {
    CMTimeMapping(source: source, target: target)
}

/// Makes an empty edit: no media, lasting `target`.
public func CMTimeMappingMakeEmpty(target: CMTimeRange) -> CMTimeMapping {
    CMTimeMapping(source: .invalid, target: target)
}

/// Whether the mapping is valid: its target range is valid.
///
/// Linux addition: Apple documents `CMTIMEMAPPING_IS_VALID` as a C macro only.
public func CMTIMEMAPPING_IS_VALID(_ mapping: CMTimeMapping) -> Bool { mapping.target.isValid }

/// Whether the mapping is an empty edit: an invalid source start and a valid target.
///
/// Linux addition: Apple documents `CMTIMEMAPPING_IS_EMPTY` as a C macro only.
public func CMTIMEMAPPING_IS_EMPTY(_ mapping: CMTimeMapping) -> Bool {
    !mapping.source.start.isNumeric && mapping.target.isValid
}

/// The dictionary key of a mapping's source range. Apple does not publish the string value;
/// compare with the constant.
public let kCMTimeMappingSourceKey: CFString = "source"
/// The dictionary key of a mapping's target range. Apple does not publish the string value;
/// compare with the constant.
public let kCMTimeMappingTargetKey: CFString = "target"

/// The mapping as a dictionary of two range dictionaries (see `CMTimeRangeCopyAsDictionary`),
/// for property lists.
public func CMTimeMappingCopyAsDictionary(_ mapping: CMTimeMapping, allocator: CFAllocator?) -> CFDictionary? {
    guard let source = CMTimeRangeCopyAsDictionary(mapping.source, allocator: allocator),
          let target = CMTimeRangeCopyAsDictionary(mapping.target, allocator: allocator) else { return nil }
    return [kCMTimeMappingSourceKey: source, kCMTimeMappingTargetKey: target] as NSDictionary
}

/// The mapping stored by `CMTimeMappingCopyAsDictionary`; a range whose key is missing is invalid.
public func CMTimeMappingMakeFromDictionary(_ dictionaryRepresentation: CFDictionary) -> CMTimeMapping {
    func range(_ key: CFString) -> CMTimeRange {
        guard let dictionary = dictionaryRepresentation[key] as? NSDictionary else { return .invalid }
        return CMTimeRangeMakeFromDictionary(dictionary)
    }
    return CMTimeMapping(source: range(kCMTimeMappingSourceKey), target: range(kCMTimeMappingTargetKey))
}

/// A description such as `{source = {{0/1 = 0.000}, {3/1 = 3.000}}, target = {…}}`.
public func CMTimeMappingCopyDescription(allocator: CFAllocator?, mapping: CMTimeMapping) -> CFString? {
    let source = CMTimeRangeCopyDescription(allocator: allocator, range: mapping.source) ?? ""
    let target = CMTimeRangeCopyDescription(allocator: allocator, range: mapping.target) ?? ""
    return "{source = \(source), target = \(target)}"
}

/// Prints the mapping's description to standard output, as Apple's does (a debugging aid).
public func CMTimeMappingShow(_ mapping: CMTimeMapping) {
    print(CMTimeMappingCopyDescription(allocator: nil, mapping: mapping) ?? "")
}

/// `time * numerator / denominator` for numeric times, exact when the result fits in 128-bit
/// intermediate arithmetic, otherwise computed in `Float64` and marked rounded. The result is
/// a duration (epoch 0).
private func scale(_ time: CMTime, by numerator: CMTime, over denominator: CMTime) -> CMTime {
    guard time.isNumeric, numerator.isNumeric, denominator.isNumeric, denominator.value != 0 else { return .invalid }
    // (a/b) * (c/d) / (e/f) = (a * c * f) / (b * d * e)
    var top = [Int128(time.value), Int128(numerator.value), Int128(denominator.timescale)]
    var bottom = [Int128(time.timescale), Int128(numerator.timescale), Int128(denominator.value)]
    for i in top.indices {
        for j in bottom.indices {
            let common = RationalTime.gcd(top[i], bottom[j])
            if common > 1 { top[i] /= common; bottom[j] /= common }
        }
    }
    let rounded = time.hasBeenRounded || numerator.hasBeenRounded || denominator.hasBeenRounded
    let (p1, o1) = top[0].multipliedReportingOverflow(by: top[1])
    let (p2, o2) = p1.multipliedReportingOverflow(by: top[2])
    let (q1, o3) = bottom[0].multipliedReportingOverflow(by: bottom[1])
    let (q2, o4) = q1.multipliedReportingOverflow(by: bottom[2])
    if !(o1 || o2 || o3 || o4), q2 != 0, p2.magnitude < (UInt128(1) << 96) {
        let (n, d) = q2 < 0 ? (-p2, -q2) : (p2, q2)
        let common = RationalTime.gcd(n, d)
        let timescale = RationalTime.timescale(forDenominator: d / common, preferring: Int128(time.timescale))
        return RationalTime.time(n / common, over: d / common, timescale: timescale, alreadyRounded: rounded, epoch: 0)
    }
    let seconds = time.seconds * numerator.seconds / denominator.seconds
    var result = CMTimeMakeWithSeconds(seconds, preferredTimescale: time.timescale)
    if result.isNumeric { result.flags.insert(.hasBeenRounded) }
    return result
}

/// Maps a time from one range onto another linearly:
/// `(t - fromRange.start) * (toRange.duration / fromRange.duration) + toRange.start`.
///
/// Invalid when either range is empty or `t` is not in `fromRange.start`'s epoch. When both
/// durations are +infinity, `t` is only offset between the starts, not scaled.
public func CMTimeMapTimeFromRangeToRange(_ t: CMTime, fromRange: CMTimeRange, toRange: CMTimeRange) -> CMTime {
    guard fromRange.isValid, toRange.isValid, !fromRange.isEmpty, !toRange.isEmpty,
          t.isValid, t.epoch == fromRange.start.epoch else { return .invalid }
    let offset = t - fromRange.start
    if fromRange.duration.isPositiveInfinity && toRange.duration.isPositiveInfinity {
        return offset + toRange.start
    }
    return scale(offset, by: toRange.duration, over: fromRange.duration) + toRange.start
}

/// Maps a duration from one range onto another: `dur * (toRange.duration / fromRange.duration)`.
/// Invalid when `dur` is not in epoch 0.
public func CMTimeMapDurationFromRangeToRange(_ dur: CMTime, fromRange: CMTimeRange, toRange: CMTimeRange) -> CMTime {
    guard dur.isValid, dur.epoch == 0, fromRange.isValid, toRange.isValid else { return .invalid }
    if fromRange.duration.isPositiveInfinity && toRange.duration.isPositiveInfinity { return dur }
    return scale(dur, by: toRange.duration, over: fromRange.duration)
}
