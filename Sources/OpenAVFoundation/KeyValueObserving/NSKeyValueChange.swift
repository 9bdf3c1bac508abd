/// The kind of change an observation reports.
///
/// Linux addition: Foundation's type, absent from Foundation on Linux.
public enum NSKeyValueChange: UInt, Sendable {
    /// The value was set (the only kind the observable properties here report).
    case setting = 1
    /// Objects were inserted into a to-many property.
    case insertion = 2
    /// Objects were removed from a to-many property.
    case removal = 3
    /// Objects of a to-many property were replaced.
    case replacement = 4
}
