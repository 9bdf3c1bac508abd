import Foundation

/// Metadata items as the tags FFmpeg's MOV/MP4 muxer writes ("title", "artist", "date", …).
enum MetadataTags {
    /// The FFmpeg key for each common key the muxer knows.
    static let keys: [AVMetadataKey: String] = [
        .commonKeyTitle: "title", .commonKeyArtist: "artist", .commonKeyAuthor: "author", .commonKeyAlbumName: "album",
        .commonKeyCreationDate: "date", .commonKeyDescription: "description", .commonKeyCopyrights: "copyright",
        .commonKeyLocation: "location", .commonKeySoftware: "encoder", .commonKeyCreator: "artist",
        .commonKeyPublisher: "publisher",
    ]

    /// The items with a common key FFmpeg can write, as (key, value) tags, in order.
    static func ffmpegTags(of items: [AVMetadataItem]) -> [(key: String, value: String)] {
        items.compactMap { item in
            guard let common = item.commonKey, let key = keys[common] else { return nil }
            if let date = item.dateValue, common == .commonKeyCreationDate {
                return (key, ISO8601DateFormatter().string(from: date))
            }
            guard let value = item.stringValue else { return nil }
            return (key, value)
        }
    }
}
