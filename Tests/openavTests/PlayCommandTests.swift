import Foundation
import Testing
import TestSupport

/// `openav play` run as a user runs it, with a private PulseAudio daemon as the sound server:
/// files played in turn into its sink, a missing file told and skipped, the keys on a terminal.
@Suite(.serialized) struct PlayCommandTests {
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
        #expect(missingStatus == 1 && missingErrors.contains("nothing could be played"), "\(missingErrors)")
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
}
