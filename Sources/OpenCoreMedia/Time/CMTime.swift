import Foundation

/// The numerator of a time: a signed 64-bit count of timescale units.
public typealias CMTimeValue = Int64
/// The denominator of a time: the number of units per second.
public typealias CMTimeScale = Int32
/// The epoch of a time, distinguishing otherwise equal times such as loops of a timeline.
public typealias CMTimeEpoch = Int64

/// The largest timescale a time may have.
public let kCMTimeMaxTimescale: Int = 0x7fff_ffff

/// A time value: a rational number of seconds (`value / timescale`), or one of the non-numeric
/// times invalid, indefinite, positive infinity and negative infinity.
///
/// Arithmetic, comparison and rounding follow Apple's CoreMedia documentation exactly: mixed
/// timescales meet in their least common multiple, overflow halves the timescale and sets
/// `hasBeenRounded`, and `1/2 == 2/4`.
public struct CMTime: Sendable {
    /// The numerator.
    public var value: CMTimeValue
    /// The denominator, in units per second.
    public var timescale: CMTimeScale
    /// Whether the time is valid, rounded, infinite or indefinite.
    public var flags: CMTimeFlags
    /// The epoch; times in epoch 0 are durations that can be added to times in any epoch.
    public var epoch: CMTimeEpoch

    /// Creates an invalid time (every field zero).
    public init() {
        self.init(value: 0, timescale: 0, flags: [], epoch: 0)
    }

    /// Creates a valid time of `value / timescale` seconds in epoch 0.
    public init(value: CMTimeValue, timescale: CMTimeScale) {
        self.init(value: value, timescale: timescale, flags: .valid, epoch: 0)
    }

    /// Creates a time from all four fields.
    public init(value: CMTimeValue, timescale: CMTimeScale, flags: CMTimeFlags, epoch: CMTimeEpoch) {
        self.value = value
        self.timescale = timescale
        self.flags = flags
        self.epoch = epoch
    }

    /// Creates the time nearest to `seconds` in `preferredTimescale` (see `CMTimeMakeWithSeconds`).
    public init(seconds: Double, preferredTimescale: CMTimeScale) {
        self = CMTimeMakeWithSeconds(seconds, preferredTimescale: preferredTimescale)
    }

    /// Zero seconds (`0/1`).
    public static let zero = CMTime(value: 0, timescale: 1)
    /// An invalid time.
    public static let invalid = CMTime()
    /// An indefinite time, such as the duration of a live broadcast.
    public static let indefinite = CMTime(value: 0, timescale: 0, flags: [.valid, .indefinite], epoch: 0)
    /// Positive infinity.
    public static let positiveInfinity = CMTime(value: 0, timescale: 0, flags: [.valid, .positiveInfinity], epoch: 0)
    /// Negative infinity.
    public static let negativeInfinity = CMTime(value: 0, timescale: 0, flags: [.valid, .negativeInfinity], epoch: 0)

    /// The time in seconds; NaN when invalid or indefinite, ±infinity when infinite.
    public var seconds: Double { CMTimeGetSeconds(self) }

    /// Whether the time is valid.
    public var isValid: Bool { flags.contains(.valid) }
    /// Whether the time is valid and finite: neither infinite nor indefinite.
    public var isNumeric: Bool { flags.intersection([.valid, .impliedValueFlagsMask]) == .valid }
    /// Whether the time is valid and indefinite.
    public var isIndefinite: Bool { isValid && flags.contains(.indefinite) }
    /// Whether the time is valid and positive infinity.
    public var isPositiveInfinity: Bool { isValid && flags.contains(.positiveInfinity) }
    /// Whether the time is valid and negative infinity.
    public var isNegativeInfinity: Bool { isValid && flags.contains(.negativeInfinity) }
    /// Whether the time is numeric and was rounded at some point.
    public var hasBeenRounded: Bool { isNumeric && flags.contains(.hasBeenRounded) }

    /// The same time on another timescale, rounded by `method` (see `CMTimeConvertScale`).
    public func convertScale(_ newTimescale: Int32, method: CMTimeRoundingMethod) -> CMTime {
        CMTimeConvertScale(self, timescale: newTimescale, method: method)
    }
}

extension CMTime {
    /// The kind of a time, in the order `CMTimeCompare` sorts them.
    enum Kind: Int, Comparable {
        case negativeInfinity, numeric, indefinite, positiveInfinity, invalid

        static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Which kind of time this is; a "valid" time with a non-positive timescale counts as invalid.
    var kind: Kind {
        guard isValid else { return .invalid }
        if flags.contains(.positiveInfinity) { return .positiveInfinity }
        if flags.contains(.negativeInfinity) { return .negativeInfinity }
        if flags.contains(.indefinite) { return .indefinite }
        return timescale > 0 ? .numeric : .invalid
    }
}

extension CMTime: Comparable {
    /// Whether two times are equal as `CMTimeCompare` defines it (`1/2 == 2/4`; all invalid
    /// times are equal to each other).
    public static func == (lhs: CMTime, rhs: CMTime) -> Bool { CMTimeCompare(lhs, rhs) == 0 }

    /// Whether `lhs` sorts before `rhs` as `CMTimeCompare` defines it:
    /// `-infinity < finite < indefinite < +infinity < invalid`.
    public static func < (lhs: CMTime, rhs: CMTime) -> Bool { CMTimeCompare(lhs, rhs) < 0 }
}

/// Linux addition: `Hashable`, consistent with `CMTimeCompare` equality.
extension CMTime: Hashable {
    /// Hashes the time so that times equal under `CMTimeCompare` hash alike. Linux addition.
    public func hash(into hasher: inout Hasher) {
        let kind = self.kind
        hasher.combine(kind.rawValue)
        guard kind == .numeric else { return }
        let divisor = RationalTime.gcd(Int128(value), Int128(timescale))
        hasher.combine(epoch)
        hasher.combine(Int128(value) / divisor)
        hasher.combine(Int128(timescale) / divisor)
    }
}

/// Apple's operators: `+` and `-` (besides the comparisons). Apple's SDK has no `+=`, `-=` or
/// `*` for CMTime, and apps commonly define their own, which must not meet a second
/// definition here ("ambiguous use of operator"): the in-place forms the project uses itself
/// are visible inside the package only.
extension CMTime {
    /// The sum of two times (see `CMTimeAdd`).
    public static func + (addend1: CMTime, addend2: CMTime) -> CMTime { CMTimeAdd(addend1, addend2) }
    /// The difference of two times (see `CMTimeSubtract`).
    public static func - (minuend: CMTime, subtrahend: CMTime) -> CMTime { CMTimeSubtract(minuend, subtrahend) }
    /// Adds a time in place (inside the package only: not Apple's).
    package static func += (lhs: inout CMTime, rhs: CMTime) { lhs = lhs + rhs }
    /// Subtracts a time in place (inside the package only: not Apple's).
    package static func -= (lhs: inout CMTime, rhs: CMTime) { lhs = lhs - rhs }
}

/// Zero seconds; the C spelling of `CMTime.zero`.
///
/// Linux addition: Apple's Swift SDK renamed the C constant to `CMTime.zero` and marks this
/// spelling unavailable.
public let kCMTimeZero = CMTime.zero
/// An invalid time; the C spelling of `CMTime.invalid`.
///
/// Linux addition: Apple's Swift SDK renamed the C constant to `CMTime.invalid` and marks this
/// spelling unavailable.
public let kCMTimeInvalid = CMTime.invalid
/// An indefinite time; the C spelling of `CMTime.indefinite`.
///
/// Linux addition: Apple's Swift SDK renamed the C constant to `CMTime.indefinite` and marks this
/// spelling unavailable.
public let kCMTimeIndefinite = CMTime.indefinite
/// Positive infinity; the C spelling of `CMTime.positiveInfinity`.
///
/// Linux addition: Apple's Swift SDK renamed the C constant to `CMTime.positiveInfinity` and marks this
/// spelling unavailable.
public let kCMTimePositiveInfinity = CMTime.positiveInfinity
/// Negative infinity; the C spelling of `CMTime.negativeInfinity`.
///
/// Linux addition: Apple's Swift SDK renamed the C constant to `CMTime.negativeInfinity` and marks this
/// spelling unavailable.
public let kCMTimeNegativeInfinity = CMTime.negativeInfinity
