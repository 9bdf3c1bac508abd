import Foundation
import Testing
import TestSupport

/// `openav record` from the built-in virtual devices, as a user runs it: stopped by its
/// duration, by Ctrl-C, and killed outright; ffprobe/ffmpeg and the camera's barcodes judge the
/// files.
@Suite(HeavyLoad.Scope(), .timeLimit(.minutes(10))) struct RecordCommandTests {
    /// Starts `openav` with its output collected in files (read once it has exited).
    static func launch(_ arguments: [String]) throws -> (Process, URL, URL) {
        let process = Process()
        process.executableURL = try ProbeCommandTests.openav
        process.arguments = arguments
        let out = URL(fileURLWithPath: ConvertCommandTests.output("stdout.txt"))
        let err = URL(fileURLWithPath: ConvertCommandTests.output("stderr.txt"))
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, out, err)
    }

    /// Waits until the file holds `count` complete movie fragments while the process runs (a
    /// file's growth gives no notice: it is read every 20 ms); whether it did.
    static func waitForFragments(_ count: Int, in path: String, of process: Process, timeout: TimeInterval = 60) -> Bool {
        _ = pollUntil(timeout: timeout) { ConvertCommandTests.fragments(in: path) >= count || !process.isRunning }
        return ConvertCommandTests.fragments(in: path) >= count
    }

    /// The dropped-frame count from the summary line ("…, N dropped, …").
    static func dropped(in summary: String) -> Int? {
        let words = summary.split(separator: " ")
        guard let index = words.firstIndex(where: { $0.hasPrefix("dropped") }), index > 0 else { return nil }
        return Int(words[index - 1])
    }

    @Test func recordsForADurationAndNeverOverwrites() throws {
        let path = ConvertCommandTests.output("two-seconds.mov")
        let (status, output, errors) = try ProbeCommandTests.run(try ProbeCommandTests.openav,
                                                                 ["record", "--duration", "2", "--preset", "vga640x480", path])
        try #require(status == 0, "\(errors)")
        #expect(output.hasPrefix("Recorded 2.00 s to \(path)"), "\(output)")
        #expect(errors.isEmpty, "printed \(errors)")
        let movie = try RecordedMovie(URL(fileURLWithPath: path), width: 640, height: 480)
        #expect(movie.codecs == ["h264", "aac"])
        let video = try #require((movie.probe["streams"] as? [[String: Any]])?.first)
        #expect(abs(try #require(Double(video["duration"] as? String ?? "")) - 2) <= 1.0 / 30 + 1e-3)
        #expect(try #require(movie.skippedIndices, "frame indices increase") == (try #require(Self.dropped(in: output), "\(output)")))

        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let again = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["record", "--duration", "1", path])
        #expect(again.0 == 1 && again.2.contains("exists"), "\(again.2)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    /// `--hls`: beside the movie, a playlist of 2 s fMP4 segments that ffmpeg reads, holding the
    /// same pictures as the movie (the camera's barcodes) and the sound.
    @Test func streamsHTTPLiveStreamingSegmentsBesideTheMovie() throws {
        let path = ConvertCommandTests.output("streamed.mov")
        let folder = ConvertCommandTests.output("stream")
        let (status, output, errors) = try ProbeCommandTests.run(try ProbeCommandTests.openav, [
            "record", "--duration", "10", "--preset", "vga640x480", "--hls", folder, path,
        ])
        try #require(status == 0, "\(errors)")
        let playlist = try String(contentsOfFile: folder + "/index.m3u8", encoding: .utf8)
        let durations = playlist.split(separator: "\n").filter { $0.hasPrefix("#EXTINF:") }
            .compactMap { Double($0.dropFirst("#EXTINF:".count).split(separator: ",")[0]) }
        // The stream's own drops (its encoder behind on a busy machine), which it reports.
        let summary = try #require(output.split(separator: "\n").first { $0.hasPrefix("Streamed 5 segments to \(folder):") }, "\(output)")
        let streamDropped = try #require(Self.dropped(in: String(summary).replacingOccurrences(of: "pictures dropped", with: "dropped")))
        // Key frames every 60 pictures: a picture the stream missed moves the cuts after it by a frame.
        #expect(durations.count == 5 && durations.allSatisfy { abs($0 - 2) <= Double(1 + streamDropped) / 30 + 1e-3 }, "\(playlist)")
        #expect(playlist.hasSuffix("#EXT-X-ENDLIST\n"))
        let stream = try RecordedMovie(URL(fileURLWithPath: folder + "/index.m3u8"), width: 640, height: 480)
        #expect(stream.codecs.prefix(2) == ["h264", "aac"])
        #expect(abs(try #require(stream.duration) - 10) <= 1.0 / 30 + 1e-3)
        // 10 s of the camera's pictures in order: the stream misses what the movie reports
        // dropped (the camera's drops) and what it reports dropped itself, nothing more. It
        // starts at the first picture the session hands on, the movie at the next one.
        let dropped = try #require(Self.dropped(in: output), "\(output)")
        let skipped = try #require(stream.skippedIndices, "frame indices increase")
        #expect(skipped <= dropped + streamDropped, "\(skipped) pictures missing, \(dropped) + \(streamDropped) reported")
        #expect(stream.frames.count == 300 - skipped)
        // Nothing is overwritten: the folder holds a stream now.
        let again = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["record", "--duration", "1", "--hls", folder,
                                                                             ConvertCommandTests.output("other.mov")])
        #expect(again.0 == 1 && again.2.contains("holds a stream already"), "\(again.2)")
    }

    /// A microphone the user named that does not exist is an error, not a silent video-only
    /// movie; no file is left.
    @Test func aNamedMissingMicrophoneFails() throws {
        let path = ConvertCommandTests.output("no-such-microphone.mov")
        let (status, output, errors) = try ProbeCommandTests.run(
            try ProbeCommandTests.openav, ["record", "--audio", "No Such Microphone", "--duration", "1", path])
        #expect(status == 1 && output.isEmpty)
        #expect(errors.contains("no microphone \"No Such Microphone\""), "\(errors)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func ctrlCFinishesThePlayableFile() throws {
        let path = ConvertCommandTests.output("interrupted.mov")
        let (process, out, err) = try Self.launch(["record", "--preset", "vga640x480", "--fragment", "1", path])
        try #require(Self.waitForFragments(1, in: path, of: process), "no fragment was written")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let output = try String(contentsOf: out, encoding: .utf8), errors = try String(contentsOf: err, encoding: .utf8)
        #expect(process.terminationStatus == 0, "\(errors)")
        #expect(output.hasPrefix("Recorded "), "\(output)")
        let movie = try RecordedMovie(URL(fileURLWithPath: path), width: 640, height: 480)
        #expect(movie.frames.count >= 30)
        #expect(try #require(movie.skippedIndices, "frame indices increase") == (try #require(Self.dropped(in: output), "\(output)")))
        #expect(movie.codecs == ["h264", "aac"])
    }

    @Test func sigkillLeavesEverythingUpToTheLastFragment() throws {
        let path = ConvertCommandTests.output("killed.mov")
        let (process, _, _) = try Self.launch(["record", "--preset", "vga640x480", "--fragment", "1", path])
        try #require(Self.waitForFragments(3, in: path, of: process), "three fragments were not written")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        let movie = try RecordedMovie(URL(fileURLWithPath: path), width: 640, height: 480)
        // Three one-second fragments, whatever was dropped among them.
        let indices = movie.frames.compactMap(\.index)
        try #require(indices.count == movie.frames.count && !indices.isEmpty, "every frame's barcode reads")
        #expect(movie.skippedIndices != nil, "frame indices increase")
        #expect(indices.last! - indices.first! + 1 >= 88, "\(movie.frames.count) frames, indices \(indices.first!)…\(indices.last!)")
        #expect((movie.frames.last?.time ?? 0) >= 2.9)
    }
}
