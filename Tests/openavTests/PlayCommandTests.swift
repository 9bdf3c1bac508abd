import Foundation
import Testing
import TestSupport

/// `openav play` run as a user runs it, with a private PulseAudio daemon as the sound server:
/// files played in turn into its sink, a missing file told and skipped, the keys on a terminal.
@Suite(.serialized, .timeLimit(.minutes(10))) struct PlayCommandTests {
    static func clip() throws -> URL {
        try Fixtures.make("play-command.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-f", "lavfi",
                                               "-i", "sine=frequency=1000:sample_rate=48000", "-t", "1", "-c:v", "libx264", "-c:a", "aac"])
    }

    @Test func playsTheFilesInTurnAndTellsWhatItCannotPlay() throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let clip = try Self.clip().path
        let monitor = try MonitorRecorder(daemon)
        let started = Date()
        let (status, _, errors) = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["play", clip, "/nonexistent/missing.mp4", clip],
                                                            environment: daemon.environment)
        let elapsed = Date().timeIntervalSince(started)
        #expect(status == 0, "\(errors)")
        #expect(errors.contains("/nonexistent/missing.mp4: cannot play: No such file or directory"), "\(errors)")
        // Two seconds of sound, in real time (a null sink runs no faster than a real one).
        #expect(elapsed >= 1.9 && elapsed < 4, "played 2 s of sound in \(elapsed) s")
        // The sink heard two seconds of tone (ffmpeg's sine peaks at 1/8), the missing file between
        // the two clips leaving no gap.
        let heard = monitor.stop()
        let first = heard.firstIndex { abs($0) > 0.02 } ?? 0, last = heard.lastIndex { abs($0) > 0.02 } ?? 0
        #expect(abs(Double(last - first) / 2 / 48_000 - 2) < 0.1, "the sink heard \(Double(last - first) / 96_000) s of tone")
        let (missingStatus, _, missingErrors) = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["play", "/nonexistent/missing.mp4"],
                                                                          environment: daemon.environment)
        #expect(missingStatus == 1 && missingErrors.contains("nothing could be played"), "exit status \(missingStatus): \(missingErrors)")
    }

    /// `--audio-language fr` plays the French track of a file with English (500 Hz) and French
    /// (1500 Hz) audio: the sink hears 1500 Hz.
    @Test func playsTheAudioLanguageAskedFor() throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let url = try Fixtures.make("play-command-languages.mkv", [
            "-f", "lavfi", "-i", "sine=frequency=500:sample_rate=48000", "-f", "lavfi", "-i", "sine=frequency=1500:sample_rate=48000",
            "-map", "0", "-map", "1", "-t", "1", "-ac", "2", "-c:a", "pcm_s16le",
            "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fre", "-disposition:a:0", "default", "-disposition:a:1", "0",
        ])
        for (language, hertz) in [(nil, 500.0), ("fr", 1500.0)] as [(String?, Double)] {
            let monitor = try MonitorRecorder(daemon)
            let arguments = ["play"] + (language.map { ["--audio-language", $0] } ?? []) + [url.path]
            let (status, _, errors) = try ProbeCommandTests.run(try ProbeCommandTests.openav, arguments, environment: daemon.environment)
            #expect(status == 0, "\(errors)")
            let heard = monitor.stop()
            let loud = try #require(heard.firstIndex { abs($0) > 0.02 })..<(heard.lastIndex { abs($0) > 0.02 }! + 1)
            let middle = heard[(loud.lowerBound + 9_600)..<(loud.upperBound - 9_600)]
            let left = stride(from: middle.startIndex, to: middle.endIndex - 1, by: 2).map { middle[$0] }
            let crossings = zip(left, left.dropFirst()).enumerated().filter { $1.0 < 0 && $1.1 >= 0 }.map(\.offset)
            let measured = Double(crossings.count - 1) * 48_000 / Double((crossings.last ?? 1) - (crossings.first ?? 0))
            // Which track was heard (500 or 1500 Hz), not how exactly: the null sink's monitor
            // hands on the sound in blocks, so zero crossings over 0.6 s land within a few percent.
            #expect(abs(measured - hertz) < hertz / 10, "with \(language ?? "no language asked"): \(measured) Hz")
        }
    }

    /// `--subtitles fr` prints the French subtitles of a file with English and French ones, each
    /// cue once, in order; without it (no default subtitles) none are printed.
    @Test func printsTheSubtitlesAskedFor() throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openav-play-subtitles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let english = folder.appendingPathComponent("en.srt"), french = folder.appendingPathComponent("fr.srt")
        try Data("1\n00:00:00,300 --> 00:00:00,900\nHello\n\n".utf8).write(to: english)
        try Data("1\n00:00:00,300 --> 00:00:00,900\nBonjour\n\n2\n00:00:01,200 --> 00:00:01,800\nLe monde\n\n".utf8).write(to: french)
        let url = folder.appendingPathComponent("subtitles.mkv")
        _ = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=2",
                                        "-f", "lavfi", "-i", "sine=duration=2", "-i", english.path, "-i", french.path,
                                        "-map", "0", "-map", "1", "-map", "2", "-map", "3", "-c:v", "libx264", "-c:a", "aac", "-c:s", "srt",
                                        "-metadata:s:s:0", "language=eng", "-metadata:s:s:1", "language=fre",
                                        "-disposition:s:0", "0", "-disposition:s:1", "0", url.path])
        let (status, _, errors) = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["play", "--no-video", "--subtitles", "fr", url.path],
                                                            environment: daemon.environment)
        #expect(status == 0, "\(errors)")
        let lines = errors.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).filter { $0.hasPrefix("› ") }
        #expect(lines == ["› Bonjour", "› Le monde"], "\(errors)")
        let (plainStatus, _, plainErrors) = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["play", "--no-video", url.path],
                                                                      environment: daemon.environment)
        #expect(plainStatus == 0 && !plainErrors.contains("› "), "\(plainErrors)")
    }

    @Test func playsAtTheRateAskedFor() throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let long = try Fixtures.make("play-command-4s.mp4", ["-f", "lavfi", "-i", "sine=sample_rate=48000", "-t", "4", "-c:a", "aac"])
        let monitor = try MonitorRecorder(daemon)
        let started = Date()
        let (status, _, errors) = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["play", "--rate", "2", long.path],
                                                            environment: daemon.environment)
        let elapsed = Date().timeIntervalSince(started)
        #expect(status == 0, "\(errors)")
        #expect(elapsed > 1.8 && elapsed < 3.2, "4 s at rate 2 took \(elapsed) s")
        _ = monitor.stop()
        let (badStatus, _, badErrors) = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["play", "--rate", "9", long.path])
        #expect(badStatus != 0 && badErrors.contains("--rate must be between 0.25 and 4"))
    }

    /// The video shows in a window on the X server: ffmpeg's grab of the window, in the middle
    /// of the screen, is one of the clip's pictures as ffmpeg decodes them (by luma: see
    /// `DisplayLayerTests.lumaPSNR`).
    @Test func showsTheVideoInAWindow() throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let server = try XvfbServer(width: 640, height: 480)
        defer { server.stop() }
        let clip = try Self.clip()
        let pictures = [UInt8](try Fixtures.run("ffmpeg", ["-v", "error", "-i", clip.path, "-vf", "scale=flags=bicubic+full_chroma_int+accurate_rnd",
                                                         "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
        let size = 320 * 240 * 3
        let process = Process()
        process.executableURL = try ProbeCommandTests.openav
        process.arguments = ["play", clip.path, clip.path, clip.path]
        process.environment = ProcessInfo.processInfo.environment.merging(daemon.environment) { _, new in new }
            .merging(["DISPLAY": server.display]) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        // What the command says goes to a file, told when the window shows nothing.
        let said = Fixtures.folder.appendingPathComponent("play-window-\(UUID().uuidString).txt")
        FileManager.default.createFile(atPath: said.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: said) }
        process.standardError = try FileHandle(forWritingTo: said)
        try process.run()
        defer { process.terminate(); process.waitUntilExit() }
        // The window (320x240, the clip's size) is centred on the 640x480 screen.
        var best = 0.0
        let deadline = Date().addingTimeInterval(10)
        while best < 35 && Date() < deadline && process.isRunning {
            let screen = try server.grab(x: 160, y: 120, width: 320, height: 240)
            for start in stride(from: 0, to: pictures.count - size + 1, by: size) {
                best = max(best, PixelComparison.psnr(PixelComparison.luma(rgb: screen), PixelComparison.luma(rgb: Array(pictures[start..<start + size]))))
            }
        }
        #expect(best > 35, """
            the window is none of the clip's pictures (best \(best) dB); openav play \(process.isRunning ? "runs" : "ended"), \
            saying: \((try? String(contentsOf: said, encoding: .utf8)) ?? "")
            """)
    }

    /// Without a display the files play, sound only, and the command says so in one line.
    @Test func withoutADisplayItPlaysTheSound() throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let noDisplay = daemon.environment.merging(["DISPLAY": "", "WAYLAND_DISPLAY": ""]) { _, new in new }
        let (status, _, errors) = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["play", try Self.clip().path], environment: noDisplay)
        #expect(status == 0, "\(errors)")
        let lines = errors.split(separator: "\n").filter { $0.contains("no video") }
        #expect(lines.count == 1 && lines[0].contains("no display"), "\(errors)")
    }

    @Test func keysOnATerminalPauseSeekAndQuit() throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        // `script` gives the command a pseudo-terminal; the keys arrive on its standard input:
        // space (pause), then q (quit) while paused — a 60 s file would otherwise play on.
        let long = try Fixtures.make("play-command-long.mp4", ["-f", "lavfi", "-i", "sine=sample_rate=48000", "-t", "60", "-c:a", "aac"])
        let command = "\(try ProbeCommandTests.openav.path) play \(long.path)"
        let shell = "(sleep 1; printf ' '; sleep 1; printf 'q') | script -qfec '\(command)' /dev/null"
        let started = Date()
        let (status, output, errors) = try ProbeCommandTests.run(URL(fileURLWithPath: "/bin/sh"), ["-c", shell], environment: daemon.environment)
        #expect(status == 0, "\(output) \(errors)")
        #expect(Date().timeIntervalSince(started) < 20)
        // The status line: the file, its time and length, playing then paused.
        #expect(output.contains("play-command-long.mp4") && output.contains("/ 1:00") && output.contains("playing") && output.contains("paused"), "\(output)")
    }

    /// With a window, the status line counts the pictures passed over (from the item's access
    /// log) and tells how far the pictures trail the sound; without one it has neither.
    @Test func theStatusLineCountsDroppedPictures() throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let server = try XvfbServer(width: 640, height: 480)
        defer { server.stop() }
        let command = "\(try ProbeCommandTests.openav.path) play \(try Self.clip().path)"
        let environment = daemon.environment.merging(["DISPLAY": server.display]) { _, new in new }
        let (status, output, errors) = try ProbeCommandTests.run(URL(fileURLWithPath: "/usr/bin/script"), ["-qfec", command, "/dev/null"],
                                                                 environment: environment)
        #expect(status == 0, "\(output) \(errors)")
        #expect(output.range(of: "playing  [0-9]+ dropped  A-V [+-][0-9]+ ms", options: .regularExpression) != nil, "\(output)")
        // The pictures trail the sound by a few milliseconds (the window looks for a new picture every 4 ms).
        let offsets = output.matches(of: /A-V ([+-][0-9]+) ms/).compactMap { Int($0.1) }
        #expect(!offsets.isEmpty && offsets.allSatisfy { (0...60).contains($0) }, "\(offsets)")
        let (_, soundOnly, _) = try ProbeCommandTests.run(URL(fileURLWithPath: "/usr/bin/script"), ["-qfec", command + " --no-video", "/dev/null"],
                                                          environment: environment)
        #expect(soundOnly.contains("playing") && !soundOnly.contains("dropped") && !soundOnly.contains("A-V"), "\(soundOnly)")
    }
    /// Sound files (no video, one audio track) play in turn through AVAudioPlayer, whose stream
    /// the server lists by its name while it plays; `--start` and `--rate` apply.
    @Test func soundFilesPlayThroughAVAudioPlayer() throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let wav = try Fixtures.make("play-command-2s.wav", ["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=2", "-c:a", "pcm_s16le"])
        let mp3 = try Fixtures.make("play-command-2s.mp3", ["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=44100:duration=2", "-c:a", "libmp3lame"])
        let process = Process()
        process.executableURL = try ProbeCommandTests.openav
        // 1 s of the first file, then 2 s of the second, at rate 2: 1.5 s.
        process.arguments = ["play", "--start", "1", "--rate", "2", wav.path, mp3.path]
        process.environment = daemon.environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let started = Date()
        try process.run()
        // The server gives no notice of a new stream: its list is polled.
        let listed = pollUntil(timeout: 5, every: 0.05) { ((try? daemon.pactl(["list", "sink-inputs"])) ?? "").contains("OpenAVFAudio AVAudioPlayer") }
        #expect(listed, "no AVAudioPlayer stream was seen")
        process.waitUntilExit()
        let elapsed = Date().timeIntervalSince(started)
        #expect(process.terminationStatus == 0)
        #expect(elapsed > 1.4 && elapsed < 3, "1 s and 2 s at rate 2 took \(elapsed) s")
    }
}
