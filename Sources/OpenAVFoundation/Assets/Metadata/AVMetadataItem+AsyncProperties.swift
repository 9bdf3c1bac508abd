// AVMetadataItem's asynchronous loading: an item's value is read with the asset, so every value
// is loaded already and loading never waits.
import Foundation

extension AVMetadataItem: AVAsynchronousKeyValueLoading {
    /// The keys `statusOfValue(forKey:error:)` knows for an item.
    static let loadableKeys: Set<String> = [
        "value", "stringValue", "numberValue", "dateValue", "dataValue", "extraAttributes", "identifier", "keySpace",
        "key", "commonKey", "dataType", "locale", "extendedLanguageTag", "time", "duration", "startDate",
    ]

    /// `.loaded` for every key an item has: an item's value is read with its asset.
    public func statusOfValue(forKey key: String, error outError: NSErrorPointer) -> AVKeyValueStatus {
        guard Self.loadableKeys.contains(key) else {
            outError?.pointee = AVError(.unknown, reason: "\"\(key)\" is not a loadable key of AVMetadataItem") as NSError
            return .failed
        }
        return .loaded
    }

    /// Calls `handler` at once, on an arbitrary queue: an item's values are already loaded.
    public func loadValuesAsynchronously(forKeys keys: [String], completionHandler handler: (@Sendable () -> Void)? = nil) {
        if let handler { DispatchQueue.global().async(execute: handler) }
    }
}

extension AVAsyncProperty where Root: AVMetadataItem {
    /// An item property: always loaded, read straight from the item.
    static func item(_ key: String, _ value: @escaping @Sendable (Root) -> Value) -> AVAsyncProperty<Root, Value> {
        AVAsyncProperty(key: key, load: { value($0) }, status: { .loaded(value($0)) })
    }
}

// Apple declares the item's loadable properties on `AVPartialAsyncProperty`.
extension AVPartialAsyncProperty where Root: AVMetadataItem {
    /// The item's value.
    public static var value: AVAsyncProperty<Root, (any NSCopying & NSObjectProtocol)?> { .item("value") { $0.value } }
    /// The item's value as a string.
    public static var stringValue: AVAsyncProperty<Root, String?> { .item("stringValue") { $0.stringValue } }
    /// The item's value as a number.
    public static var numberValue: AVAsyncProperty<Root, NSNumber?> { .item("numberValue") { $0.numberValue } }
    /// The item's value as a date.
    public static var dateValue: AVAsyncProperty<Root, Date?> { .item("dateValue") { $0.dateValue } }
    /// The item's value as data.
    public static var dataValue: AVAsyncProperty<Root, Data?> { .item("dataValue") { $0.dataValue } }
    /// The item's attributes beyond its value.
    public static var extraAttributes: AVAsyncProperty<Root, [AVMetadataExtraAttributeKey: Any]?> {
        .item("extraAttributes") { $0.extraAttributes }
    }
}
