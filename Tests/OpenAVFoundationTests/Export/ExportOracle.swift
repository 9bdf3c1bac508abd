import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// What ffprobe and ffmpeg say of exported files: streams, frame times, decoded pictures.
enum ExportOracle {
    /// A new path in the fixture folder.
    static func outputURL(_ name: String) -> URL {
        Fixtures.folder.appendingPathComponent("\(UUID().uuidString)-\(name)")
    }

    /// ffprobe's streams of a file.
    static func streams(_ url: URL) throws -> [[String: Any]] {
        try #require(try Fixtures.probe(url)["streams"] as? [[String: Any]])
    }

    /// ffprobe's start time of a file's container, in seconds (not zero for MPEG-TS).
    static func startTime(_ url: URL) throws -> Double {
        let format = try #require(try Fixtures.probe(url)["format"] as? [String: Any])
        return Double(format["start_time"] as? String ?? "") ?? 0
    }

    /// ffprobe's duration of a file's container, in seconds.
    static func duration(_ url: URL) throws -> Double {
        let format = try #require(try Fixtures.probe(url)["format"] as? [String: Any])
        return try #require(Double(format["duration"] as? String ?? ""))
    }

    /// The presentation times, in seconds, of the frames ffmpeg decodes from the first video
    /// stream (edit lists applied, as a player shows them).
    static func frameTimes(_ url: URL) throws -> [Double] {
        let data = try Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                "frame=best_effort_timestamp_time", "-of", "csv=p=0", url.path])
        // A frame's line may carry side data after a comma (the display matrix).
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .compactMap { $0.split(separator: ",").first.flatMap { Double($0) } }
    }

    /// The frames ffmpeg decodes from the first video stream, as 8-bit 4:2:0 pictures of
    /// `width`x`height` (scaled with bicubic filtering when the stream has another size;
    /// `filters` go first). `start`: seek there exactly first.
    static func frames(_ url: URL, width: Int, height: Int, start: Double? = nil, count: Int? = nil,
                       filters: String? = nil) throws -> [[UInt8]] {
        var arguments = ["-nostdin", "-v", "error"]
        if let start { arguments += ["-ss", String(start)] }
        arguments += ["-noautorotate", "-i", url.path, "-map", "0:v:0"]
        if let count { arguments += ["-frames:v", String(count)] }
        let scale = "scale=\(width):\(height):flags=bicubic"
        arguments += ["-vf", filters.map { "\($0),\(scale)" } ?? scale, "-pix_fmt", "yuv420p", "-fps_mode", "passthrough", "-f", "rawvideo", "-"]
        let data = [UInt8](try Fixtures.run("ffmpeg", arguments))
        let size = width * height * 3 / 2
        return stride(from: 0, to: data.count - size + 1, by: size).map { Array(data[$0..<$0 + size]) }
    }

    /// The lowest PSNR over pairs of pictures.
    static func worstPSNR(_ a: [[UInt8]], _ b: [[UInt8]]) -> Double {
        zip(a, b).map { PixelComparison.psnr($0, $1) }.min() ?? 0
    }

    /// Per-packet MD5s of a file's stream (as stored), from ffmpeg's framemd5 muxer.
    static func packetHashes(_ url: URL, stream: String) throws -> [String] {
        let data = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-map", "0:\(stream)", "-c", "copy",
                                               "-f", "framemd5", "-"])
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .filter { !$0.hasPrefix("#") }.compactMap { line in
                // stream, dts, pts, duration, size, hash, then side data (skip samples…).
                let fields = line.split(separator: ",")
                return fields.count > 5 ? fields[5].trimmingCharacters(in: .whitespaces) : nil
            }
    }

    /// Exports `source` with `preset` to a new file of `fileType`; the session afterwards.
    static func export(_ source: URL, preset: String, fileType: AVFileType, name: String,
                       configure: (AVAssetExportSession) -> Void = { _ in }) async throws -> (AVAssetExportSession, URL) {
        let session = try #require(AVAssetExportSession(asset: AVURLAsset(url: source), presetName: preset))
        let url = outputURL(name)
        session.outputURL = url
        session.outputFileType = fileType
        configure(session)
        await session.export()
        return (session, url)
    }
}
