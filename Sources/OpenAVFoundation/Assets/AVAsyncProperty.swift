import Foundation

/// The common base of every asynchronously loadable property.
public class AVAnyAsyncProperty: @unchecked Sendable, CustomStringConvertible {
    /// The property's key, the name the older `loadValuesAsynchronously(forKeys:)` style uses.
    let key: String

    init(key: String) {
        self.key = key
    }

    /// The property's key.
    public var description: String { key }
}

/// A loadable property of objects of type `Root`, whatever its value type. The properties
/// themselves (`.duration`, `.tracks`, `.naturalSize`, `.stringValue`, …) are its static members,
/// so that a list of them such as `AVPlayerItem(asset:automaticallyLoadedAssetKeys:)` takes can be
/// written `[.duration, .tracks]`.
public class AVPartialAsyncProperty<Root>: AVAnyAsyncProperty, @unchecked Sendable {}

/// A property of `Root` with a value of type `Value` that loads asynchronously, such as
/// `.duration` or `.tracks` of an asset: `try await asset.load(.duration, .tracks)`.
public final class AVAsyncProperty<Root, Value>: AVPartialAsyncProperty<Root>, @unchecked Sendable {
    /// The loading state of a property, with its value once loaded.
    public enum Status {
        /// Loading has not been asked for.
        case notYetLoaded
        /// Loading is under way.
        case loading
        /// The value is loaded.
        case loaded(Value)
        /// Loading failed with this error.
        case failed(NSError)
    }

    /// Loads (or returns the loaded) value from a root object.
    let loadValue: @Sendable (Root) async throws -> Value
    /// The loading state of the value in a root object, without loading it.
    let currentStatus: @Sendable (Root) -> Status

    init(key: String,
         load: @escaping @Sendable (Root) async throws -> Value,
         status: @escaping @Sendable (Root) -> Status) {
        self.loadValue = load
        self.currentStatus = status
        super.init(key: key)
    }
}

extension AVAsyncProperty.Status: Equatable where Value: Equatable {}

extension AVAsyncProperty.Status: @unchecked Sendable where Value: Sendable {}
