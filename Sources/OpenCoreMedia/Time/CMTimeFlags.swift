/// Flags that say whether a time is valid, rounded, infinite or indefinite.
public struct CMTimeFlags: OptionSet, Hashable, Sendable {
    /// The raw bits, with Apple's values.
    public let rawValue: UInt32

    /// Creates flags from Apple's raw bit values.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The time is valid; without this flag every other field is meaningless.
    public static let valid = CMTimeFlags(rawValue: 1 << 0)
    /// The time was rounded at some point and is not completely accurate.
    public static let hasBeenRounded = CMTimeFlags(rawValue: 1 << 1)
    /// The time is positive infinity.
    public static let positiveInfinity = CMTimeFlags(rawValue: 1 << 2)
    /// The time is negative infinity.
    public static let negativeInfinity = CMTimeFlags(rawValue: 1 << 3)
    /// The time is indefinite, such as the duration of a live broadcast.
    public static let indefinite = CMTimeFlags(rawValue: 1 << 4)
    /// The flags that imply a value other than `value/timescale`.
    public static let impliedValueFlagsMask: CMTimeFlags = [.positiveInfinity, .negativeInfinity, .indefinite]
}
