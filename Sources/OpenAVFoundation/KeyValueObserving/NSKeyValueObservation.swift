import Foundation

/// An observation made by `observe(_:options:changeHandler:)`: reports continue until
/// `invalidate()` is called or the observation is released.
///
/// Linux addition: Foundation's type, absent from Foundation on Linux.
public final class NSKeyValueObservation: NSObject, @unchecked Sendable {
    private let lock = NSLock()
    private var end: (() -> Void)?

    init(end: @escaping () -> Void) {
        self.end = end
    }

    deinit {
        invalidate()
    }

    /// Stops the reports.
    public func invalidate() {
        lock.withLock {
            defer { end = nil }
            return end
        }?()
    }
}
