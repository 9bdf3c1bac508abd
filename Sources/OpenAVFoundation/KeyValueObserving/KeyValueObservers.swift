import Foundation

/// The observers of one object's properties: the one implementation behind the
/// `observe(_:options:changeHandler:)` of every observable class (player, player item, capture
/// session, capture device), Linux's stand-in for key-value observing.
///
/// The object keeps the state its observable properties come from in an `ObservedState`,
/// which calls `recheck()` after every write; each observation then reads its property and
/// reports when the value differs from the last one it reported. Values are compared with `==`
/// where their type is `Equatable`, objects (and arrays of them) by identity, errors by domain,
/// code and description; anything else is reported at every write. Reports run on the thread
/// that wrote, as KVO reports on the thread that made the change.
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

    /// Whether two values are equal, as far as their type can tell (false otherwise).
    private static func equal(_ a: Any, _ b: Any) -> Bool {
        if let a = a as? any Equatable { return isEqual(a, b) }
        switch (unwrapped(a), unwrapped(b)) {
        case (nil, nil):
            return true
        case let (a?, b?):
            if let a = a as? any Equatable { return isEqual(a, b) }
            if type(of: a) is AnyClass, type(of: b) is AnyClass { return (a as AnyObject) === (b as AnyObject) }
            if let a = a as? [AnyObject], let b = b as? [AnyObject] {
                return a.count == b.count && zip(a, b).allSatisfy { $0 === $1 }
            }
            if let a = a as? Error, let b = b as? Error {
                let (a, b) = (a as NSError, b as NSError)
                return a.domain == b.domain && a.code == b.code && a.localizedDescription == b.localizedDescription
            }
            return false
        default:
            return false
        }
    }

    /// The value an optional holds (nil when it holds none); any other value as it is.
    private static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.map { unwrapped($0.value) } ?? nil
    }

    private static func isEqual<Left: Equatable>(_ a: Left, _ b: Any) -> Bool {
        a == (b as? Left)
    }
}
