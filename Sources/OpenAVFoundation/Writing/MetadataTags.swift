import Foundation

/// Metadata items as the tags FFmpeg's MOV/MP4 muxer writes ("title", "artist", "date", …, or
/// QuickTime metadata keys).
enum MetadataTags {
    /// The FFmpeg tag for each common key: the inverse of the reader's mapping of FFmpeg's
    /// generic tags (`FFmpegTagFamily.common`), so what is written reads back as the same item.
    /// `creation_time` is left out: FFmpeg turns it into the movie header's time, not a tag;
    /// the creation date is written as the `date` tag.
    static let keys: [AVMetadataKey: String] = Dictionary(
        FFmpegTagFamily.common.filter { $0.key != "creation_time" }.map { ($0.value, $0.key) },
        uniquingKeysWith: { first, _ in first })

    /// Whether the items are written as QuickTime metadata (`mdta` keys, FFmpeg's
    /// `use_metadata_tags`): when one of them is in that key space, as Apple writes such items,
    /// so that they read back with the same identifier.
    static func usesQuickTimeMetadata(_ items: [AVMetadataItem]) -> Bool {
        items.contains { $0.keySpace == .quickTimeMetadata }
    }

    /// The QuickTime metadata key for each common key (the reader's mapping turned round).
    private static let quickTimeMetadataKeys: [AVMetadataKey: String] = Dictionary(
        [AVMetadataKey.quickTimeMetadataKeyTitle, .quickTimeMetadataKeyArtist, .quickTimeMetadataKeyAuthor,
         .quickTimeMetadataKeyAlbum, .quickTimeMetadataKeyCreationDate, .quickTimeMetadataKeyDescription,
         .quickTimeMetadataKeyCopyright, .quickTimeMetadataKeyLocationISO6709, .quickTimeMetadataKeyMake,
         .quickTimeMetadataKeyModel, .quickTimeMetadataKeySoftware, .quickTimeMetadataKeyPublisher]
            .compactMap { key in
                AVMetadataCommonKeyMapping.commonKey(forKey: key.rawValue, keySpace: .quickTimeMetadata).map { ($0, key.rawValue) }
            },
        uniquingKeysWith: { first, _ in first })

    /// The pictures of the artwork items (`.commonKeyArtwork` in any key space), as stored.
    static func attachedPictures(of items: [AVMetadataItem]) -> [Data] {
        items.filter { $0.commonKey == .commonKeyArtwork }.compactMap(\.dataValue)
    }

    /// The items FFmpeg can write, as (key, value) tags, in order: as QuickTime metadata keys
    /// when `usesQuickTimeMetadata(items)` (an item of that key space under its own key, a
    /// common one under its QuickTime metadata key), otherwise the items with a common key as
    /// FFmpeg's tags.
    static func ffmpegTags(of items: [AVMetadataItem]) -> [(key: String, value: String)] {
        let asMetadataKeys = usesQuickTimeMetadata(items)
        return items.compactMap { item in
            let key: String?
            if asMetadataKeys {
                key = item.keySpace == .quickTimeMetadata ? (item.key as? String) ?? (item.key as? AVMetadataKey)?.rawValue
                    : item.commonKey.flatMap { quickTimeMetadataKeys[$0] }
            } else {
                key = item.commonKey.flatMap { keys[$0] }
            }
            guard let key else { return nil }
            if let date = item.dateValue, item.commonKey == .commonKeyCreationDate {
                return (key, ISO8601DateFormatter().string(from: date))
            }
            guard let value = item.stringValue else { return nil }
            return (key, value)
        }
    }
}
