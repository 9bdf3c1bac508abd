import Foundation
import Testing

/// Debian's headless Chromium, driven through its WebDriver by Selenium
/// (`Tests/Fixtures/Browser/browser.py`), for as long as the value lives. The browser runs at a
/// lower priority than the test, as a visitor's browser would run on another machine.
public final class HeadlessBrowser: @unchecked Sendable {
    /// A screenshot's capture, between two readings of the host clock (`CLOCK_MONOTONIC`).
    public struct Capture {
        /// Nanoseconds just before the screenshot was asked for.
        public let before: UInt64
        /// Nanoseconds just after it arrived.
        public let after: UInt64
    }

    private let process = Process()
    private let input: FileHandle
    private let output: FileHandle

    /// Starts the browser; returns once it runs.
    public init() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Browser/browser.py")
        let toBrowser = Pipe(), fromBrowser = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        process.standardInput = toBrowser
        process.standardOutput = fromBrowser
        // Not the test process's own output, which `swift test` reads until every writer is gone.
        process.standardError = FileHandle.nullDevice
        try process.run()
        input = toBrowser.fileHandleForWriting
        output = fromBrowser.fileHandleForReading
        _ = try answer()
    }

    deinit { quit() }

    /// Closes the browser.
    public func quit() {
        guard process.isRunning else { return }
        try? input.write(contentsOf: Data("{\"op\":\"quit\"}\n".utf8))
        try? input.close()
        process.waitUntilExit()
    }

    /// Loads `url` in the current tab.
    public func open(_ url: URL) throws {
        _ = try send(["op": "open", "url": url.absoluteString])
    }

    /// Runs `script`, a function body, in the page; its `return` value (a promise's result
    /// when it returns one).
    @discardableResult
    public func evaluate(_ script: String) throws -> Any? {
        try send(["op": "eval", "script": script])
    }

    /// Clicks the element with id `id`.
    public func click(_ id: String) throws {
        _ = try send(["op": "click", "id": id])
    }

    /// Evaluates `script` every 50 ms until it returns true (a page's state gives the driver no
    /// notice when it changes); false if `timeout` passed first.
    public func wait(until script: String, timeout: TimeInterval = 20) throws -> Bool {
        try pollUntil(timeout: timeout, every: 0.05) { try evaluate(script) as? Bool == true }
    }

    /// A PNG screenshot of the element with id `id`, written to `file`.
    public func screenshot(of id: String, to file: URL) throws -> Capture {
        let value = try #require(try send(["op": "screenshot", "id": id, "path": file.path]) as? [String: Any])
        return Capture(before: try #require((value["before"] as? NSNumber)?.uint64Value),
                       after: try #require((value["after"] as? NSNumber)?.uint64Value))
    }

    /// `count` tabs load `url`, `open` at a time, each closed once it drew `frames` pictures (or
    /// after two minutes in all); how many pictures each drew.
    public func visitors(_ url: URL, count: Int, open: Int, frames: Int) throws -> [Int] {
        let value = try send(["op": "visitors", "url": url.absoluteString, "count": count, "open": open, "frames": frames])
        return (value as? [NSNumber] ?? []).map(\.intValue)
    }

    private func send(_ command: [String: Any]) throws -> Any? {
        try input.write(contentsOf: JSONSerialization.data(withJSONObject: command) + Data("\n".utf8))
        return try answer()
    }

    private func answer() throws -> Any? {
        var line = Data()
        while let byte = try output.read(upToCount: 1), let first = byte.first, first != 0x0A { line.append(first) }
        guard let reply = try? JSONSerialization.jsonObject(with: line, options: .fragmentsAllowed) as? [String: Any] else {
            throw FixtureError(message: "the browser driver answered \(String(decoding: line, as: UTF8.self).prefix(300))")
        }
        guard reply["ok"] as? Bool == true else {
            throw FixtureError(message: "the browser: \(reply["error"] as? String ?? "failed")")
        }
        return reply["value"] is NSNull ? nil : reply["value"]
    }
}
