import Foundation

/// The sizes of the inputs: the for a real run, smaller ones for `--quick`.
struct Scale {
    let quick: Bool
    /// Seconds of the 1080p clip the decode workload reads.
    var decodeSeconds: Int { quick ? 5 : 30 }
    /// Raw 1080p frames the encode workload encodes.
    var encodeFrames: Int { quick ? 90 : 600 }
    /// Seconds of the 720p clip the thumbnail and remux workloads read.
    var longSeconds: Int { quick ? 60 : 600 }
    /// Thumbnails taken.
    var thumbnailCount: Int { 20 }
    /// Files the probe workload opens.
    var probeFiles: Int { quick ? 10 : 50 }
    /// Seconds of the 1080p clip the export workloads read.
    var exportSeconds: Int { quick ? 10 : 60 }
    /// Seconds each side of the capture workload records (real time).
    var captureSeconds: Int { quick ? 5 : 20 }
    /// Seconds of the 1080p clip the playback workloads play (real time) and seek in.
    var playSeconds: Int { quick ? 5 : 20 }
    /// Seconds of the sound files the audio workloads decode and convert.
    var audioSeconds: Int { quick ? 60 : 600 }
}

/// The x264 settings of every H.264 stream in the benchmark: the clips generated here, and
/// both sides of the encode workload. `AVAssetWriter` with only codec, width and height (plus
/// `AVVideoExpectedSourceFrameRateKey` 30) uses exactly these (see `EncoderSettings`): preset
/// veryfast, constant quality CRF 23 (x264's default; no bit rate), a key frame at least every
/// 2 s (60 frames at 30 fps), B-frames as the preset chooses, 4:2:0 8-bit, threads auto.
enum X264 {
    static let preset = "veryfast"
    static let crf = "23"
    static let gop = "60"
    static var ffmpegArguments: [String] {
        ["-c:v", "libx264", "-preset", preset, "-crf", crf, "-g", gop, "-pix_fmt", "yuv420p"]
    }
    static var summary: String { "libx264 -preset \(preset) -crf \(crf) -g \(gop) -pix_fmt yuv420p, threads auto" }
}

/// Inputs made once by ffmpeg in the cache directory and reused by later runs.
struct Inputs {
    let cache: URL
    let scale: Scale

    var decodeClip: URL { cache.appendingPathComponent("decode-1080p30-\(scale.decodeSeconds)s.mp4") }
    var rawFrames: URL { cache.appendingPathComponent("frames-1920x1080-bgra-\(scale.encodeFrames).raw") }
    var longClip: URL { cache.appendingPathComponent("long-720p30-aac-\(scale.longSeconds)s.mp4") }
    var exportClip: URL { cache.appendingPathComponent("export-1080p30-aac-\(scale.exportSeconds)s.mp4") }
    /// The two clips crossfaded, half the export length each.
    var crossfadeClips: [URL] {
        ["a", "b"].map { cache.appendingPathComponent("crossfade-\($0)-1080p30-aac-\(scale.exportSeconds / 2)s.mp4") }
    }
    var probeDirectory: URL { cache.appendingPathComponent("probe-\(scale.probeFiles)") }
    /// Where workloads write their outputs (emptied before each run).
    var scratch: URL { cache.appendingPathComponent("scratch") }
    var logs: URL { cache.appendingPathComponent("logs") }

    static let probeExtensions = ["mp4", "mov", "mkv", "m4a", "mp3"]

    var probeFiles: [URL] {
        (0..<scale.probeFiles).map { index in
            probeDirectory.appendingPathComponent(String(format: "probe-%02d.", index) + Self.probeExtensions[index % Self.probeExtensions.count])
        }
    }

    /// Makes whatever is missing; prints what it makes.
    func prepare(needing names: Set<String>) throws {
        let manager = FileManager.default
        try manager.createDirectory(at: cache, withIntermediateDirectories: true)
        try manager.createDirectory(at: scratch, withIntermediateDirectories: true)
        try manager.createDirectory(at: logs, withIntermediateDirectories: true)
        let video = ["-f", "lavfi", "-i"]
        if names.contains("decode") {
            try make(decodeClip, video + ["testsrc2=size=1920x1080:rate=30", "-t", "\(scale.decodeSeconds)"] + X264.ffmpegArguments)
        }
        if names.contains("encode") {
            try make(rawFrames, video + ["testsrc2=size=1920x1080:rate=30", "-frames:v", "\(scale.encodeFrames)",
                                         "-pix_fmt", "bgra", "-f", "rawvideo"])
        }
        if names.contains("thumbnails") || names.contains("remux") || names.contains("export-640") {
            try make(longClip, video + ["testsrc2=size=1280x720:rate=30", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                                        "-t", "\(scale.longSeconds)"] + X264.ffmpegArguments
                                        + ["-c:a", "aac", "-b:a", "128k", "-ac", "2"])
        }
        if names.contains("export") || names.contains("trim") {
            try make(exportClip, video + ["testsrc2=size=1920x1080:rate=30", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                                          "-t", "\(scale.exportSeconds)"] + X264.ffmpegArguments
                                          + ["-c:a", "aac", "-b:a", "128k", "-ac", "2"])
        }
        if names.contains("crossfade") {
            for (clip, (source, frequency)) in zip(crossfadeClips, [("testsrc2", 440), ("testsrc", 660)]) {
                try make(clip, video + ["\(source)=size=1920x1080:rate=30", "-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=48000",
                                        "-t", "\(scale.exportSeconds / 2)"] + X264.ffmpegArguments + ["-c:a", "aac", "-b:a", "128k", "-ac", "2"])
            }
        }
        if names.contains("play") || names.contains("seek") || names.contains("window") || names.contains("display-layer") {
            try make(playClip, video + ["testsrc2=size=1920x1080:rate=30", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                                        "-t", "\(scale.playSeconds)"] + X264.ffmpegArguments
                                        + ["-c:a", "aac", "-b:a", "128k", "-ac", "2"])
        }
        if names.contains("probe") {
            try manager.createDirectory(at: probeDirectory, withIntermediateDirectories: true)
            for (index, file) in probeFiles.enumerated() {
                let seconds = "\(1 + index % 3)"
                let audio = ["-f", "lavfi", "-i", "sine=frequency=\(200 + 10 * index):sample_rate=44100", "-t", seconds]
                let picture = ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", seconds]
                let arguments: [String]
                switch file.pathExtension {
                case "m4a": arguments = audio + ["-c:a", "aac"]
                case "mp3": arguments = audio + ["-c:a", "libmp3lame"]
                default: arguments = picture + audio + ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "aac"]
                }
                try make(file, arguments, quiet: true)
            }
        }
    }

    /// Runs ffmpeg into a temporary name and renames it, so an interrupted run leaves nothing.
    func make(_ file: URL, _ arguments: [String], quiet: Bool = false) throws {
        guard !FileManager.default.fileExists(atPath: file.path) else { return }
        if !quiet {
            print("  making \(file.lastPathComponent) …")
            fflush(nil)
        }
        let partial = file.deletingLastPathComponent().appendingPathComponent(".partial-" + file.lastPathComponent)
        try? FileManager.default.removeItem(at: partial)
        let format = file.pathExtension == "raw" ? [] : ["-f", Self.muxer(for: file.pathExtension)]
        let argv = ["ffmpeg", "-v", "error", "-nostdin", "-y"] + arguments + format + [partial.path]
        let cost = try ChildProcess.run(argv, log: logs.appendingPathComponent("make.log").path)
        try FileManager.default.moveItem(at: partial, to: file)
        if !quiet { print(String(format: "    done in %.1f s", cost.wall)) }
    }

    private static func muxer(for pathExtension: String) -> String {
        switch pathExtension {
        case "mkv": "matroska"
        case "m4a": "ipod"
        default: pathExtension
        }
    }
}
