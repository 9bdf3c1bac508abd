import Foundation

/// The state of an observable object (player, player item, capture session, capture device)
/// behind its lock, together with the object's key-value observers: every write through it
/// reports to the observers once the lock is released. A property whose value comes from this
/// state is reported where it changes, the way Apple's setters notify their observers; no
/// writer has to remember to tell them.
///
/// A thread that acts on the state (a player's) waits on it: every write wakes it.
///
/// Properties that derive from another object's state name it as a dependent: a player's
/// `timeControlStatus` follows its current item's `status`, so the item's state tells its
/// player's observers too (Apple's `keyPathsForValuesAffectingValue(forKey:)`).
@dynamicMemberLookup
final class ObservedState<State>: @unchecked Sendable {
    /// The observers of the object's properties: its `observe(_:options:changeHandler:)`
    /// registers with them.
    let observers = KeyValueObservers()
    private let lock = NSCondition()
    private var state: State
    private var dependents: @Sendable () -> [KeyValueObservers] = { [] }

    /// State starting as `state`.
    init(_ state: State) {
        self.state = state
    }

    /// Names the observers of other objects whose properties follow this state (asked after
    /// each write); set once, as the object is made.
    func alsoTell(_ dependents: @escaping @Sendable () -> [KeyValueObservers]) {
        lock.withLock { self.dependents = dependents }
    }

    /// Reads the state under the lock (several members at once, consistently).
    func read<Result>(_ body: (State) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(state) }
    }

    /// Changes the state under the lock and wakes the threads waiting on it, then reports to
    /// the observers: its dependents' first, so that an observer of the object finds them told.
    /// `body` must not call out of the object: the lock is held.
    @discardableResult
    func update<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        let (result, dependents) = try lock.withLock {
            defer { lock.broadcast() }
            return (try body(&state), self.dependents)
        }
        for other in dependents() { other.recheck() }
        observers.recheck()
        return result
    }

    /// Waits until the state changes or `deadline` passes, unless `ready` already holds.
    func wait(until deadline: Date, unless ready: (State) -> Bool) {
        lock.withLock {
            guard !ready(state) else { return }
            _ = lock.wait(until: deadline)
        }
    }

    /// One member of the state: read under the lock, or written and reported.
    subscript<Member>(dynamicMember keyPath: WritableKeyPath<State, Member>) -> Member {
        get { read { $0[keyPath: keyPath] } }
        set { update { $0[keyPath: keyPath] = newValue } }
    }
}
