import Foundation
import Testing

/// Files with chapters made by ffmpeg from an FFMETADATA list (QuickTime chapter track and Nero
/// `chpl` in MP4, native chapters in Matroska), and ffprobe's view of their chapters.
public enum ChapteredClip {
    /// The chapters written: title, start and end in seconds.
    public static let chapters: [(title: String, start: Double, end: Double)] = [("Intro", 0, 0.6), ("Verse", 0.6, 1.3), ("Coda", 1.3, 2)]

    /// A 2 s video with the chapters, in a container of `fileExtension` ("mp4", "mov", "mkv").
    public static func make(_ fileExtension: String) throws -> URL {
        let list = Fixtures.folder.appendingPathComponent("chapters.ffmetadata")
        try Fixtures.lock.withLock {
            let text = ";FFMETADATA1\n" + chapters.map { "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(Int($0.start * 1000))\nEND=\(Int($0.end * 1000))\ntitle=\($0.title)\n" }.joined()
            try text.write(to: list, atomically: true, encoding: .utf8)
        }
        return try Fixtures.make("chaptered.\(fileExtension)", ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-i", list.path,
                                                                "-map_metadata", "1", "-map_chapters", "1", "-t", "2", "-c:v", "libx264"])
    }

    /// ffprobe's chapters of a file: title, start and end in seconds.
    public static func probe(_ url: URL) throws -> [(title: String, start: Double, end: Double)] {
        let data = try Fixtures.run("ffprobe", ["-v", "error", "-show_chapters", "-of", "json", url.path])
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (json["chapters"] as? [[String: Any]] ?? []).map { chapter in
            ((chapter["tags"] as? [String: String])?["title"] ?? "", Double(chapter["start_time"] as? String ?? "") ?? -1,
             Double(chapter["end_time"] as? String ?? "") ?? -1)
        }
    }
}
