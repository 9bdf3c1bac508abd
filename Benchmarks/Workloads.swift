import Foundation

/// One way of doing a workload: a list of commands run one after the other (their costs add
/// up), preceded by clearing the scratch directory.
struct Side {
    /// "ours", "ffmpeg", "ffmpeg ×20", …
    let name: String
    /// The commands, each an argv.
    let commands: [[String]]
    /// Reads what a run measured besides its cost (frames, drops, latency) from the run's log
    /// and outputs, after the run; nil when the workload measures only cost.
    var measure: ((_ log: String) -> [String: Double])? = nil
    /// Whether this is OpenAVFoundation (the numerator of the ratios).
    var isOurs: Bool { name == "ours" }
}

/// A workload: our side, one or more peers, the target wall-time ratio per peer and what the
/// settings are.
struct Workload {
    let name: String
    let title: String
    let sides: [Side]
    /// Target ours/peer wall-time ratio, by peer name.
    let targets: [String: Double]
    let settings: [String]
    /// The numbers the sides' `measure` reports, and the target they are judged by.
    var measurements: Measurements? = nil
    /// Whether the sides play sound: a private sound server runs around the workload.
    var playsSound = false
    /// Whether the sides show video: a private X server runs around the workload.
    var showsVideo = false
    /// Whether the sides work in real time (a capture, a scan): their instructions say nothing
    /// about speed, so `--instructions` does not count them; nor for sides that play or show.
    var runsInRealTime = false

    /// Whether `--instructions` counts this workload's instructions.
    var countsInstructions: Bool { !(runsInRealTime || playsSound || showsVideo) }
}

/// What a workload measures besides cost (the capture workload), shown in a table of its own.
struct Measurements {
    /// One column: the key `Side.measure` returns, its heading, and whether the column shows
    /// the largest value of any run (drops, where one bad run matters) instead of the median.
    struct Column {
        let key: String
        let title: String
        var largest = false
    }

    let columns: [Column]
    /// The target as the table states it.
    let target: String
    /// Whether our side's values (each column's median or largest) meet the target, given the
    /// peers' values in the order of the sides.
    let met: (_ ours: [String: Double], _ peers: [[String: Double]]) -> Bool
}

extension Inputs {
    func workloads(bench: String) -> [Workload] {
        let ffmpeg = ["ffmpeg", "-v", "error", "-nostdin", "-y"]
        let out = scratch.path
        var list: [Workload] = []

        list.append(Workload(
            name: "decode", title: "decode \(scale.decodeSeconds) s 1080p30 H.264 to BGRA",
            sides: [
                Side(name: "ours", commands: [[bench, "--worker", "decode", decodeClip.path]]),
                Side(name: "ffmpeg", commands: [ffmpeg + ["-i", decodeClip.path, "-pix_fmt", "bgra", "-f", "null", "-"]]),
            ],
            targets: ["ffmpeg": 1.05],
            settings: [
                "input: testsrc2 1920x1080 30 fps, \(X264.summary)",
                "ours: AVAssetReaderTrackOutput {kCVPixelBufferPixelFormatTypeKey: 32BGRA}, alwaysCopiesSampleData = false",
                "ffmpeg: ffmpeg -i clip -pix_fmt bgra -f null -   (decoder threads auto on both sides)",
            ]))

        let rawInput = ["-f", "rawvideo", "-pix_fmt", "bgra", "-s", "1920x1080", "-r", "30", "-i", rawFrames.path]
        list.append(Workload(
            name: "encode", title: "encode \(scale.encodeFrames) 1080p BGRA frames to H.264",
            sides: [
                Side(name: "ours", commands: [[bench, "--worker", "encode", rawFrames.path, "\(scale.encodeFrames)", out + "/ours.mp4"]]),
                Side(name: "ffmpeg", commands: [ffmpeg + rawInput + ["-frames:v", "\(scale.encodeFrames)", "-vf", "scale=out_color_matrix=bt709"]
                                                + X264.ffmpegArguments
                                                + ["-f", "mp4", out + "/ffmpeg.mp4"]]),
            ],
            targets: ["ffmpeg": 1.05],
            settings: [
                "input: the same raw BGRA file (\(scale.encodeFrames) testsrc2 frames, \(rawBytes / 1_000_000) MB), read sequentially by both",
                "ours: read() into the adaptor's pool buffers → AVAssetWriterInputPixelBufferAdaptor → AVAssetWriter .mp4, "
                    + "settings {codec h264, 1920x1080, AVVideoExpectedSourceFrameRateKey 30}",
                "both: \(X264.summary); BGRA→yuv420p by libswscale (bicubic, BT.709 matrix: ours picks it for HD, "
                    + "ffmpeg is told), so the x264 option strings and the streams come out the same",
                "ffmpeg: ffmpeg -f rawvideo -pix_fmt bgra -s 1920x1080 -r 30 -i frames.raw -vf scale=out_color_matrix=bt709 "
                    + "\(X264.ffmpegArguments.joined(separator: " ")) out.mp4",
            ]))

        let times = Workers.thumbnailTimes(duration: Double(scale.longSeconds), count: scale.thumbnailCount)
        let step = Double(scale.longSeconds) / Double(scale.thumbnailCount)
        let selectFilter = String(format: "select='isnan(prev_selected_t)+gte(t-prev_selected_t\\,%.3f)'", step - 0.01)
        list.append(Workload(
            name: "thumbnails", title: "\(scale.thumbnailCount) thumbnails of a \(scale.longSeconds / 60)-min 720p clip",
            sides: [
                Side(name: "ours", commands: [[bench, "--worker", "thumbnails", longClip.path, "\(scale.thumbnailCount)", out]]),
                Side(name: "ffmpeg ×\(scale.thumbnailCount)", commands: times.enumerated().map { index, time in
                    ffmpeg + ["-ss", String(format: "%.3f", time), "-i", longClip.path, "-frames:v", "1", out + "/ffmpeg-\(index).png"]
                }),
                Side(name: "ffmpeg select", commands: [ffmpeg + ["-i", longClip.path, "-vf", selectFilter, "-fps_mode", "vfr",
                                                                  "-frames:v", "\(scale.thumbnailCount)", out + "/select-%02d.png"]]),
            ],
            targets: ["ffmpeg ×\(scale.thumbnailCount)": 0.3],
            settings: [
                "input: testsrc2 1280x720 30 fps + AAC, \(X264.summary) (key frame every 2 s)",
                "times: the middles of \(scale.thumbnailCount) equal parts of the clip",
                "ours: AVAssetImageGenerator, default tolerances (the key frame at or before each time), PNG via CGImageDestination (RGB: video frames are opaque)",
                "ffmpeg ×\(scale.thumbnailCount): ffmpeg -ss T -i clip -frames:v 1 out.png, one process per time (exact frame, RGB24)",
                "ffmpeg select: one ffmpeg -i clip -vf \"\(selectFilter)\" -fps_mode vfr -frames:v \(scale.thumbnailCount) out-%02d.png "
                    + "(decodes every frame up to the last thumbnail)",
            ]))

        let start = Double(scale.longSeconds) / 4, length = Double(scale.longSeconds) / 2
        list.append(Workload(
            name: "remux", title: "remux the middle \(Int(length / 60) > 0 ? "\(Int(length / 60)) min" : "\(Int(length)) s") of the clip",
            sides: [
                Side(name: "ours", commands: [[bench, "--worker", "remux", longClip.path, "\(start)", "\(length)", out + "/ours-remux.mp4"]]),
                Side(name: "ffmpeg", commands: [ffmpeg + ["-ss", "\(start)", "-i", longClip.path, "-t", "\(length)", "-c", "copy",
                                                          "-f", "mp4", out + "/ffmpeg-remux.mp4"]]),
            ],
            targets: ["ffmpeg": 1.1],
            settings: [
                "input: the \(scale.longSeconds / 60)-min 720p H.264 + AAC clip; range \(Int(start)) s + \(Int(length)) s",
                "ours: AVAssetReader.timeRange, AVAssetReaderTrackOutput(nil settings) per track → AVAssetWriterInput(nil settings) .mp4, "
                    + "interleaved by time",
                "ffmpeg: ffmpeg -ss \(Int(start)) -i clip -t \(Int(length)) -c copy out.mp4",
            ]))

        // The 1280x720 preset: what `ExportPreset` sets for a 1080p30 source (0.15 bit per
        // pixel and frame of the 1280x720 picture, AAC at 192 kbit/s), given to the peers.
        let exportBitRate = 1280 * 720 * 30 * 15 / 100
        var exportSides = [
            Side(name: "ours", commands: [[bench, "--worker", "export", exportClip.path, "AVAssetExportPreset1280x720", "0", "-1",
                                           out + "/ours-export.mp4"]]),
            Side(name: "ffmpeg", commands: [ffmpeg + ["-i", exportClip.path, "-vf", "scale=1280:720:flags=bicubic",
                                                      "-c:v", "libx264", "-preset", X264.preset, "-b:v", "\(exportBitRate)", "-g", X264.gop,
                                                      "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "192k", "-f", "mp4", out + "/ffmpeg-export.mp4"]]),
        ]
        let exportPipeline = [
            "filesrc", "location=\(exportClip.path)", "!", "qtdemux", "name=d",
            "d.video_0", "!", "queue", "!", "h264parse", "!", "avdec_h264", "!", "videoscale", "method=catrom", "!",
            "video/x-raw,width=1280,height=720", "!", "x264enc", "speed-preset=\(X264.preset)", "bitrate=\(exportBitRate / 1000)",
            "key-int-max=\(X264.gop)", "!", "h264parse", "!", "mp4mux", "name=m", "!", "filesink", "location=\(out)/gst-export.mp4",
            "d.audio_0", "!", "queue", "!", "aacparse", "!", "avdec_aac", "!", "audioconvert", "!", "avenc_aac", "bitrate=192000", "!", "m.",
        ]
        let gstreamer = ChildProcess.which("gst-launch-1.0")
        if let gstreamer { exportSides.append(Side(name: "gstreamer", commands: [[gstreamer, "-q", "-e"] + exportPipeline])) }
        list.append(Workload(
            name: "export", title: "export \(scale.exportSeconds) s of 1080p30 H.264 + AAC with the 1280x720 preset",
            sides: exportSides,
            targets: ["ffmpeg": 1.0],
            settings: [
                "input: testsrc2 1920x1080 30 fps + AAC, \(X264.summary)",
                "ours: AVAssetExportSession(preset AVAssetExportPreset1280x720).export(to:as: .mp4): decode, bicubic scale to 1280x720, "
                    + "libx264 -preset \(X264.preset) at \(exportBitRate / 1000) kbit/s (0.15 bit per pixel and frame), key frame every 2 s; AAC 192 kbit/s",
                "ffmpeg: ffmpeg -i clip -vf scale=1280:720:flags=bicubic -c:v libx264 -preset \(X264.preset) -b:v \(exportBitRate) -g \(X264.gop) "
                    + "-pix_fmt yuv420p -c:a aac -b:a 192k out.mp4",
                gstreamer == nil ? "gstreamer: skipped: gst-launch-1.0 not installed (scripts/bench-setup installs it)"
                    : "gstreamer: gst-launch-1.0 -e " + exportPipeline.joined(separator: " "),
            ]))

        // The 640x480 preset on the long 720p clip (issue 40): the picture fitted into the box
        // (640x360), 0.15 bit per pixel and frame at 30 fps, AAC at 160 kbit/s.
        let smallBitRate = 640 * 360 * 30 * 15 / 100
        list.append(Workload(
            name: "export-640", title: "export the \(scale.longSeconds / 60)-min 720p clip with the 640x480 preset",
            sides: [
                Side(name: "ours", commands: [[bench, "--worker", "export", longClip.path, "AVAssetExportPreset640x480", "0", "-1",
                                               out + "/ours-export-640.mp4"]]),
                Side(name: "ffmpeg", commands: [ffmpeg + ["-i", longClip.path, "-vf", "scale=640:360:flags=bicubic",
                                                          "-c:v", "libx264", "-preset", X264.preset, "-b:v", "\(smallBitRate)", "-g", X264.gop,
                                                          "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "160k", "-f", "mp4", out + "/ffmpeg-export-640.mp4"]]),
            ],
            targets: ["ffmpeg": 1.0],
            settings: [
                "input: the \(scale.longSeconds / 60)-min 720p H.264 + AAC clip",
                "ours: AVAssetExportSession(preset AVAssetExportPreset640x480).export(to:as: .mp4): decode, bicubic scale to 640x360, "
                    + "libx264 -preset \(X264.preset) at \(smallBitRate / 1000) kbit/s, key frame every 2 s; AAC 160 kbit/s",
                "ffmpeg: ffmpeg -i clip -vf scale=640:360:flags=bicubic -c:v libx264 -preset \(X264.preset) -b:v \(smallBitRate) -g \(X264.gop) "
                    + "-pix_fmt yuv420p -c:a aac -b:a 160k out.mp4",
            ]))

        let trimStart = Double(scale.exportSeconds) / 4 + 0.37, trimLength = Double(scale.exportSeconds) / 2
        list.append(Workload(
            name: "trim", title: "passthrough trim of \(Int(trimLength)) s from the 1080p clip",
            sides: [
                Side(name: "ours", commands: [[bench, "--worker", "export", exportClip.path, "AVAssetExportPresetPassthrough",
                                               "\(trimStart)", "\(trimLength)", out + "/ours-trim.mp4"]]),
                Side(name: "ffmpeg", commands: [ffmpeg + ["-ss", "\(trimStart)", "-i", exportClip.path, "-t", "\(trimLength)", "-c", "copy",
                                                          "-f", "mp4", out + "/ffmpeg-trim.mp4"]]),
            ],
            targets: ["ffmpeg": 1.0],
            settings: [
                "input: the \(scale.exportSeconds) s 1080p H.264 + AAC clip; range \(trimStart) s + \(Int(trimLength)) s (starts between key frames)",
                "ours: AVAssetExportSession(preset AVAssetExportPresetPassthrough), timeRange, .mp4 (frame-exact: edit list from the key frame before)",
                "ffmpeg: ffmpeg -ss \(trimStart) -i clip -t \(Int(trimLength)) -c copy out.mp4",
            ]))

        // The 1920x1080 preset: 0.15 bit per pixel and frame at 30 fps, AAC at 192 kbit/s.
        let crossfadeBitRate = 1920 * 1080 * 30 * 15 / 100
        let half = scale.exportSeconds / 2
        let (clipA, clipB) = (crossfadeClips[0].path, crossfadeClips[1].path)
        var crossfadeSides = [
            Side(name: "ours", commands: [[bench, "--worker", "crossfade", clipA, clipB, "1", out + "/ours-crossfade.mp4"]]),
            Side(name: "ffmpeg", commands: [ffmpeg + ["-i", clipA, "-i", clipB, "-filter_complex",
                                                      "[0:v][1:v]xfade=transition=fade:duration=1:offset=\(half - 1),format=yuv420p[v];"
                                                      + "[0:a][1:a]acrossfade=d=1:c1=tri:c2=tri[a]", "-map", "[v]", "-map", "[a]",
                                                      "-c:v", "libx264", "-preset", X264.preset, "-b:v", "\(crossfadeBitRate)", "-g", X264.gop,
                                                      "-c:a", "aac", "-b:a", "192k", "-f", "mp4", out + "/ffmpeg-crossfade.mp4"]]),
        ]
        let meltArguments = [clipA, "in=0", "out=\(half * 30 - 1)", clipB, "in=0", "out=\(half * 30 - 1)", "-mix", "30", "-mixer", "luma",
                             "-mixer", "mix:-1", "-consumer", "avformat:\(out)/melt-crossfade.mp4", "vcodec=libx264", "vpreset=\(X264.preset)",
                             "vb=\(crossfadeBitRate)", "g=\(X264.gop)", "acodec=aac", "ab=192k", "real_time=-2"]
        let melt = ChildProcess.which("melt")
        if let melt { crossfadeSides.append(Side(name: "melt", commands: [[melt, "-quiet"] + meltArguments])) }
        list.append(Workload(
            name: "crossfade", title: "\(scale.exportSeconds) s of two 1080p30 clips with a 1 s crossfade, 1920x1080 preset",
            sides: crossfadeSides,
            targets: ["ffmpeg": 1.0],
            settings: [
                "input: two \(half) s clips, testsrc2 and testsrc 1920x1080 30 fps + AAC tones, \(X264.summary)",
                "ours: AVMutableComposition (two video and two audio tracks overlapping 1 s), AVMutableVideoComposition (an opacity "
                    + "ramp of the first over the second), AVMutableAudioMix (volume ramps), AVAssetExportSession preset 1920x1080: "
                    + "libx264 -preset \(X264.preset) at \(crossfadeBitRate / 1000) kbit/s, AAC 192 kbit/s",
                "ffmpeg: ffmpeg -i a -i b -filter_complex \"[0:v][1:v]xfade=transition=fade:duration=1:offset=\(half - 1),format=yuv420p[v];"
                    + "[0:a][1:a]acrossfade=d=1:c1=tri:c2=tri[a]\" -c:v libx264 -preset \(X264.preset) -b:v \(crossfadeBitRate) -g \(X264.gop) "
                    + "-c:a aac -b:a 192k out.mp4",
                melt == nil ? "melt: skipped: not installed (scripts/bench-setup installs it)" : "melt: melt " + meltArguments.joined(separator: " "),
            ]))

        list.append(Workload(
            name: "probe", title: "probe \(scale.probeFiles) small files",
            sides: [
                Side(name: "ours", commands: [[bench, "--worker", "probe"] + probeFiles.map(\.path)]),
                Side(name: "ffprobe ×\(scale.probeFiles)", commands: probeFiles.map {
                    ["ffprobe", "-v", "error", "-show_format", "-show_streams", "-of", "json", $0.path]
                }),
            ],
            targets: [:],
            settings: [
                "input: \(scale.probeFiles) files of 1–3 s, \(Self.probeExtensions.joined(separator: "/")) in turn "
                    + "(H.264 320x240 + AAC; AAC; MP3)",
                "ours: one process, AVURLAsset(url:) + load(.duration, .tracks) per file",
                "ffprobe: one process per file, ffprobe -show_format -show_streams -of json",
            ]))
        return list
    }

    var rawBytes: Int { 1920 * 1080 * 4 * scale.encodeFrames }
}
