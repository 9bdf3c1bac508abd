import Foundation

extension Inputs {
    /// Workload 6: the virtual camera (1920x1080 30 fps) and microphone into
    /// `AVCaptureMovieFileOutput` against ffmpeg and GStreamer recording the same picture live
    /// (the camera's own frames, looped from a raw file at 30 fps) at the same size, rate and
    /// x264 settings, so that the encoders do the same work. The settings are those of our movie
    /// output's connections (`outputSettings(for:)`), read from a worker first.
    func captureWorkload(bench: String) throws -> Workload {
        let settings = try Self.captureSettings(bench: bench)
        func setting(_ key: String) throws -> String {
            guard let value = settings[key], !value.isEmpty else { throw Workers.Failure("capture-settings gave no \(key)") }
            return value
        }
        let seconds = scale.captureSeconds
        let bitRate = try setting("bitrate"), keyFrameSeconds = try setting("keyframe-seconds"), profile = try setting("profile")
        let audioRate = try setting("audio-rate"), channels = try setting("audio-channels"), audioBitRate = try setting("audio-bitrate")
        let gop = String(Int((30 * (Double(keyFrameSeconds) ?? 1)).rounded()))
        let out = scratch.path
        // One second of the camera's frames (NV12), which the peers loop: an input, made once.
        let pattern = cache.appendingPathComponent("capture-pattern-1920x1080.nv12").path
        if !FileManager.default.fileExists(atPath: pattern) {
            _ = try ChildProcess.capture([bench, "--worker", "pattern-frames", "30", pattern])
        }

        var sides = [
            Side(name: "ours", commands: [[bench, "--worker", "capture", "\(seconds)", out + "/ours.mov"]],
                 measure: { log in Self.parseMetrics(log).merging(Self.probeFile(out + "/ours.mov")) { $1 } }),
            Side(name: "ffmpeg", commands: [[
                "ffmpeg", "-v", "error", "-nostdin", "-y", "-progress", "pipe:1",
                "-re", "-stream_loop", "-1", "-f", "rawvideo", "-pixel_format", "nv12", "-video_size", "1920x1080",
                "-framerate", "30", "-i", pattern,
                "-re", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=\(audioRate)",
                "-t", "\(seconds)",
                "-c:v", "libx264", "-preset", "veryfast", "-b:v", bitRate, "-g", gop, "-profile:v", "high",
                "-c:a", "aac", "-b:a", audioBitRate, "-ac", channels, "-f", "mov", out + "/ffmpeg.mov",
            ]], measure: { log in Self.parseProgress(log).merging(Self.probeFile(out + "/ffmpeg.mov")) { $1 } }),
        ]
        let gstreamer = ChildProcess.which("gst-launch-1.0")
        let samplesPerBuffer = (Int(audioRate) ?? 48000) / 100
        let gstPipeline = [
            "multifilesrc", "location=\(pattern)", "loop=true", "!",
            "rawvideoparse", "format=nv12", "width=1920", "height=1080", "framerate=30/1", "!",
            "identity", "eos-after=\(30 * seconds)", "!", "clocksync", "!",
            "x264enc", "speed-preset=veryfast", "bitrate=\((Int(bitRate) ?? 0) / 1000)", "key-int-max=\(gop)", "!",
            "video/x-h264,profile=high", "!", "h264parse", "!", "qtmux", "name=mux", "!", "filesink", "location=\(out)/gst.mov",
            "audiotestsrc", "is-live=true", "freq=440", "samplesperbuffer=\(samplesPerBuffer)", "num-buffers=\(100 * seconds)", "!",
            "audio/x-raw,rate=\(audioRate),channels=\(channels)", "!", "audioconvert", "!",
            "avenc_aac", "bitrate=\(audioBitRate)", "!", "aacparse", "!", "mux.",
        ]
        if let gstreamer {
            sides.append(Side(name: "gstreamer", commands: [[gstreamer, "-q", "-e"] + gstPipeline],
                              measure: { _ in Self.probeFile(out + "/gst.mov") }))
        }
        let video = "H.264 1920x1080 30 fps, x264 preset veryfast, average bit rate \(bitRate) b/s (ABR), "
            + "a key frame every \(gop) frames, profile \(profile)"
        let audio = "AAC \(audioRate) Hz, \(channels) channel(s), \(audioBitRate) b/s"
        return Workload(
            name: "capture", title: "record \(seconds) s of live 1080p30 video + audio",
            sides: sides,
            targets: [:],
            settings: [
                "both: \(video); \(audio) (our movie output's outputSettings(for:) of its video and audio connections)",
                "ours: AVCaptureSession, Test Pattern Camera 1920x1080 '420v' 30 fps (activeFormat, activeVideoMinFrameDuration) "
                    + "+ Test Tone Microphone → AVCaptureMovieFileOutput (.mov, maxRecordedDuration \(seconds) s) "
                    + "+ AVCaptureVideoDataOutput whose delegate takes host clock now − the frame's presentation time",
                "ffmpeg: ffmpeg -re -stream_loop -1 -f rawvideo -pixel_format nv12 -video_size 1920x1080 -framerate 30 -i capture-pattern-1920x1080.nv12 "
                    + "-re -f lavfi -i sine=… -t \(seconds) "
                    + "-c:v libx264 -preset veryfast -b:v \(bitRate) -g \(gop) -profile:v high -c:a aac -b:a \(audioBitRate) out.mov; "
                    + "drop/dup from its -progress output",
                gstreamer == nil
                    ? "gstreamer: skipped: gst-launch-1.0 not installed (scripts/bench-setup installs it)"
                    : "gstreamer: gst-launch-1.0 -e " + gstPipeline.joined(separator: " ")
                        + " (x264enc's rate control is ABR with its 600 ms VBV buffer)",
                "frames in file, video bit rate and recorded seconds: ffprobe of each side's file; CPU per recorded second = CPU s / file duration",
                "the same picture on every side: capture-pattern-1920x1080.nv12 (in the input cache) is one second (30 frames) of the Test Pattern Camera in this format, "
                    + "as the camera delivers it (openav-bench --worker pattern-frames), which ffmpeg and GStreamer loop in real time; "
                    + "every side hands x264 NV12 as it comes (no conversion), so the video kbit/s column should agree and the CPU columns compare the pipelines",
            ],
            measurements: Measurements(
                columns: [
                    .init(key: "file-seconds", title: "recorded s"),
                    .init(key: "cpu-per-second", title: "CPU s per recorded s"),
                    .init(key: "file-frames", title: "frames in file"),
                    .init(key: "video-kbps", title: "video kbit/s"),
                    .init(key: "movie-dropped", title: "dropped (movie)", largest: true),
                    .init(key: "data-output-dropped", title: "dropped (data output)", largest: true),
                    .init(key: "drop", title: "ffmpeg drop", largest: true),
                    .init(key: "dup", title: "ffmpeg dup", largest: true),
                    .init(key: "latency-p50-ms", title: "latency p50 ms"),
                    .init(key: "latency-p99-ms", title: "latency p99 ms"),
                ],
                target: "0 drops, p99 < 5 ms",
                met: { ours, _ in
                    (ours["movie-dropped"] ?? .infinity) == 0 && (ours["data-output-dropped"] ?? .infinity) == 0
                        && (ours["latency-p99-ms"] ?? .infinity) < 5
                }),
            runsInRealTime: true)
    }

    /// The movie output's settings, from `openav-bench --worker capture-settings`.
    static func captureSettings(bench: String) throws -> [String: String] {
        let text = try ChildProcess.capture([bench, "--worker", "capture-settings"])
        var settings: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { settings[parts[0]] = parts[1] }
        }
        return settings
    }

    /// The `key=value` pairs of a worker's `metrics:` line.
    static func parseMetrics(_ log: String) -> [String: Double] {
        guard let line = log.split(separator: "\n").last(where: { $0.hasPrefix("metrics:") }) else { return [:] }
        var metrics: [String: Double] = [:]
        for pair in line.dropFirst("metrics:".count).split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Double(parts[1]) { metrics[String(parts[0])] = value }
        }
        return metrics
    }

    /// The last `drop_frames` and `dup_frames` of ffmpeg's `-progress` output.
    static func parseProgress(_ log: String) -> [String: Double] {
        var metrics: [String: Double] = [:]
        for line in log.split(separator: "\n") {
            if line.hasPrefix("drop_frames="), let value = Double(line.dropFirst("drop_frames=".count)) { metrics["drop"] = value }
            if line.hasPrefix("dup_frames="), let value = Double(line.dropFirst("dup_frames=".count)) { metrics["dup"] = value }
        }
        return metrics
    }

    /// The video frames, the video bit rate and the duration of a recorded file, by ffprobe.
    static func probeFile(_ path: String) -> [String: Double] {
        let text = (try? ChildProcess.capture([
            "ffprobe", "-v", "error", "-select_streams", "v:0", "-count_packets",
            "-show_entries", "stream=nb_read_packets,bit_rate:format=duration", "-of", "default=nw=1", path,
        ])) ?? ""
        var metrics: [String: Double] = [:]
        for line in text.split(separator: "\n") {
            if line.hasPrefix("nb_read_packets="), let value = Double(line.dropFirst("nb_read_packets=".count)) { metrics["file-frames"] = value }
            if line.hasPrefix("duration="), let value = Double(line.dropFirst("duration=".count)) { metrics["file-seconds"] = value }
            if line.hasPrefix("bit_rate="), let value = Double(line.dropFirst("bit_rate=".count)) { metrics["video-kbps"] = value / 1000 }
        }
        return metrics
    }
}
