/// Whether a `SMPTETime` holds a time and whether it is running (Core Audio's `kSMPTETime…` flags).
public struct SMPTETimeFlags: OptionSet, Sendable {
    /// The bits.
    public let rawValue: UInt32
    /// Flags of the given bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The time is valid.
    public static let valid = SMPTETimeFlags(rawValue: 1 << 0)
    /// The time is running.
    public static let running = SMPTETimeFlags(rawValue: 1 << 1)
}
