import Foundation

extension Inputs {
    /// The QR code the code workloads read, drawn by zint (which `scripts/setup` installs).
    var codePicture: URL { cache.appendingPathComponent("code-qr.png") }
    /// A 1920x1080 NV12 frame with the QR code in it, as raw bytes.
    var codeFrame: URL { cache.appendingPathComponent("code-frame-1920x1080-nv12.raw") }
    /// Ten seconds of 720p30 H.264 with the QR code over a moving test picture.
    var codeClip: URL { cache.appendingPathComponent("code-720p30-10s.mp4") }

    /// The frames the codes workload reads.
    var codeFrameCount: Int { scale.quick ? 100 : 600 }

    /// Makes the code workloads' inputs, when one of them runs.
    func prepareCodes(needing names: Set<String>) throws {
        guard !names.isDisjoint(with: ["codes", "scan"]) else { return }
        if !FileManager.default.fileExists(atPath: codePicture.path) {
            _ = try ChildProcess.capture(["zint", "-b", "58", "--scale=6", "-d", "OpenAVFoundation benchmark", "-o", codePicture.path])
        }
        try make(codeFrame, ["-f", "lavfi", "-i", "color=c=gray:size=1920x1080", "-i", codePicture.path,
                             "-filter_complex", "[1]pad=iw+48:ih+48:24:24:white[code];[0][code]overlay=x=1100:y=500", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "nv12"])
        try make(codeClip, ["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-i", codePicture.path,
                            "-filter_complex", "[1]pad=iw+48:ih+48:24:24:white[code];[0][code]overlay=x=700:y=200", "-t", "10"] + X264.ffmpegArguments)
    }

    /// The barcode workloads: reading a QR code in a 1080p frame, once a frame, with our reader
    /// (zxing-cpp) against GStreamer's `zbar` element (ZBar); and scanning a 720p30 clip in real
    /// time with `AVCaptureMetadataOutput` through the File Camera (what `openav scan --video`
    /// does) against GStreamer's `zbar` element on the same clip. `zbarcam`, ZBar's own scanner,
    /// reads only V4L2 devices, which this machine has none of.
    func codeWorkloads(bench: String) -> [Workload] {
        guard let gstreamer = ChildProcess.which("gst-launch-1.0") else {
            print("codes, scan: skipped: gst-launch-1.0 not installed (scripts/bench-setup installs it)")
            return []
        }
        let frames = codeFrameCount
        let seconds = 10
        let countMessages: (String) -> [String: Double] = { log in
            ["codes": Double(log.components(separatedBy: "symbol=").count - 1)]
        }
        let read = Workload(
            name: "codes", title: "read the QR code in a 1080p frame \(frames) times: zxing-cpp (ours) against ZBar",
            sides: [
                Side(name: "ours", commands: [[bench, "--worker", "read-codes", codeFrame.path, "1920", "1080", "\(frames)"]],
                     measure: { Self.parseMetrics($0) }),
                Side(name: "gstreamer zbar", commands: [[
                    gstreamer, "-m", "filesrc", "location=\(codeFrame.path)", "!",
                    "rawvideoparse", "format=nv12", "width=1920", "height=1080", "framerate=30/1", "!",
                    "imagefreeze", "num-buffers=\(frames)", "!", "zbar", "cache=false", "!", "fakesink",
                ]], measure: countMessages),
            ],
            targets: ["gstreamer zbar": 1.0],
            settings: [
                "the picture: zint's QR code (scale 6, a white quiet zone of 4 modules) of \"OpenAVFoundation benchmark\" on a gray 1920x1080 frame (\(codeFrame.lastPathComponent))",
                "ours: the frame in a '420v' pixel buffer, read \(frames) times by the metadata output's reader (CodeReader: zxing-cpp, QR only)",
                "gstreamer: gst-launch-1.0 -m filesrc ! rawvideoparse format=nv12 ! imagefreeze num-buffers=\(frames) ! zbar cache=false ! fakesink "
                    + "(ZBar reads every frame, all its symbologies; codes counted from its messages)",
            ],
            measurements: Measurements(
                columns: [.init(key: "codes", title: "codes read")],
                target: "every frame's code read",
                met: { ours, _ in (ours["codes"] ?? 0) >= Double(frames) }))
        let scan = Workload(
            name: "scan", title: "scan \(seconds) s of a 720p30 clip with a QR code in real time",
            sides: [
                Side(name: "ours", commands: [[bench, "--worker", "scan", codeClip.path, "\(seconds)"]],
                     measure: { Self.parseMetrics($0) }),
                Side(name: "gstreamer zbar", commands: [[
                    gstreamer, "-m", "filesrc", "location=\(codeClip.path)", "!", "decodebin", "!", "videoconvert", "!",
                    "video/x-raw,format=I420", "!", "zbar", "cache=false", "!", "fakesink", "sync=true",
                ]], measure: countMessages),
            ],
            targets: [:],
            settings: [
                "the clip: testsrc2 1280x720 30 fps with zint's QR code (and its quiet zone) over it, \(seconds) s (\(codeClip.lastPathComponent)), \(X264.summary)",
                "ours: AVCaptureSession, File Camera playing the clip ('420v', 30 fps) → AVCaptureMetadataOutput, metadataObjectTypes [.qr] "
                    + "(what openav scan --video clip.mp4 --types qr does), for \(seconds) s; codes counted by its delegate",
                "gstreamer: gst-launch-1.0 -m filesrc ! decodebin ! videoconvert ! video/x-raw,format=I420 ! zbar cache=false ! fakesink sync=true "
                    + "(ZBar reads every frame, all its symbologies, in real time)",
                "the target is on CPU: both sides take the clip's \(seconds) s",
            ],
            measurements: Measurements(
                columns: [.init(key: "codes", title: "codes read")],
                target: "CPU ≤ 1.0 of GStreamer's zbar, codes read in at least 95 % of the frames",
                met: { ours, _ in (ours["codes"] ?? 0) >= 0.95 * Double(30 * seconds) }),
            runsInRealTime: true)
        return [read, scan]
    }
}
