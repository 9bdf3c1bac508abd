import Foundation
import Testing

/// Media files made by the real `ffmpeg` at test time, and `ffprobe`'s independent view of them.
/// Shared by the test targets (a test-only library target, not part of any product).
public enum Fixtures {
    /// A fresh folder for this test process's files.
    public static let folder: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("openav-fixtures-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Runs a program to completion and returns its standard output; throws when it fails.
    public static func run(_ program: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FixtureError(message: "\(program) \(arguments.joined(separator: " ")) failed: \(errorText)")
        }
        return data
    }

    /// Serializes fixture making: tests run in parallel and may ask for the same file.
    public static let lock = NSLock()

    /// Makes `name` in the fixture folder with `ffmpeg` and the given arguments (inputs and
    /// codec options; the output path is appended), once per test process. The file appears
    /// under its name only when complete. The name is prefixed with a digest of the arguments,
    /// so two tests asking for the same name with different contents get different files.
    public static func make(_ name: String, _ arguments: [String]) throws -> URL {
        lock.lock()
        defer { lock.unlock() }
        let url = folder.appendingPathComponent("\(digest(arguments))-\(name)")
        if !FileManager.default.fileExists(atPath: url.path) {
            let partial = folder.appendingPathComponent("partial-" + url.lastPathComponent)
            _ = try run("ffmpeg", ["-nostdin", "-v", "error", "-y"] + arguments + [partial.path])
            try FileManager.default.moveItem(at: partial, to: url)
        }
        return url
    }

    /// A short stable digest of some arguments (FNV-1a), as hex.
    static func digest(_ arguments: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in arguments.joined(separator: "\u{0}").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    /// `ffprobe -show_format -show_streams` of a file, parsed.
    public static func probe(_ url: URL) throws -> [String: Any] {
        let data = try run("ffprobe", ["-v", "error", "-show_format", "-show_streams", "-of", "json", url.path])
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// A 2 s 320x240 H.264 (with B-frames) + 48 kHz stereo AAC MP4 with an English audio track.
    public static func h264AAC() throws -> URL {
        try make("h264-aac.mp4", [
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
            "-t", "2", "-ac", "2", "-c:v", "libx264", "-bf", "2", "-pix_fmt", "yuv420p",
            "-c:a", "aac", "-metadata:s:a:0", "language=eng",
        ])
    }
}

/// A fixture could not be made: the test fails with ffmpeg's message.
public struct FixtureError: Error, CustomStringConvertible {
    /// What failed, with ffmpeg's own message.
    public let message: String

    /// An error with a message.
    public init(message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
