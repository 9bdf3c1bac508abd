// AVMutableMetadataItem: a metadata item whose properties can be set, for writing metadata.
import Foundation

/// A mutable metadata item, which you create and fill to write metadata with a writer or export session.
/// Matches Apple: a subclass of `AVMetadataItem`; setting `identifier` sets `key` and `keySpace`, and
/// setting either of those changes `identifier`. Safe to use from several threads.
public final class AVMutableMetadataItem: AVMetadataItem, @unchecked Sendable {
    /// Creates a mutable item from its parts.
    override package init(state: AVMetadataItem.State) {
        super.init(state: state)
    }

    /// The identifier of the item; setting it sets `keySpace` and `key` from it.
    override public var identifier: AVMetadataIdentifier? {
        get { super.identifier }
        set {
            let keySpace = newValue.flatMap { AVMetadataItem.keySpace(forIdentifier: $0) }
            let key = newValue.flatMap { AVMetadataItem.key(forIdentifier: $0) as? NSString }
            mutate {
                $0.keySpace = keySpace
                $0.key = key
            }
        }
    }

    /// The key space of the item's key.
    override public var keySpace: AVMetadataKeySpace? {
        get { super.keySpace }
        set { mutate { $0.keySpace = newValue } }
    }

    /// The item's key, usually an `NSString`; the object is copied.
    override public var key: (any NSCopying & NSObjectProtocol)? {
        get { super.key }
        set { mutate { $0.key = AVMutableMetadataItem.copied(newValue) } }
    }

    /// The item's value; the object is copied. Setting a string or data also sets a missing `dataType`.
    override public var value: (any NSCopying & NSObjectProtocol)? {
        get { super.value }
        set {
            let value = AVMutableMetadataItem.copied(newValue)
            mutate {
                $0.value = value
                if $0.dataType == nil { $0.dataType = AVMetadataItem.dataType(of: value) }
            }
        }
    }

    /// The data type of the value, a `kCMMetadataBaseDataType_…` string.
    override public var dataType: String? {
        get { super.dataType }
        set { mutate { $0.dataType = newValue } }
    }

    /// Attributes beyond the value.
    override public var extraAttributes: [AVMetadataExtraAttributeKey: Any]? {
        get { super.extraAttributes }
        set { mutate { $0.extraAttributes = newValue } }
    }

    /// The locale of the item's value.
    override public var locale: Locale? {
        get { super.locale }
        set { mutate { $0.locale = newValue } }
    }

    /// The IETF BCP 47 language tag of the item's value.
    override public var extendedLanguageTag: String? {
        get { super.extendedLanguageTag }
        set { mutate { $0.extendedLanguageTag = newValue } }
    }

    /// The time of a timed item in the asset's timeline.
    override public var time: CMTime {
        get { super.time }
        set { mutate { $0.time = newValue } }
    }

    /// The duration of a timed item.
    override public var duration: CMTime {
        get { super.duration }
        set { mutate { $0.duration = newValue } }
    }

    /// The date at which a timed item starts.
    override public var startDate: Date? {
        get { super.startDate }
        set { mutate { $0.startDate = newValue } }
    }

    private static func copied(_ object: (any NSCopying & NSObjectProtocol)?) -> (any NSCopying & NSObjectProtocol)? {
        guard let object else { return nil }
        return (object.copy(with: nil) as? any NSCopying & NSObjectProtocol) ?? object
    }
}
