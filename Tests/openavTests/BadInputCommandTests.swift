import Foundation
import Testing
import TestSupport

/// Every command over every damaged file in `Tests/Fixtures/BadInput`: each ends by itself (no
/// trap, no hang) with a result or an "Error:" line, and a failed command leaves no file.
@Suite struct BadInputCommandTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/BadInput")

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasSuffix(".md") }.sorted()
    }

    /// Runs openav with `arguments`, killing it after `limit` seconds; how it ended and its
    /// standard error, or nil when it had to be killed.
    static func run(_ arguments: [String], limit: TimeInterval = 60) throws -> (reason: Process.TerminationReason, status: Int32, errors: String)? {
        let process = Process()
        process.executableURL = try ProbeCommandTests.openav
        process.arguments = arguments
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        // Standard error is drained as it comes, so a chatty command never blocks on the pipe.
        let text = TextBox()
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            text.text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            drained.signal()
        }
        if ended.wait(timeout: .now() + limit) == .timedOut {
            process.terminate()
            process.waitUntilExit()
            return nil
        }
        drained.wait()
        return (process.terminationReason, process.terminationStatus, text.text)
    }

    @Test func theFolderHasFiles() {
        #expect(Self.files.count >= 4)
    }

    @Test(arguments: files) func everyCommandEndsCleanly(_ name: String) throws {
        let input = Self.folder.appendingPathComponent(name).path
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
            let result = try #require(try Self.run(arguments), "openav \(command) \(name) did not end within a minute")
            #expect(result.reason == .exit, "openav \(command) \(name) was killed by a signal")
            #expect(result.status == 0 || (result.status == 1 && result.errors.contains("Error:")),
                    "openav \(command) \(name): status \(result.status), \(result.errors)")
            if result.status != 0, let output = outputs[command] {
                #expect(!FileManager.default.fileExists(atPath: output), "openav \(command) \(name) failed and left \(output)")
            }
        }
    }
}

/// Text handed from one thread to another that waits for it.
final class TextBox: @unchecked Sendable {
    var text = ""
}
