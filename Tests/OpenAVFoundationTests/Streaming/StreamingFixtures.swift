import Foundation
import TestSupport

/// Media for the streaming tests, made by ffmpeg and served by the tests' HTTP server.
enum StreamingFixtures {
    /// The served folder: progressive files and HLS folders, made once per test process.
    static let folder: URL = {
        let url = Fixtures.folder.appendingPathComponent("served")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// One server for the test process, serving `folder`.
    static let server = Result { try MediaHTTPServer(root: folder) }

    /// A 6 s 320x240 30 fps H.264 + AAC MP4 with its index at the end (so that reading it over
    /// HTTP takes byte ranges), as "progressive.mp4" in the served folder; with `indexFirst`,
    /// the index at the start instead ("faststart.mp4"), so that loading needs only the start.
    static func progressive(indexFirst: Bool = false) throws -> String {
        let name = indexFirst ? "faststart.mp4" : "progressive.mp4"
        let made = try Fixtures.make(name, [
            "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30:duration=6",
            "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=6",
            "-c:v", "libx264", "-g", "30", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest",
        ] + (indexFirst ? ["-movflags", "+faststart"] : []))
        return try serve(made, as: name)
    }

    /// The same 6 s movie in an MPEG transport stream, as "progressive.ts" in the served folder.
    static func transportStream() throws -> String {
        let made = try Fixtures.make("progressive.ts", [
            "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30:duration=6",
            "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=6",
            "-c:v", "libx264", "-g", "30", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest",
        ])
        return try serve(made, as: "progressive.ts")
    }

    /// An HTTP Live Stream of 6 s in two variants (320x240 at 600 kb/s and 160x120 at 150
    /// kb/s, each with its AAC audio), 2 s segments of `segmentType` ("mpegts" or "fmp4"):
    /// the master playlist's path in the served folder.
    static func hls(segmentType: String) throws -> String {
        Fixtures.lock.lock()
        defer { Fixtures.lock.unlock() }
        let name = "hls-\(segmentType)"
        let directory = folder.appendingPathComponent(name)
        let master = directory.appendingPathComponent("master.m3u8")
        if !FileManager.default.fileExists(atPath: master.path) {
            let partial = folder.appendingPathComponent("partial-\(name)")
            try? FileManager.default.removeItem(at: partial)
            try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
            _ = try Fixtures.run("ffmpeg", [
                "-nostdin", "-v", "error", "-y",
                "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30:duration=6",
                "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=6",
                "-filter_complex", "[0:v]split=2[big][small0];[small0]scale=160:120[small]",
                "-map", "[big]", "-map", "[small]", "-map", "1:a", "-map", "1:a",
                "-c:v", "libx264", "-g", "30", "-keyint_min", "30", "-sc_threshold", "0", "-pix_fmt", "yuv420p",
                "-b:v:0", "600k", "-b:v:1", "150k", "-c:a", "aac", "-b:a", "64k",
                "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod", "-hls_segment_type", segmentType,
                "-master_pl_name", "master.m3u8", "-var_stream_map", "v:0,a:0 v:1,a:1",
                "-hls_segment_filename", partial.appendingPathComponent("v%v_%03d.\(segmentType == "fmp4" ? "m4s" : "ts")").path,
                partial.appendingPathComponent("v%v.m3u8").path,
            ])
            try FileManager.default.moveItem(at: partial, to: directory)
        }
        return "\(name)/master.m3u8"
    }

    /// An HTTP Live Stream of 6 s with one video variant and two audio renditions in one
    /// `EXT-X-MEDIA` group: "English" (a 500 Hz tone, the default) and "Français" (1500 Hz),
    /// 2 s MPEG-TS segments: the master playlist's path in the served folder. Each rendition's
    /// segments are named after it ("English_…", "French_…").
    static func hlsRenditions() throws -> String {
        Fixtures.lock.lock()
        defer { Fixtures.lock.unlock() }
        let name = "hls-renditions"
        let directory = folder.appendingPathComponent(name)
        let master = directory.appendingPathComponent("master.m3u8")
        if !FileManager.default.fileExists(atPath: master.path) {
            let partial = folder.appendingPathComponent("partial-\(name)")
            try? FileManager.default.removeItem(at: partial)
            try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
            _ = try Fixtures.run("ffmpeg", [
                "-nostdin", "-v", "error", "-y",
                "-f", "lavfi", "-i", "testsrc=size=160x120:rate=30:duration=6",
                "-f", "lavfi", "-i", "sine=frequency=500:sample_rate=48000:duration=6",
                "-f", "lavfi", "-i", "sine=frequency=1500:sample_rate=48000:duration=6",
                "-map", "0:v", "-map", "1:a", "-map", "2:a",
                "-c:v", "libx264", "-g", "30", "-keyint_min", "30", "-sc_threshold", "0", "-pix_fmt", "yuv420p",
                "-c:a", "aac", "-b:a", "64k",
                "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod", "-master_pl_name", "master.m3u8",
                "-var_stream_map", "v:0,agroup:sound a:0,agroup:sound,language:eng,name:English,default:yes a:1,agroup:sound,language:fra,name:French",
                "-hls_segment_filename", partial.appendingPathComponent("%v_%03d.ts").path,
                partial.appendingPathComponent("%v.m3u8").path,
            ])
            // ffmpeg names the renditions "audio_1" and "audio_2"; a real playlist names them for people.
            let playlist = partial.appendingPathComponent("master.m3u8")
            let text = try String(contentsOf: playlist, encoding: .utf8)
                .replacingOccurrences(of: "NAME=\"audio_1\"", with: "NAME=\"English\"")
                .replacingOccurrences(of: "NAME=\"audio_2\"", with: "NAME=\"Français\"")
            try text.write(to: playlist, atomically: true, encoding: .utf8)
            try FileManager.default.moveItem(at: partial, to: directory)
        }
        return "\(name)/master.m3u8"
    }

    /// Puts `file` in the served folder as `name` (once); its path there.
    private static func serve(_ file: URL, as name: String) throws -> String {
        let served = folder.appendingPathComponent(name)
        Fixtures.lock.lock()
        defer { Fixtures.lock.unlock() }
        if !FileManager.default.fileExists(atPath: served.path) {
            try FileManager.default.copyItem(at: file, to: served)
        }
        return name
    }

    /// `ffprobe -show_format -show_streams` of a URL, parsed.
    static func probe(_ url: URL) throws -> [String: Any] {
        let data = try Fixtures.run("ffprobe", ["-v", "error", "-show_format", "-show_streams", "-of", "json", url.absoluteString])
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}
