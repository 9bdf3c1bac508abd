// AVMetadataItem: one piece of metadata of an asset or track, with Apple's properties, identifier
// functions and filters.
import Foundation
import HostSystem

/// A metadata item of an asset or one of its tracks: a key in a key space, and a value.
/// The value is read with the asset, so `try await item.load(.stringValue)` never waits, and
/// reading the properties directly never blocks.
///
/// Differs from Apple: items whose values load lazily (`init(propertiesOf:valueLoadingHandler:)`,
/// `AVMetadataItemValueRequest`) are not available.
public class AVMetadataItem: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    /// Everything an item holds; behind a lock because the mutable subclass writes it.
    package struct State {
        var keySpace: AVMetadataKeySpace?
        var key: (any NSCopying & NSObjectProtocol)?
        var value: (any NSCopying & NSObjectProtocol)?
        var locale: Locale?
        var extendedLanguageTag: String?
        var dataType: String?
        var time: CMTime = .invalid
        var duration: CMTime = .invalid
        var startDate: Date?
        var extraAttributes: [AVMetadataExtraAttributeKey: Any]?
    }

    private let state: Locked<State>

    /// Creates an item from its parts; the asset layer and the FFmpeg tag factory use this.
    package init(state: State) {
        self.state = Locked(state)
        super.init()
    }

    /// Creates an empty item (no key, no value, invalid time and duration).
    /// Differs from Apple: Apple's plain `init()` is unusable on the immutable class; here it is harmless.
    override public convenience init() {
        self.init(state: State())
    }

    /// Creates an item in `keySpace` under `key` with `value`, as the FFmpeg tag factory needs.
    package convenience init(
        keySpace: AVMetadataKeySpace, key: String, value: (any NSCopying & NSObjectProtocol)?,
        dataType: String? = nil, extendedLanguageTag: String? = nil
    ) {
        var state = State()
        state.keySpace = keySpace
        state.key = key as NSString
        state.value = value
        state.dataType = dataType ?? AVMetadataItem.dataType(of: value)
        state.extendedLanguageTag = extendedLanguageTag
        self.init(state: state)
    }

    /// A copy of the whole state, read under the lock.
    package var snapshot: State { state.withLock { $0 } }

    /// Changes the state under the lock; only the mutable subclass calls this.
    package func mutate(_ body: (inout State) -> Void) { state.withLock(body) }

    // MARK: Keys and identifiers

    /// The identifier of the item: its key space and key in one string, such as "udta/%A9nam".
    public var identifier: AVMetadataIdentifier? {
        let s = snapshot
        guard let keySpace = s.keySpace, let key = s.key else { return nil }
        return AVMetadataItem.identifier(forKey: key, keySpace: keySpace)
    }

    /// The key space of the item's key.
    public var keySpace: AVMetadataKeySpace? { snapshot.keySpace }

    /// The item's key, usually an `NSString` (a four-character code such as "©nam" for user data).
    /// Matches Apple's type; on Linux read it with `item.key as? NSString` or `(item.key as? NSString).map(String.init)`.
    public var key: (any NSCopying & NSObjectProtocol)? { snapshot.key }

    /// The common key that corresponds to the item's key, if its key space maps it to one.
    public var commonKey: AVMetadataKey? {
        let s = snapshot
        guard let keySpace = s.keySpace, let key = AVMetadataItem.keyString(s.key) else { return nil }
        return AVMetadataCommonKeyMapping.commonKey(forKey: key, keySpace: keySpace)
    }

    // MARK: Value

    /// The item's value: an `NSString`, `NSNumber`, `NSDate`, `NSData`, or another object.
    public var value: (any NSCopying & NSObjectProtocol)? { snapshot.value }

    /// The value as a string, or nil when it cannot be represented as one.
    /// Numbers give their decimal text and dates their ISO 8601 text, as Apple's coercion does.
    public var stringValue: String? {
        switch snapshot.value {
        case let string as NSString: return string as String
        case let number as NSNumber: return number.stringValue
        case let date as NSDate: return AVMetadataDateParsing.iso8601String(from: date as Date)
        default: return nil
        }
    }

    /// The value as a number, or nil when it cannot be represented as one (a numeric string is parsed).
    public var numberValue: NSNumber? {
        switch snapshot.value {
        case let number as NSNumber: return number
        case let string as NSString:
            let text = (string as String).trimmingCharacters(in: .whitespaces)
            if let integer = Int64(text) { return NSNumber(value: integer) }
            if let double = Double(text), double.isFinite { return NSNumber(value: double) }
            return nil
        default: return nil
        }
    }

    /// The value as a date, or nil when it cannot be represented as one.
    /// Strings are parsed as ISO 8601 dates: "2024-05-01T12:00:00Z", FFmpeg's
    /// "2024-05-01T12:00:00.000000Z", QuickTime's "2024-05-01T12:00:00+0200", and "2024-05-01".
    public var dateValue: Date? {
        switch snapshot.value {
        case let date as NSDate: return date as Date
        case let string as NSString: return AVMetadataDateParsing.date(from: string as String)
        default: return nil
        }
    }

    /// The value as data, or nil when the value is not binary data.
    public var dataValue: Data? {
        switch snapshot.value {
        case let data as NSData: return data as Data
        default: return nil
        }
    }

    /// The data type of the value, a `kCMMetadataBaseDataType_…` string such as
    /// "com.apple.metadata.datatype.UTF-8".
    public var dataType: String? { snapshot.dataType }

    /// Attributes beyond the value, such as an ID3 frame's description.
    public var extraAttributes: [AVMetadataExtraAttributeKey: Any]? { snapshot.extraAttributes }

    // MARK: Language

    /// The locale of the item's value, if it has one.
    public var locale: Locale? {
        let s = snapshot
        if let locale = s.locale { return locale }
        return s.extendedLanguageTag.map { Locale(identifier: $0) }
    }

    /// The IETF BCP 47 language tag of the item's value, such as "en" or "pt-BR".
    public var extendedLanguageTag: String? {
        let s = snapshot
        if let tag = s.extendedLanguageTag { return tag }
        return s.locale.map { $0.identifier.replacingOccurrences(of: "_", with: "-") }
    }

    // MARK: Timing

    /// The time of a timed item in the asset's timeline; invalid for items that apply to the whole asset.
    public var time: CMTime { snapshot.time }

    /// The duration of a timed item; invalid for items that apply to the whole asset.
    public var duration: CMTime { snapshot.duration }

    /// The date at which a timed item (an HLS date range, for example) starts, if it has one.
    public var startDate: Date? { snapshot.startDate }

    // MARK: Copying

    /// Returns an immutable copy of the item.
    public func copy(with zone: NSZone? = nil) -> Any {
        AVMetadataItem(state: snapshot)
    }

    /// Returns a mutable copy of the item.
    public func mutableCopy(with zone: NSZone? = nil) -> Any {
        AVMutableMetadataItem(state: snapshot)
    }

    // MARK: Description

    /// A summary of the item for logs: identifier, value, language and times.
    override public var description: String {
        let s = snapshot
        var parts = ["identifier=\(identifier?.rawValue ?? "nil")"]
        parts.append("keySpace=\(s.keySpace?.rawValue ?? "nil")")
        parts.append("key=\(AVMetadataItem.keyString(s.key) ?? "nil")")
        parts.append("commonKey=\(commonKey?.rawValue ?? "nil")")
        if let tag = extendedLanguageTag { parts.append("extendedLanguageTag=\(tag)") }
        if let dataType = s.dataType { parts.append("dataType=\(dataType)") }
        parts.append("value=\(s.value.map { String(describing: $0) } ?? "nil")")
        return "<AVMetadataItem: \(parts.joined(separator: ", "))>"
    }

    // MARK: Helpers

    /// The key as a Swift string, whether it is an `NSString` or a four-character code in an `NSNumber`.
    package static func keyString(_ key: Any?) -> String? {
        switch key {
        case let string as String: return string
        case let string as NSString: return string as String
        case let key as AVMetadataKey: return key.rawValue
        case let number as NSNumber:
            let code = number.uint32Value
            let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: code >> UInt32($0)) }
            return String(bytes.map { Character(Unicode.Scalar($0)) })
        default: return nil
        }
    }

    /// The base data type Apple uses for a value of this kind, or nil for unknown kinds.
    package static func dataType(of value: Any?) -> String? {
        switch value {
        case is NSString: return kCMMetadataBaseDataType_UTF8 as String
        case is NSData: return kCMMetadataBaseDataType_RawData as String
        default: return nil
        }
    }
}
