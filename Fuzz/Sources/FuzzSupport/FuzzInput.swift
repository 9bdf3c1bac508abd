import Dispatch
import Foundation

/// One input from libFuzzer, given to a target as a file, since a user's media reaches the
/// framework as a file.
///
/// Each process works in its own folder under the temporary directory: the input is written
/// there, the target runs to its end, and the folder is emptied for the next input.
public enum FuzzInput {
    /// The process's working folder.
    public static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("openav-fuzz-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }()

    /// Writes the `count` bytes at `bytes` to a file, runs `body` with its URL until it ends,
    /// and clears the folder. libFuzzer calls targets on its own thread, so blocking it on the
    /// target's task is what keeps one input at a time.
    public static func run(_ bytes: UnsafePointer<UInt8>, _ count: Int, _ body: @escaping @Sendable (URL) async -> Void) {
        let input = folder.appendingPathComponent("input")
        _ = FileManager.default.createFile(atPath: input.path, contents: Data(bytes: bytes, count: count))
        let done = DispatchSemaphore(value: 0)
        Task {
            await body(input)
            done.signal()
        }
        done.wait()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    /// Stops the process, so libFuzzer records the input, when the framework broke a promise
    /// that is not a crash (a failed export that left its file behind, for instance).
    public static func finding(_ message: String) -> Never {
        fatalError("finding: \(message)")
    }
}
