import Foundation
import Testing
import TestSupport

/// `openav export` run as a user runs it: presets listed, a trimmed export checked with
/// ffprobe, the progress line on a terminal, and Ctrl-C.
@Suite(HeavyLoad.Scope(), .timeLimit(.minutes(10))) struct ExportCommandTests {
    static func output(_ name: String) -> String {
        Fixtures.folder.appendingPathComponent("\(UUID().uuidString)-\(name)").path
    }

    static func long() throws -> URL {
        try Fixtures.make("export-command-long.mp4", ["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-f", "lavfi",
                                                      "-i", "sine=sample_rate=48000", "-t", "30", "-c:v", "libx264", "-preset", "ultrafast",
                                                      "-c:a", "aac"])
    }

    @Test func listsThePresetsThatFit() throws {
        let (status, output, errors) = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["export", "--list-presets", try Fixtures.h264AAC().path])
        try #require(status == 0, "\(errors)")
        let lines = output.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(lines.contains(["1280x720", ".mov .mp4 .m4v"]))
        #expect(lines.contains(["AppleM4A", ".m4a"]))
        #expect(lines.contains(["AppleProRes422LPCM", ".mov"]) && lines.contains(["AppleProRes4444LPCM", ".mov"]))
        #expect(lines.contains(["HEVC7680x4320", ".mov .mp4 .m4v"]))
        #expect(lines.count == 16)
    }

    @Test func exportsATrimAndPrintsOnlyTheResult() throws {
        let out = Self.output("trim.mp4")
        let (status, output, errors) = try ProbeCommandTests.run(try ProbeCommandTests.openav,
                                                                 ["export", try Fixtures.h264AAC().path, out, "--preset", "640x480", "--start", "0.4", "--duration", "1"])
        try #require(status == 0, "\(errors)")
        // Not on a terminal: one line of result, no progress.
        #expect(errors.isEmpty, "\(errors)")
        #expect(output.hasPrefix("\(out): 640x480,") && output.split(separator: "\n").count == 1)
        let probe = try Fixtures.probe(URL(fileURLWithPath: out))
        let duration = try #require(Double((probe["format"] as? [String: Any])?["duration"] as? String ?? ""))
        #expect(abs(duration - 1) < 0.03)
        let streams = try #require(probe["streams"] as? [[String: Any]])
        #expect(streams.map { $0["codec_name"] as? String } == ["h264", "aac"])
    }

    @Test func refusesWhatThePresetCannotWrite() throws {
        let out = Self.output("audio.mov")
        let (status, _, errors) = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["export", try Fixtures.h264AAC().path, out, "--preset", "AppleM4A"])
        #expect(status == 1 && errors.contains("AppleM4A cannot export") && errors.contains(".m4a"), "\(errors)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let unknown = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["export", try Fixtures.h264AAC().path, Self.output("x.mp4"), "--preset", "huge"])
        #expect(unknown.0 != 0 && unknown.2.contains("unknown --preset huge"))
    }

    @Test func showsProgressOnATerminal() throws {
        // `script` gives the command a pseudo-terminal, as a user's shell does.
        let out = Self.output("terminal.mp4")
        let command = "\(try ProbeCommandTests.openav.path) export \(try Self.long().path) \(out) --preset 640x480 --duration 10"
        let (status, output, errors) = try ProbeCommandTests.run(URL(fileURLWithPath: "/usr/bin/script"), ["-qfec", command, "/dev/null"])
        try #require(status == 0, "\(output) \(errors)")
        // Redrawn lines: a percentage and a bar, then speed and time left once under way.
        #expect(output.contains("%") && output.contains("["), "\(output)")
        #expect(output.range(of: #"\d+\.\dx  \d+:\d\d left"#, options: .regularExpression) != nil, "\(output)")
        #expect(output.contains("\(out): 640x480,"))
    }

    @Test func ctrlCCancelsAndLeavesNoFile() throws {
        let out = Self.output("interrupted.mp4")
        let process = Process()
        process.executableURL = try ProbeCommandTests.openav
        process.arguments = ["export", try Self.long().path, out, "--preset", "HighestQuality"]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        // Interrupt once the export has written something (a file's growth gives no notice: its
        // size is polled).
        _ = pollUntil(timeout: 60) {
            !process.isRunning || ((try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0) >= 100_000
        }
        try #require(process.isRunning, "the export ended before it could be interrupted")
        let interrupted = Date()
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(interrupted) < 3)
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .exit && process.terminationStatus == 1)
        #expect(text.contains("cancelled"), "\(text)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
