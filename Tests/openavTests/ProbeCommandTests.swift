import Foundation
import Testing
import TestSupport

/// `openav probe` run as a user runs it, on files ffmpeg made, checked against ffprobe.
@Suite(.timeLimit(.minutes(10))) struct ProbeCommandTests {
    /// The built `openav` next to the test bundle (SwiftPM builds it because this target depends
    /// on it).
    static var openav: URL {
        get throws {
            let folder = try #require(Bundle.main.executableURL).deletingLastPathComponent()
            let candidates = [folder, folder.deletingLastPathComponent()].map { $0.appendingPathComponent("openav") }
            return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) },
                                "openav was not built beside the tests in \(folder.path)")
        }
    }

    /// Runs a program, with `environment` added to this process's; returns its exit status,
    /// standard output and standard error.
    static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, out, err)
    }

    static func makeClip() throws -> URL {
        try Fixtures.make("probe-clip.mov", ["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-f", "lavfi",
                                             "-i", "sine=sample_rate=44100", "-t", "1.5", "-c:v", "libx264", "-c:a", "aac"])
    }

    @Test func jsonAgreesWithFFprobe() throws {
        let clip = try Self.makeClip()
        let (status, output, errors) = try Self.run(try Self.openav, ["probe", "--json", clip.path])
        try #require(status == 0, "openav failed: \(errors)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let tracks = try #require(report["tracks"] as? [[String: Any]])

        let (_, probeOutput, _) = try Self.run(URL(fileURLWithPath: "/usr/bin/ffprobe"),
                                               ["-v", "error", "-show_streams", "-of", "json", clip.path])
        try #require(!probeOutput.isEmpty)
        let probe = try #require(try JSONSerialization.jsonObject(with: Data(probeOutput.utf8)) as? [String: Any])
        let streams = try #require(probe["streams"] as? [[String: Any]])

        #expect(tracks.count == streams.count)
        for (track, stream) in zip(tracks, streams) {
            let id = (stream["id"] as? String).flatMap { Int($0.dropFirst(2), radix: 16) }
            #expect(track["trackID"] as? Int == id)
            if stream["codec_type"] as? String == "video" {
                #expect(track["mediaType"] as? String == "vide")
                #expect(track["width"] as? Int == stream["width"] as? Int)
                #expect(track["height"] as? Int == stream["height"] as? Int)
                #expect(track["codec"] as? String == "avc1")
            } else {
                #expect(track["mediaType"] as? String == "soun")
                #expect(track["sampleRate"] as? Int == Int(stream["sample_rate"] as? String ?? ""))
                #expect(track["channels"] as? Int == stream["channels"] as? Int)
                #expect(track["codec"] as? String == "aac ")
            }
        }
        let duration = try #require((report["duration"] as? [String: Any])?["seconds"] as? Double)
        #expect(abs(duration - 1.5) < 0.05)
    }

    @Test func textNamesEveryTrack() throws {
        let clip = try Self.makeClip()
        let (status, output, _) = try Self.run(try Self.openav, ["probe", clip.path])
        #expect(status == 0)
        #expect(output.contains("tracks: 2"))
        #expect(output.contains("640x360") && output.contains("44100 Hz"))
    }

    @Test func chaptersAreListed() throws {
        let clip = try ChapteredClip.make("mp4")
        let (status, output, _) = try Self.run(try Self.openav, ["probe", clip.path])
        #expect(status == 0)
        let expected = try ChapteredClip.probe(clip).map { String(format: "%.3f–%.3f s ", $0.start, $0.end) + $0.title }
        #expect(output.contains("chapters: \(expected.count)") && expected.allSatisfy(output.contains), "\(output)")
        let (_, json, _) = try Self.run(try Self.openav, ["probe", "--json", clip.path])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect((report["chapters"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ChapteredClip.chapters.map(\.title))
    }

    @Test func probesAFileOnAWebServerAndSaysWhatTheServerAnswered() throws {
        let clip = try Self.makeClip()
        let server = try MediaHTTPServer(root: clip.deletingLastPathComponent())
        let (status, output, _) = try Self.run(try Self.openav, ["probe", server.url(clip.lastPathComponent).absoluteString])
        #expect(status == 0)
        #expect(output.contains("tracks: 2") && output.contains("640x360") && output.contains("44100 Hz"), "\(output)")
        let missing = try Self.run(try Self.openav, ["probe", server.url("missing.mp4").absoluteString])
        #expect(missing.0 == 1 && missing.2.contains("404"), "\(missing.2)")
    }

    @Test func thumbnailsMatchTheirTimesAndNeverOverwrite() throws {
        let clip = try Self.makeClip()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openav-thumbs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("thumb.png").path
        let (status, printed, errors) = try Self.run(try Self.openav, ["thumbnail", clip.path, "--at", "0", "--count", "3",
                                                                       "--output", output, "--max-width", "320"])
        try #require(status == 0, "openav thumbnail failed: \(errors)")
        #expect(printed.split(separator: "\n").count == 3)
        for number in 1...3 {
            let path = folder.appendingPathComponent("thumb-\(number).png").path
            let (probeStatus, probe, _) = try Self.run(URL(fileURLWithPath: "/usr/bin/ffprobe"), [
                "-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", path])
            #expect(probeStatus == 0)
            #expect(probe.trimmingCharacters(in: .whitespacesAndNewlines) == "png,320,180")
        }
        // A second run refuses to overwrite.
        let (again, _, refusal) = try Self.run(try Self.openav, ["thumbnail", clip.path, "--count", "3", "--output", output])
        #expect(again == 1 && refusal.contains("not overwriting"))
        let jpeg = folder.appendingPathComponent("one.jpg").path
        #expect(try Self.run(try Self.openav, ["thumbnail", clip.path, "--at", "1", "--output", jpeg]).0 == 0)
        #expect(FileManager.default.fileExists(atPath: jpeg))
    }

    @Test func unreadableFileFailsWithAClearMessage() throws {
        let (status, output, errors) = try Self.run(try Self.openav, ["probe", "/nonexistent/clip.mov"])
        #expect(status == 1)
        #expect(output.isEmpty)
        #expect(errors.contains("cannot open /nonexistent/clip.mov: No such file or directory"))
        #expect(!errors.contains("Usage"))
    }
}
