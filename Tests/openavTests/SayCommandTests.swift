import Foundation
import Testing
import TestSupport

/// `openav say --output` run as a user runs it: the file checked with ffprobe, its samples
/// against the `espeak-ng` command's for the same voice, rate and text.
@Suite(.timeLimit(.minutes(2))) struct SayCommandTests {
    static let sentence = "The quick brown fox jumps over the lazy dog."

    /// A program's standard output as bytes.
    static func output(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }

    /// 16-bit samples of raw little-endian PCM bytes.
    static func samples(_ data: Data) -> [Int16] {
        data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// A fresh process's first synthesis is espeak-ng's own, sample for sample: the WAV at rate
    /// 0.25 (128 words a minute) holds exactly the samples `espeak-ng -s 128 --stdout` writes.
    @Test func writesAWAVWithEspeakNGsSamples() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("openav-say-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: url) }
        let (status, _, errors) = try ProbeCommandTests.run(try ProbeCommandTests.openav,
                                                            ["say", "--voice", "en", "--rate", "0.25", "--output", url.path, Self.sentence])
        #expect(status == 0, "\(errors)")
        let probe = String(decoding: try Self.output(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name,sample_rate,channels",
                                                       "-of", "compact=p=0", url.path]), as: UTF8.self)
        #expect(probe.trimmingCharacters(in: .whitespacesAndNewlines) == "codec_name=pcm_s16le|sample_rate=22050|channels=1")
        let ours = Self.samples(try Self.output(["ffmpeg", "-v", "error", "-i", url.path, "-f", "s16le", "-"]))
        let theirs = Self.samples(try Self.output(["espeak-ng", "-v", "en", "-s", "128", "--stdout", Self.sentence]).dropFirst(44))
        #expect(!ours.isEmpty)
        #expect(ours == theirs, "\(ours.count) samples against espeak-ng's \(theirs.count)")
    }

    @Test func writesAnM4AAndRefusesAnUnknownVoice() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("openav-say-\(UUID().uuidString).m4a")
        defer { try? FileManager.default.removeItem(at: url) }
        let (status, _, _) = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["say", "--output", url.path, "Hello there."])
        #expect(status == 0)
        let probe = String(decoding: try Self.output(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name,channels:format=duration",
                                                       "-of", "compact=p=0", url.path]), as: UTF8.self)
        #expect(probe.contains("codec_name=aac|channels=1"), "\(probe)")
        let (failed, _, errors) = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["say", "--voice", "zz-ZZ", "x"])
        #expect(failed != 0)
        #expect(errors.contains("no voice zz-ZZ"))
    }
}
