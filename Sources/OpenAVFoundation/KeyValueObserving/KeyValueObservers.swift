import Foundation

/// The observers of one object's properties: the one implementation behind the
/// `observe(_:options:changeHandler:)` of every observable class (capture session, capture
/// device), Linux's stand-in for key-value observing.
///
/// The owner calls `recheck()` after anything that may have changed an observable property;
/// each observation then reads its property, and reports when the value differs from the last
/// one it reported (values that are not `Equatable` are reported at every recheck). Reports run
/// on the thread that rechecks, as KVO reports on the thread that made the change.
///
/// Differs from Apple: a `.prior` report comes just before the change's report, after the
/// value has changed (with the old value, as Apple's).
final class KeyValueObservers: @unchecked Sendable {
    /// One observation: reads and reports its property.
    private final class Registration: @unchecked Sendable {
        let lock = NSLock()
        let check: (Registration) -> Void
        /// The last value reported (or seen at the start).
        var last: Any?

        init(check: @escaping (Registration) -> Void) {
            self.check = check
        }
    }

    private let lock = NSLock()
    private var registrations: [Int: Registration] = [:]
    private var nextID = 0

    /// Starts observing `keyPath` of `object` (held weakly).
    func observe<Object: AnyObject, Value>(
        _ object: Object, _ keyPath: KeyPath<Object, Value>, options: NSKeyValueObservingOptions,
        changeHandler: @escaping (Object, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        let initial = object[keyPath: keyPath]
        if options.contains(.initial) {
            changeHandler(object, NSKeyValueObservedChange(kind: .setting, newValue: options.contains(.new) ? initial : nil,
                                                           oldValue: nil, indexes: nil, isPrior: false))
        }
        let registration = Registration { [weak object] registration in
            guard let object else { return }
            // Read and compared under the registration's lock: two threads rechecking at once
            // must not report an older value after a newer one.
            let change = registration.lock.withLock { () -> (old: Value, new: Value)? in
                let value = object[keyPath: keyPath]
                let old = registration.last as? Value
                if let old, Self.equal(old, value) { return nil }
                registration.last = value
                return old.map { ($0, value) }
            }
            guard let (old, value) = change else { return }
            let oldValue = options.contains(.old) ? old : nil
            if options.contains(.prior) {
                changeHandler(object, NSKeyValueObservedChange(kind: .setting, newValue: nil, oldValue: oldValue,
                                                               indexes: nil, isPrior: true))
            }
            changeHandler(object, NSKeyValueObservedChange(kind: .setting, newValue: options.contains(.new) ? value : nil,
                                                           oldValue: oldValue, indexes: nil, isPrior: false))
        }
        registration.last = initial
        let id = lock.withLock { () -> Int in
            nextID += 1
            registrations[nextID] = registration
            return nextID
        }
        return NSKeyValueObservation { [weak self] in
            guard let self else { return }
            _ = lock.withLock { registrations.removeValue(forKey: id) }
        }
    }

    /// Lets every observation compare its property with what it last reported.
    func recheck() {
        for registration in lock.withLock({ Array(registrations.values) }) { registration.check(registration) }
    }

    /// Whether two values are equal, when their type can tell (false otherwise).
    private static func equal<Value>(_ a: Value, _ b: Value) -> Bool {
        guard let a = a as? any Equatable else { return false }
        return isEqual(a, b)
    }

    private static func isEqual<Left: Equatable>(_ a: Left, _ b: Any) -> Bool {
        a == (b as? Left)
    }
}
