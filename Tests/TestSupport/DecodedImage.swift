import Foundation
import Testing

/// What ffprobe and ffmpeg see in an image file (such as a captured JPEG): its codec, size and
/// EXIF tags, and its luma as ffmpeg decodes it.
public struct DecodedImage {
    /// ffprobe's codec name, such as "mjpeg".
    public let codec: String?
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The frame's tags (EXIF for a JPEG), values without padding.
    public let tags: [String: String]
    /// The decoded picture as 8-bit gray, `width` bytes a row.
    public let luma: Data

    /// Probes and decodes the image file at `url`.
    public init(_ url: URL) throws {
        let probe = try Fixtures.run("ffprobe", ["-v", "error", "-show_streams", "-show_frames", "-of", "json", url.path])
        let json = try #require(try JSONSerialization.jsonObject(with: probe) as? [String: Any])
        let stream = try #require((json["streams"] as? [[String: Any]])?.first)
        codec = stream["codec_name"] as? String
        width = try #require(stream["width"] as? Int)
        height = try #require(stream["height"] as? Int)
        let frame = (json["frames"] as? [[String: Any]])?.first
        tags = (frame?["tags"] as? [String: String] ?? [:]).mapValues { $0.trimmingCharacters(in: .whitespaces) }
        luma = try Fixtures.run("ffmpeg", ["-v", "error", "-i", url.path, "-f", "rawvideo", "-pix_fmt", "gray", "-"])
    }

    /// Probes and decodes an image file's bytes (written to a fixture file first).
    public init(_ data: Data) throws {
        let url = Fixtures.folder.appendingPathComponent("image-\(UUID().uuidString)")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        try self.init(url)
    }
}
