import Foundation

/// The tests' local HTTP server (`Tests/Fixtures/Server/media_http_server.py`, Python's
/// `http.server` with byte ranges and faults on request) serving a folder on loopback, for as
/// long as the value lives (a static one: until the test process ends).
public final class MediaHTTPServer: @unchecked Sendable {
    private let process: Process
    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// The folder it serves.
    public let root: URL

    /// Starts serving `root`; returns once the server listens.
    public init(root: URL) throws {
        self.root = root
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Server/media_http_server.py")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, root.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        // Not the test process's own output, which `swift test` reads until every writer is gone.
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line is the port, written once the socket listens.
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 0x0A {
            line.append(first)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw FixtureError(message: "the test HTTP server did not start")
        }
        self.port = port
    }

    deinit { stop() }

    /// Stops the server; connections under way are cut.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// How many `stall/` requests the server has answered with half their bytes and left
    /// waiting, since it started.
    public func stalledRequests() throws -> Int {
        // Foundation on Linux fetches no http URL without FoundationNetworking: Python does.
        let text = String(decoding: try Fixtures.run("python3", ["-c", "import urllib.request,sys; sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode())",
                                                                 url("stalled").absoluteString]), as: UTF8.self)
        guard let count = Int(text) else { throw FixtureError(message: "the server's stalled count is \(text)") }
        return count
    }

    /// What the server has sent since it started: the requests for files it answered, the
    /// bytes of their bodies the clients took, and the requests by path (with a leading "/").
    public func transferred() throws -> (requests: Int, bytes: Int, paths: [String: Int]) {
        let data = try Fixtures.run("python3", ["-c", "import urllib.request,sys; sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode())",
                                                url("transferred").absoluteString])
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let requests = object["requests"] as? Int, let bytes = object["bytes"] as? Int, let paths = object["paths"] as? [String: Int]
        else { throw FixtureError(message: "the server's transfer count is \(String(decoding: data, as: UTF8.self))") }
        return (requests, bytes, paths)
    }

    /// The URL of `path` (relative to the root, or with a fault prefix such as "stall/").
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(path)")!
    }
}
