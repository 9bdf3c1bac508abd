/// What an observation reports: the new value, the old one, an initial report, a report before
/// each change.
///
/// Linux addition: Foundation on Linux has no key-value observing; this is Foundation's type,
/// for the `observe(_:options:changeHandler:)` of the classes Apple lets you observe.
public struct NSKeyValueObservingOptions: OptionSet, Sendable {
    /// The options as bits.
    public let rawValue: UInt

    /// An options set from its raw value.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Reports carry the new value.
    public static let new = NSKeyValueObservingOptions(rawValue: 0x01)
    /// Reports carry the old value.
    public static let old = NSKeyValueObservingOptions(rawValue: 0x02)
    /// A report is made at once, when observing starts.
    public static let initial = NSKeyValueObservingOptions(rawValue: 0x04)
    /// A separate report (`isPrior`) comes before each change's.
    public static let prior = NSKeyValueObservingOptions(rawValue: 0x08)
}
