// The class functions that filter arrays of metadata items.
import Foundation

extension AVMetadataItem {
    /// Returns the items whose identifier equals `identifier`, in their original order.
    public class func metadataItems(
        from metadataItems: [AVMetadataItem], filteredByIdentifier identifier: AVMetadataIdentifier
    ) -> [AVMetadataItem] {
        metadataItems.filter { $0.identifier == identifier }
    }

    /// Returns the items with a key and key space; a nil key or key space matches any.
    public class func metadataItems(
        from metadataItems: [AVMetadataItem], withKey key: Any?, keySpace: AVMetadataKeySpace?
    ) -> [AVMetadataItem] {
        let wanted = key.flatMap { keyString($0) }
        if key != nil && wanted == nil { return [] }
        return metadataItems.filter { item in
            if let keySpace, item.keySpace != keySpace { return false }
            if let wanted, keyString(item.key) != wanted { return false }
            return true
        }
    }

    /// Returns the items whose locale is `locale`.
    public class func metadataItems(from metadataItems: [AVMetadataItem], with locale: Locale) -> [AVMetadataItem] {
        let wanted = normalizedTag(locale.identifier)
        return metadataItems.filter { item in
            guard let tag = item.extendedLanguageTag else { return false }
            return normalizedTag(tag) == wanted
        }
    }

    /// Returns the items whose language matches one of `preferredLanguages`, sorted by that preference.
    /// A preferred language matches an item's tag exactly or as a prefix ("en" matches "en-US");
    /// items without a language are left out.
    public class func metadataItems(
        from metadataItems: [AVMetadataItem], filteredAndSortedAccordingToPreferredLanguages preferredLanguages: [String]
    ) -> [AVMetadataItem] {
        var result: [AVMetadataItem] = []
        var taken = Set<ObjectIdentifier>()
        for preferred in preferredLanguages.map(normalizedTag) {
            for item in metadataItems where !taken.contains(ObjectIdentifier(item)) {
                guard let tag = item.extendedLanguageTag.map(normalizedTag) else { continue }
                if tag == preferred || tag.hasPrefix(preferred + "-") || preferred.hasPrefix(tag + "-") {
                    result.append(item)
                    taken.insert(ObjectIdentifier(item))
                }
            }
        }
        return result
    }

    /// A language tag in one spelling: lowercased, with "-" between subtags.
    private static func normalizedTag(_ tag: String) -> String {
        tag.replacingOccurrences(of: "_", with: "-").lowercased()
    }
}
