import Foundation
import Testing
import TestSupport

/// `openav convert` run as a user runs it, checked with ffprobe; and a fragmented movie whose
/// writer is killed mid-file.
@Suite(HeavyLoad.Scope(), .timeLimit(.minutes(10))) struct ConvertCommandTests {
    static func output(_ name: String) -> String {
        Fixtures.folder.appendingPathComponent("\(UUID().uuidString)-\(name)").path
    }

    static func streams(_ path: String) throws -> [[String: Any]] {
        try #require(try Fixtures.probe(URL(fileURLWithPath: path))["streams"] as? [[String: Any]])
    }

    @Test func reencodesAndCopies() throws {
        let source = try Fixtures.h264AAC()
        let encoded = Self.output("encoded.mp4")
        let (status, _, errors) = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["convert", source.path, encoded, "--video", "hevc"])
        try #require(status == 0, "\(errors)")
        #expect(errors.isEmpty, "the library printed: \(errors)")
        let streams = try Self.streams(encoded)
        #expect(streams.map { $0["codec_name"] as? String } == ["hevc", "aac"])
        #expect(streams[0]["codec_tag_string"] as? String == "hvc1")

        let copied = Self.output("copied.mov")
        #expect(try ProbeCommandTests.run(try ProbeCommandTests.openav, ["convert", source.path, copied, "--video", "copy", "--audio", "copy"]).0 == 0)
        let original = try Fixtures.probe(source)["streams"] as? [[String: Any]]
        #expect(try Self.streams(copied).map { $0["nb_frames"] as? String } == original?.map { $0["nb_frames"] as? String })

        let trimmed = Self.output("trimmed.m4a")
        #expect(try ProbeCommandTests.run(try ProbeCommandTests.openav, ["convert", source.path, trimmed, "--start", "0.5", "--duration", "1"]).0 == 0)
        let duration = try #require(Double(try Self.streams(trimmed).first?["duration"] as? String ?? ""))
        #expect(abs(duration - 1) < 0.05)
    }

    @Test func refusesWhatItCannotDo() throws {
        let source = try Fixtures.h264AAC()
        let existing = Self.output("existing.mp4")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: existing))
        let (status, _, errors) = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["convert", source.path, existing])
        #expect(status == 1 && errors.contains("does not overwrite"))
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep me")
        let prores = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["convert", source.path, Self.output("p.mp4"), "--video", "prores"])
        #expect(prores.0 == 1 && prores.2.contains("cannot hold prores"))
    }

    /// A source cut short (its header promises four seconds, its data holds about two) is not
    /// converted or exported as if it were whole: both commands fail saying so, re-encoding or
    /// copying, and leave no output behind.
    @Test func aSourceCutShortIsNotConvertedAsIfWhole() throws {
        let whole = try Fixtures.make("cut-short-source.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-f", "lavfi",
                                                               "-i", "sine=sample_rate=48000", "-t", "4", "-c:v", "libx264", "-c:a", "aac",
                                                               "-movflags", "+faststart"])
        let data = try Data(contentsOf: whole)
        let source = Self.output("cut-short.mp4")
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: source))
        let runs: [[String]] = [
            ["convert", source, Self.output("converted.mp4")],
            ["convert", source, Self.output("copied.mov"), "--video", "copy", "--audio", "copy"],
            ["export", source, Self.output("exported.mp4"), "--preset", "LowQuality"],
        ]
        for arguments in runs {
            let (status, _, errors) = try ProbeCommandTests.run(try ProbeCommandTests.openav, arguments)
            #expect(status == 1 && errors.contains("cut short"), "\(arguments[0]): \(errors)")
            #expect(!FileManager.default.fileExists(atPath: arguments[2]), "\(arguments[0]) left \(arguments[2])")
        }
    }

    /// The number of complete `moof` boxes written so far.
    static func fragments(in path: String) -> Int {
        guard let data = FileManager.default.contents(atPath: path) else { return 0 }
        var count = 0, offset = 0
        while offset + 8 <= data.count {
            let size = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
            guard size >= 8, offset + size <= data.count else { break }
            if type == "moof" { count += 1 }
            offset += size
        }
        return count
    }

    @Test func fragmentedMovieSurvivesSIGKILL() throws {
        let source = try Fixtures.make("kill-source.mp4", ["-f", "lavfi", "-i", "testsrc2=size=640x480:rate=30", "-t", "120",
                                                           "-c:v", "libx264", "-preset", "ultrafast", "-g", "30"])
        let killed = Self.output("killed.mp4")
        let process = Process()
        process.executableURL = try ProbeCommandTests.openav
        process.arguments = ["convert", source.path, killed, "--fragment", "1", "--audio", "none"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait for three complete fragments on disk, then kill the writer without warning.
        _ = RecordCommandTests.waitForFragments(3, in: killed, of: process, timeout: 120)
        try #require(process.isRunning, "the conversion ended before it could be killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        // ffprobe opens what is there: at least the three fragments (3 s at 30 fps).
        let frames = try ProbeCommandTests.run(URL(fileURLWithPath: "/usr/bin/ffprobe"), [
            "-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", killed])
        let count = try #require(Int(frames.1.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(count >= 90)
        // And so does openav.
        let probe = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["probe", "--json", killed])
        #expect(probe.0 == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(probe.1.utf8)) as? [String: Any])
        let seconds = try #require((report["duration"] as? [String: Any])?["seconds"] as? Double)
        #expect(seconds >= 3 && abs(seconds - Double(count) / 30) < 0.1)
    }
}
