import Foundation

extension Inputs {
    /// The clip both players play: 1080p30 H.264 + AAC stereo.
    var playClip: URL { cache.appendingPathComponent("play-1080p30-aac-\(scale.playSeconds)s.mp4") }

    /// The times the seek workload seeks to: spread over the clip by the golden ratio, away from
    /// its ends, in milliseconds (the same list for both sides).
    var seekTimes: [String] {
        (1...20).map { index in
            let fraction = (Double(index) * 0.618_033_988_75).truncatingRemainder(dividingBy: 1)
            return String(format: "%.3f", 0.5 + fraction * Double(scale.playSeconds - 1))
        }
    }

    /// Workloads 7, 8 and 9: playing a clip to a PulseAudio null sink with the pictures pulled at
    /// display rate, 20 exact seeks of a paused player, against mpv; and playing it into a
    /// window on an X server, against mpv and ffplay.
    func playbackWorkloads(bench: String) -> [Workload] {
        let mpv = ChildProcess.which("mpv")
        let skipped = "mpv: skipped: mpv not installed (scripts/bench-setup installs it)"
        let sound = "both play to the null sink of a private PulseAudio daemon (PULSE_SERVER), whose monitor a parec reads at 10 ms "
            + "of latency, as a sound card plays (a null sink left to its default renders ahead in blocks of up to 2 s)"
        let input = "input: testsrc2 1920x1080 30 fps + 440 Hz AAC stereo, \(scale.playSeconds) s, \(X264.summary)"
        let played: (String) -> [String: Double] = { _ in ["file-seconds": Double(scale.playSeconds)] }
        var playSides = [Side(name: "ours", commands: [[bench, "--worker", "play", playClip.path]], measure: played)]
        if let mpv { playSides.append(Side(name: "mpv", commands: [[mpv, "--no-config", "--vo=null", "--ao=pulse", "--really-quiet", playClip.path]], measure: played)) }
        var seekSides = [Side(name: "ours", commands: [[bench, "--worker", "seek", playClip.path] + seekTimes], measure: Self.parseMetrics)]
        var windowSides = [Side(name: "ours", commands: [[bench, "--worker", "window", playClip.path]], measure: played)]
        if let mpv {
            windowSides.append(Side(name: "mpv", commands: [[mpv, "--no-config", "--vo=x11", "--ao=pulse", "--geometry=1920x1080+0+0",
                                                             "--really-quiet", playClip.path]], measure: played))
        }
        if let ffplay = ChildProcess.which("ffplay") {
            windowSides.append(Side(name: "ffplay", commands: [[ffplay, "-autoexit", "-loglevel", "quiet", "-x", "1920", "-y", "1080",
                                                                playClip.path]], measure: played))
        }
        var layerSides = [Side(name: "ours", commands: [[bench, "--worker", "display-layer", playClip.path]], measure: played)]
        if let mpv {
            layerSides.append(Side(name: "mpv", commands: [[mpv, "--no-config", "--vo=x11", "--no-audio", "--geometry=1920x1080+0+0",
                                                            "--really-quiet", playClip.path]], measure: played))
        }
        if mpv != nil { seekSides.append(Side(name: "mpv", commands: [[bench, "--worker", "mpv-seek", playClip.path] + seekTimes], measure: Self.parseMetrics)) }
        return [
            Workload(
                name: "play", title: "play \(scale.playSeconds) s of 1080p30 H.264 + AAC",
                sides: playSides, targets: [:],
                settings: [
                    input, sound,
                    "ours: AVPlayer(playerItem:) with an AVPlayerItemVideoOutput(pixelBufferAttributes: nil) (the decoder's own yuv420p, "
                        + "no conversion), play() to the end; a 60 Hz display loop takes each due picture "
                        + "(itemTime(forHostTime:), hasNewPixelBuffer, copyPixelBuffer)",
                    mpv == nil ? skipped : "mpv: mpv --no-config --vo=null --ao=pulse clip (decodes every picture and drops it, on time)",
                ],
                measurements: Self.cpuPerPlayedSecond(target: "CPU per played s ≤ mpv's"),
                playsSound: true),
            Workload(
                name: "seek", title: "20 exact seeks in a paused 1080p30 player",
                sides: seekSides, targets: [:],
                settings: [
                    input, sound, "times (s): " + seekTimes.joined(separator: ", "),
                    "ours: AVPlayer paused, seek(to:toleranceBefore: .zero, toleranceAfter: .zero), timed until the picture at the time "
                        + "is copied from an AVPlayerItemVideoOutput",
                    mpv == nil ? skipped : "mpv: mpv --no-config --vo=null --ao=pulse --pause --hr-seek=yes --keep-open=yes "
                        + "--input-ipc-server=SOCKET clip, driven by openav-bench --worker mpv-seek: {\"command\":[\"seek\",T,\"absolute+exact\"]}, "
                        + "timed until mpv's playback-restart event (the picture at T decoded); mpv's cost is counted in the worker's",
                ],
                measurements: Measurements(
                    columns: [.init(key: "seek-median-ms", title: "median seek ms"), .init(key: "seek-max-ms", title: "slowest seek ms"),
                              .init(key: "seek-total-ms", title: "20 seeks ms")],
                    target: "median seek ≤ mpv's",
                    met: { ours, peers in
                        guard let latency = ours["seek-median-ms"], let peer = peers.first?["seek-median-ms"] else { return false }
                        return latency <= peer
                    }),
                playsSound: true),
            Workload(
                name: "window", title: "play \(scale.playSeconds) s of 1080p30 H.264 + AAC into a 1920x1080 window",
                sides: windowSides, targets: [:],
                settings: [
                    input, sound,
                    "display: a private Xvfb, 1920x1080x24, no GPU: ours converts each picture into the window's pixels (libswscale) "
                        + "and SDL puts them on the screen through MIT-SHM, as mpv's x11 output does; ffplay draws through SDL's "
                        + "renderer (Mesa's llvmpipe OpenGL, in software)",
                    "ours: AVPlayer(playerItem:) shown by an AVPlayerLayer in a 1920x1080 AVDisplayWindow, play() to the end",
                    mpv == nil ? skipped : "mpv: mpv --no-config --vo=x11 --ao=pulse --geometry=1920x1080+0+0 clip",
                    "ffplay: ffplay -autoexit -x 1920 -y 1080 clip (SDL2, as ours)",
                ],
                measurements: Self.cpuPerPlayedSecond(target: "CPU per played s ≤ each peer's"),
                playsSound: true, showsVideo: true),
            Workload(
                name: "display-layer", title: "show \(scale.playSeconds) s of 1080p30 H.264 through AVSampleBufferDisplayLayer in a 1920x1080 window",
                sides: layerSides, targets: [:],
                settings: [
                    input,
                    "display: a private Xvfb, 1920x1080x24, no GPU (as the window workload); the picture only, no sound on either side",
                    "ours: the video track's packets read by an AVAssetReaderTrackOutput(outputSettings: nil) and fed through "
                        + "requestMediaDataWhenReady into an AVSampleBufferDisplayLayer in a 1920x1080 AVDisplayWindow, under an "
                        + "AVSampleBufferRenderSynchronizer at rate 1, until its time passes the clip's end",
                    mpv == nil ? skipped : "mpv: mpv --no-config --vo=x11 --no-audio --geometry=1920x1080+0+0 clip",
                ],
                measurements: Self.cpuPerPlayedSecond(target: "CPU per played s ≤ mpv's"),
                showsVideo: true),
        ]
    }

    /// The playing workloads' measurement: CPU seconds per second played, met when ours costs no
    /// more than every peer's (each peer that ran).
    static func cpuPerPlayedSecond(target: String) -> Measurements {
        Measurements(
            columns: [.init(key: "file-seconds", title: "played s"), .init(key: "cpu-per-second", title: "CPU s per played s")],
            target: target,
            met: { ours, peers in
                guard let cost = ours["cpu-per-second"], !peers.isEmpty else { return false }
                return peers.allSatisfy { peer in peer["cpu-per-second"].map { cost <= $0 } ?? false }
            })
    }
}
