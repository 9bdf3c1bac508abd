import Foundation

/// Metadata items as the tags FFmpeg's MOV/MP4 muxer writes ("title", "artist", "date", …).
enum MetadataTags {
    /// The FFmpeg tag for each common key: the inverse of the reader's mapping of FFmpeg's
    /// generic tags (`FFmpegTagFamily.common`), so what is written reads back as the same item.
    /// `creation_time` is left out: FFmpeg turns it into the movie header's time, not a tag;
    /// the creation date is written as the `date` tag.
    static let keys: [AVMetadataKey: String] = Dictionary(
        FFmpegTagFamily.common.filter { $0.key != "creation_time" }.map { ($0.value, $0.key) },
        uniquingKeysWith: { first, _ in first })

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
