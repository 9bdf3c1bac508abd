import Foundation

/// Removes metadata items an exported file should not carry, such as where it was recorded.
open class AVMetadataItemFilter: NSObject, @unchecked Sendable {
    /// The common keys that are kept: what the media is, who made and sells it, and its dates.
    private let keptKeys: Set<AVMetadataKey>

    private init(keptKeys: Set<AVMetadataKey>) {
        self.keptKeys = keptKeys
        super.init()
    }

    /// A filter for sharing: it removes user-identifying items (the location, and the make,
    /// model and software of the recording device) and items without a common key, and keeps
    /// what concerns playback and commerce (title, authors, copyright, artwork, dates…).
    open class func forSharing() -> AVMetadataItemFilter {
        AVMetadataItemFilter(keptKeys: [
            .commonKeyTitle, .commonKeyCreator, .commonKeySubject, .commonKeyDescription, .commonKeyPublisher,
            .commonKeyContributor, .commonKeyCreationDate, .commonKeyLastModifiedDate, .commonKeyType, .commonKeyFormat,
            .commonKeyIdentifier, .commonKeySource, .commonKeyLanguage, .commonKeyRelation, .commonKeyCopyrights,
            .commonKeyAlbumName, .commonKeyAuthor, .commonKeyArtist, .commonKeyArtwork, .commonKeyAccessibilityDescription,
        ])
    }

    /// Whether the filter keeps `item`.
    func keeps(_ item: AVMetadataItem) -> Bool {
        item.commonKey.map(keptKeys.contains) ?? false
    }
}

extension AVMetadataItem {
    /// The items `metadataItemFilter` keeps, in their order.
    public class func metadataItems(from metadataItems: [AVMetadataItem], filteredBy metadataItemFilter: AVMetadataItemFilter)
        -> [AVMetadataItem] {
        metadataItems.filter(metadataItemFilter.keeps)
    }
}
