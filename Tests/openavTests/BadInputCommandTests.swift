import Foundation
import Testing
import TestSupport

/// Every command over every damaged file in `Tests/Fixtures/BadInput`: each ends by itself (no
/// trap, no hang) with a result or an "Error:" line, and a failed command leaves no file.
@Suite(.timeLimit(.minutes(10))) struct BadInputCommandTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/BadInput")

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasSuffix(".md") }.sorted()
    }

    /// Runs openav with `arguments`, killing it after `limit` seconds; how it ended and its
    /// standard error, or nil when it had to be killed. Waits for its termination handler without
    /// blocking, so that it holds none of the few threads the test runner's tasks share.
    static func run(_ arguments: [String], limit: TimeInterval = 60) async throws -> (reason: Process.TerminationReason, status: Int32, errors: String)? {
        let process = Process()
        process.executableURL = try ProbeCommandTests.openav
        process.arguments = arguments
        let log = Fixtures.folder.appendingPathComponent("\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let errors = try FileHandle(forWritingTo: log)
        defer { try? errors.close() }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        if await !process.exits(within: limit) {
            process.terminate()
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        return (process.terminationReason, process.terminationStatus, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }

    @Test func theFolderHasFiles() {
        #expect(Self.files.count >= 4)
    }

    @Test(arguments: files) func everyCommandEndsCleanly(_ name: String) async throws {
        try await Self.sweep(Self.folder.appendingPathComponent(name).path, name: name)
    }

    /// The kinds of real-world file issue 40 found (made by ffmpeg at test time), through the
    /// same sweep.
    @Test(arguments: RealWorldFixtures.kinds.map(\.name)) func everyCommandEndsCleanlyOnRealWorldFiles(_ name: String) async throws {
        let make = try #require(RealWorldFixtures.kinds.first { $0.name == name }).make
        try await Self.sweep(try make().path, name: name)
    }

    /// Runs every command over `input`: each ends by itself with a result or an "Error:" line,
    /// and a failed command leaves no file.
    static func sweep(_ input: String, name: String) async throws {
        let outputs = ["convert": "out.mp4", "export": "out.mov", "thumbnail": "still.jpg"].mapValues {
            Fixtures.folder.appendingPathComponent("\(UUID().uuidString)-\($0)").path
        }
        let commands: [(String, [String])] = [
            ("probe", ["probe", input]),
            ("thumbnail", ["thumbnail", input, "--at", "1", "--output", outputs["thumbnail"]!]),
            ("convert", ["convert", input, outputs["convert"]!, "--duration", "2"]),
            ("export", ["export", input, outputs["export"]!, "--preset", "640x480"]),
        ]
        for (command, arguments) in commands {
            let result = try #require(try await Self.run(arguments), "openav \(command) \(name) did not end within a minute")
            #expect(result.reason == .exit, "openav \(command) \(name) was killed by a signal")
            #expect(result.status == 0 || (result.status == 1 && result.errors.contains("Error:")),
                    "openav \(command) \(name): status \(result.status), \(result.errors)")
            if result.status != 0, let output = outputs[command] {
                #expect(!FileManager.default.fileExists(atPath: output), "openav \(command) \(name) failed and left \(output)")
            }
        }
    }
}
