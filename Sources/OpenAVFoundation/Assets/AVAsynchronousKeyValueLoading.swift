import Foundation

/// The two ways to load an object's values without blocking: the key-based
/// `loadValuesAsynchronously(forKeys:completionHandler:)` the programming guide shows, and the
/// `load(_:)` of `AVAsyncProperty` values in current SDKs.
public protocol AVAsynchronousKeyValueLoading {
    /// The loading state of the value for `key`; when it is `.failed`, `outError` receives why.
    func statusOfValue(forKey key: String, error outError: NSErrorPointer) -> AVKeyValueStatus

    /// Loads the values for `keys` that are not loaded yet, then calls `handler` once, on an
    /// arbitrary queue, when all of them have loaded, failed or been cancelled.
    func loadValuesAsynchronously(forKeys keys: [String], completionHandler handler: (@Sendable () -> Void)?)
}

extension AVAsynchronousKeyValueLoading {
    /// Loads one property and returns its value.
    public func load<T>(_ property: AVAsyncProperty<Self, T>) async throws -> T {
        try await property.loadValue(self)
    }

    /// Loads several properties and returns their values in order:
    /// `let (duration, tracks) = try await asset.load(.duration, .tracks)`.
    public func load<each T>(_ properties: repeat AVAsyncProperty<Self, each T>) async throws -> (repeat each T) {
        (repeat try await (each properties).loadValue(self))
    }

    /// The loading state of a property, without loading it.
    public func status<T>(of property: AVAsyncProperty<Self, T>) -> AVAsyncProperty<Self, T>.Status {
        property.currentStatus(self)
    }
}
