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
    /// Loads one property and returns its value: `let duration = try await asset.load(.duration)`.
    /// The value comes back in the caller's isolation (`isolation`, by default the caller's actor).
    public func load<T>(_ property: AVAsyncProperty<Self, T>, isolation: isolated (any Actor)? = #isolation) async throws -> T {
        nonisolated(unsafe) let root = self
        nonisolated(unsafe) let value = try await property.loadValue(root)
        return value
    }

    /// Loads two or more properties and returns their values in order:
    /// `let (duration, tracks) = try await asset.load(.duration, .tracks)`.
    public func load<A, B, each C>(
        _ firstProperty: AVAsyncProperty<Self, A>, _ secondProperty: AVAsyncProperty<Self, B>,
        _ properties: repeat AVAsyncProperty<Self, each C>, isolation: isolated (any Actor)? = #isolation
    ) async throws -> (A, B, repeat each C) {
        nonisolated(unsafe) let root = self
        nonisolated(unsafe) let values = (try await firstProperty.loadValue(root), try await secondProperty.loadValue(root),
                                          repeat try await (each properties).loadValue(root))
        return values
    }

    /// The loading state of a property, without loading it.
    public func status<T>(of property: AVAsyncProperty<Self, T>) -> AVAsyncProperty<Self, T>.Status {
        property.currentStatus(self)
    }
}
