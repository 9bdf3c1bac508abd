import Foundation

/// One report of an observation: what kind of change, and the values asked for.
///
/// Linux addition: Foundation's type, absent from Foundation on Linux.
public struct NSKeyValueObservedChange<Value> {
    /// The type of `kind`: `NSKeyValueChange`.
    public typealias Kind = NSKeyValueChange

    /// The kind of change: `.setting`.
    public let kind: Kind
    /// The value after the change, when `.new` was asked for (nil in a prior report).
    public let newValue: Value?
    /// The value before the change, when `.old` was asked for (nil in an initial report).
    public let oldValue: Value?
    /// The indexes of a to-many change: nil here.
    public let indexes: IndexSet?
    /// Whether this is the report before a change (`.prior`).
    public let isPrior: Bool
}
