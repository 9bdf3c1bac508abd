import Foundation

/// The AVFAudio workloads (issue 33): decoding sound files through `AVAudioFile` against
/// `ffmpeg -f null`, and converting a sample rate through `AVAudioConverter` against
/// ffmpeg's `aresample` (and `sox` where it is installed), and encoding AAC through
/// `AVAudioConverter` against `ffmpeg -c:a aac`, and mixing two files offline through
/// `AVAudioEngine` against the same `ffmpeg -filter_complex` graph.
extension Inputs {
    /// The sound files the audio-decode workload reads: MP3, AAC in M4A and FLAC.
    var audioFiles: [URL] {
        ["mp3", "m4a", "flac"].map { cache.appendingPathComponent("audio-\(scale.audioSeconds)s.\($0)") }
    }
    /// The 44.1 kHz stereo 32-bit float WAV the resample workload converts to 48 kHz.
    var resampleInput: URL { cache.appendingPathComponent("resample-44100-f32-\(scale.audioSeconds)s.wav") }
    /// The 48 kHz stereo 32-bit float WAV the engine-play workload plays in real time.
    var enginePlayInput: URL { cache.appendingPathComponent("engine-play-48000-f32-\(scale.playSeconds)s.wav") }
    /// The two 48 kHz stereo 32-bit float WAVs the engine-mix workload mixes.
    var mixInputs: [URL] { [440, 660].map { cache.appendingPathComponent("mix-\($0)-48000-f32-\(scale.audioSeconds)s.wav") } }

    /// Makes the audio workloads' inputs that are missing.
    func prepareAudio(needing names: Set<String>) throws {
        let tone = ["-f", "lavfi", "-i", "aevalsrc=0.5*sin(2*PI*440*t)|0.4*sin(2*PI*1000*t):s=44100", "-t", "\(scale.audioSeconds)"]
        if names.contains("audio-decode") {
            for (file, codec) in zip(audioFiles, [["-c:a", "libmp3lame", "-b:a", "192k"], ["-c:a", "aac", "-b:a", "192k"], ["-c:a", "flac"]]) {
                try make(file, tone + codec)
            }
        }
        if names.contains("resample") || names.contains("aac-encode") { try make(resampleInput, tone + ["-c:a", "pcm_f32le"]) }
        if names.contains("engine-play") {
            try make(enginePlayInput, ["-f", "lavfi", "-i", "aevalsrc=0.5*sin(2*PI*440*t)|0.4*sin(2*PI*1000*t):s=48000",
                                       "-t", "\(scale.playSeconds)", "-c:a", "pcm_f32le"])
        }
        if names.contains("engine-mix") {
            for (file, frequency) in zip(mixInputs, [440, 660]) {
                try make(file, ["-f", "lavfi", "-i", "aevalsrc=0.5*sin(2*PI*\(frequency)*t)|0.4*sin(2*PI*\(frequency * 2)*t):s=48000",
                                "-t", "\(scale.audioSeconds)", "-c:a", "pcm_f32le"])
            }
        }
    }

    func audioWorkloads(bench: String) -> [Workload] {
        let ffmpeg = ["ffmpeg", "-v", "error", "-nostdin", "-y"]
        let minutes = "\(scale.audioSeconds / 60)-min"
        var resampleSides = [
            Side(name: "ours", commands: [[bench, "--worker", "resample", resampleInput.path]]),
            Side(name: "ffmpeg", commands: [ffmpeg + ["-i", resampleInput.path, "-af", "aresample=48000:filter_size=64",
                                                      "-c:a", "pcm_f32le", "-f", "null", "-"]]),
        ]
        var resampleTargets = ["ffmpeg": 1.0]
        if ChildProcess.which("sox") != nil {
            resampleSides.append(Side(name: "sox", commands: [["sox", resampleInput.path, "-e", "floating-point", "-r", "48000", "-t", "null", "-"]]))
            resampleTargets["sox"] = 1.0
        }
        let gstreamer = ChildProcess.which("gst-launch-1.0")
        let played: (String) -> [String: Double] = { _ in ["file-seconds": Double(scale.playSeconds)] }
        var enginePlaySides = [Side(name: "ours", commands: [[bench, "--worker", "engine-play", enginePlayInput.path]], measure: played)]
        if let gstreamer {
            enginePlaySides.append(Side(name: "GStreamer", commands: [[gstreamer, "-q", "filesrc", "location=\(enginePlayInput.path)", "!", "wavparse", "!",
                                                                        "audioconvert", "!", "equalizer-10bands", "band5=6", "!", "pulsesink"]],
                                        measure: played))
        }
        return [
            Workload(
                name: "audio-decode", title: "decode \(minutes) MP3, AAC and FLAC files to float PCM",
                sides: [
                    Side(name: "ours", commands: audioFiles.map { [bench, "--worker", "audio-decode", $0.path] }),
                    Side(name: "ffmpeg", commands: audioFiles.map { ffmpeg + ["-i", $0.path, "-c:a", "pcm_f32le", "-f", "null", "-"] }),
                ],
                targets: ["ffmpeg": 1.0],
                settings: [
                    "inputs: a 44.1 kHz stereo tone, \(minutes), as MP3 (libmp3lame 192k), AAC in M4A (aac 192k) and FLAC; one process a file",
                    "ours: AVAudioFile(forReading:) read(into:) 32768-frame buffers of its processing format (float, deinterleaved) to the end",
                    "ffmpeg: ffmpeg -i file -c:a pcm_f32le -f null -",
                ]),
            Workload(
                name: "resample", title: "convert \(minutes) of 44.1 kHz stereo float to 48 kHz",
                sides: resampleSides, targets: resampleTargets,
                settings: [
                    "input: a \(minutes) 44.1 kHz stereo 32-bit float WAV, read by each side",
                    "ours: AVAudioFile reads 32768-frame buffers, AVAudioConverter (quality .high: a 64-tap filter) through its input block into 32768-frame buffers",
                    "ffmpeg: ffmpeg -i in.wav -af aresample=48000:filter_size=64 -c:a pcm_f32le -f null - (the same libswresample filter)",
                    "sox: sox in.wav -e floating-point -r 48000 -t null - (its default quality), where sox is installed",
                ]),
            Workload(
                name: "aac-encode", title: "encode \(minutes) of 44.1 kHz stereo float to AAC at 128 kbit/s",
                sides: [
                    Side(name: "ours", commands: [[bench, "--worker", "aac-encode", resampleInput.path]]),
                    Side(name: "ffmpeg", commands: [ffmpeg + ["-i", resampleInput.path, "-c:a", "aac", "-b:a", "128k", "-f", "null", "-"]]),
                ],
                targets: ["ffmpeg": 1.0],
                settings: [
                    "input: the resample workload's \(minutes) 44.1 kHz stereo 32-bit float WAV, read by each side",
                    "ours: AVAudioFile reads 32768-frame buffers, AVAudioConverter encodes them (FFmpeg's aac, bitRate 128000) through its input block into 16-packet AVAudioCompressedBuffers",
                    "ffmpeg: ffmpeg -i in.wav -c:a aac -b:a 128k -f null - (the same encoder)",
                ]),
            Workload(
                name: "engine-play", title: "play \(scale.playSeconds) s of sound in real time through an EQ band, with a tap",
                sides: enginePlaySides,
                targets: [:],
                settings: [
                    "input: a \(scale.playSeconds) s 48 kHz stereo 32-bit float WAV of tones",
                    "both play to the null sink of a private PulseAudio daemon (PULSE_SERVER)",
                    "ours: AVAudioEngine: an AVAudioPlayerNode scheduling the file, an AVAudioUnitEQ band (parametric, 1 kHz, 1 octave, +6 dB), the main mixer with a 4800-frame tap, to the sound server; until the file's .dataPlayedBack completion",
                    gstreamer == nil ? "GStreamer: skipped: gst-launch-1.0 not installed (scripts/bench-setup installs it)"
                        : "GStreamer: gst-launch-1.0 filesrc ! wavparse ! audioconvert ! equalizer-10bands band5=6 ! pulsesink",
                ],
                measurements: Self.cpuPerPlayedSecond(target: "CPU per played s ≤ GStreamer's"),
                playsSound: true),
            Workload(
                name: "engine-mix", title: "mix two \(minutes) files with volumes, pans, an EQ band and a reverb, offline",
                sides: [
                    Side(name: "ours", commands: [[bench, "--worker", "engine-mix", mixInputs[0].path, mixInputs[1].path]]),
                    Side(name: "ffmpeg", commands: [ffmpeg + ["-i", mixInputs[0].path, "-i", mixInputs[1].path, "-filter_complex",
                        "[0]pan=stereo|c0=0.5*c0|c1=0.25*c1[a];[1]pan=stereo|c0=0.6*c0|c1=0.8*c1[b];"
                        + "[a][b]amix=inputs=2:normalize=0,equalizer=f=1000:t=o:w=1:g=6,asplit[dry][wet];"
                        + "aevalsrc=exprs='(random(0)*2-1)*exp(-6.9078*t/1.8)|(random(1)*2-1)*exp(-6.9078*t/1.8)':s=48000:d=1.8[ir];"
                        + "[wet][ir]afir=gtype=gn[room];[dry][room]amix=inputs=2:weights=0.7 0.3:normalize=0",
                        "-c:a", "pcm_f32le", "-f", "null", "-"]]),
                ],
                targets: ["ffmpeg": 1.0],
                settings: [
                    "inputs: two \(minutes) 48 kHz stereo 32-bit float WAVs of tones, read by each side",
                    "ours: AVAudioEngine in offline manual rendering mode (4096 frames a render): two AVAudioPlayerNodes scheduling the files (volume 0.5 pan -0.5, volume 0.8 pan 0.25) into the main mixer, then an AVAudioUnitEQ band (parametric, 1 kHz, 1 octave, +6 dB) and an AVAudioUnitReverb (medium hall, 30 % wet) before the output",
                    "ffmpeg: the same gains with pan, amix=normalize=0, equalizer=f=1000:t=o:w=1:g=6, and the reverb's own chain (asplit, the room's impulse response from aevalsrc, afir, amix), to -f null",
                ]),
        ]
    }
}
