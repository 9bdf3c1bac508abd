import Foundation

/// A value behind its own lock: the one way a class here keeps state that several threads read
/// and write, instead of a lock beside hand-written `get { lock.withLock { … } }` accessors.
///
/// A single property that is read and written on its own is declared with the wrapper,
/// `@Locked public var isEnabled = true`; several properties that change together live in one
/// struct behind one box, `let state = Locked(State())`, read and written member by member
/// (`state.isEnabled`) or together in `withLock`. Nothing is called with the lock held but the
/// closure given to `withLock`: keep it short and never call out of the class from it.
@propertyWrapper @dynamicMemberLookup
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// A box holding `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// A box holding `wrappedValue`, for `@Locked var name = value`.
    package convenience init(wrappedValue: Value) {
        self.init(wrappedValue)
    }

    /// The value, read or replaced under the lock.
    package var wrappedValue: Value {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }

    /// The box itself (`$name`), for reading and writing in one step with `withLock`.
    package var projectedValue: Locked<Value> { self }

    /// Runs `body` on the value with the lock held: a read and a write that must not be split.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }

    /// One member of the value, read or written under the lock.
    package subscript<Member>(dynamicMember keyPath: WritableKeyPath<Value, Member>) -> Member {
        get { lock.withLock { value[keyPath: keyPath] } }
        set { lock.withLock { value[keyPath: keyPath] = newValue } }
    }
}
