/// The C `Boolean` of Apple's frameworks as Swift sees it: the out-parameters of functions
/// such as `CMTextFormatDescriptionGetDefaultStyle` take one.
///
/// Linux addition: Swift's Darwin overlay defines it on Apple platforms; Linux's standard
/// library has none, so code written for Apple platforms finds it here.
public struct DarwinBoolean: ExpressibleByBooleanLiteral, Hashable, Sendable, CustomStringConvertible {
    /// The value as a Swift `Bool`.
    public var boolValue: Bool

    /// A boolean holding `value`.
    public init(_ value: Bool) { boolValue = value }

    /// A boolean written as `true` or `false`.
    public init(booleanLiteral value: Bool) { boolValue = value }

    /// `true` or `false`.
    public var description: String { boolValue.description }
}
