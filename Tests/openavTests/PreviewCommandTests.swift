import CaptureDevices
import Foundation
import Testing
import TestSupport

/// `openav preview` and `openav record --preview` on a private Xvfb, as a user runs them: the
/// window's picture, grabbed by ffmpeg, carries the Test Pattern Camera's frame index; a
/// recording shown in a window misses no frame.
@Suite(.serialized, HeavyLoad.Scope(), .timeLimit(.minutes(10))) struct PreviewCommandTests {
    /// The frame index in ffmpeg's grab of `width`×`height` pixels at (`x`, `y`) of `server`'s
    /// screen; nil when the grab shows no camera picture.
    static func frameIndex(on server: XvfbServer, x: Int, y: Int, width: Int, height: Int) throws -> Int? {
        let grab = try server.grab(x: x, y: y, width: width, height: height, pixelFormat: "bgra")
        return grab.withUnsafeBytes { FrameIndexBarcode.read(bgra: $0, width: width, height: height, bytesPerRow: width * 4) }
    }

    /// Grabs until the window shows a camera picture (at most 10 s while `process` runs); the
    /// frame indices read, in order.
    static func framesShown(on server: XvfbServer, by process: Process, count: Int) throws -> [Int] {
        var shown: [Int] = []
        let deadline = Date().addingTimeInterval(10)
        while shown.count < count && process.isRunning && Date() < deadline {
            // The 640x480 window is centred on the 1280x720 screen.
            if let index = try frameIndex(on: server, x: 320, y: 120, width: 640, height: 480), index != shown.last { shown.append(index) }
        }
        return shown
    }

    /// Starts `openav` with `arguments`, its windows on `server` (its output to `output`).
    static func launch(_ arguments: [String], on server: XvfbServer, output: Any = FileHandle.nullDevice) throws -> Process {
        let process = Process()
        process.executableURL = try ProbeCommandTests.openav
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["DISPLAY": server.display]) { _, new in new }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test func previewShowsTheCameraUntilInterrupted() throws {
        let server = try XvfbServer(width: 1280, height: 720)
        defer { server.stop() }
        let process = try Self.launch(["preview", "--format", "640x480", "--audio", "none"], on: server)
        let shown = try Self.framesShown(on: server, by: process, count: 3)
        #expect(shown.count == 3 && shown == shown.sorted(), "frames shown: \(shown)")
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }

    @Test func previewWithoutADisplaySaysSo() throws {
        let (status, _, errors) = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["preview", "--audio", "none"],
                                                            environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
        #expect(status == 1 && errors.contains("cannot show the camera: no display"), "\(errors)")
    }

    @Test func aRecordingShownInAWindowMissesNoFrame() throws {
        let server = try XvfbServer(width: 1280, height: 720)
        defer { server.stop() }
        let path = ConvertCommandTests.output("previewed.mov")
        let process = try Self.launch(["record", "--preview", "--duration", "3", "--format", "640x480", "--audio", "none", path], on: server)
        let shown = try Self.framesShown(on: server, by: process, count: 3)
        #expect(shown.count == 3, "frames shown while recording: \(shown)")
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let movie = try RecordedMovie(URL(fileURLWithPath: path), width: 640, height: 480)
        #expect(movie.frames.count >= 85 && movie.skippedIndices == 0, "\(movie.frames.count) frames, \(String(describing: movie.skippedIndices)) skipped")
    }

    /// `--codes`: zint's QR code and EAN-13 code, played by a File Camera, are printed once each,
    /// and outlined in green just outside where the window shows the QR code's modules (within
    /// 3 px of 4 px out).
    @Test func previewOutlinesAndPrintsTheCodesItSees() throws {
        let server = try XvfbServer(width: 1280, height: 720)
        defer { server.stop() }
        let picture = try ScanCommandTests.picture()
        let pipe = Pipe()
        let printed = PrintedText()
        pipe.fileHandleForReading.readabilityHandler = { handle in printed.append(handle.availableData) }
        let process = try Self.launch(["preview", "--video", picture.path, "--audio", "none", "--codes"], on: server, output: pipe)
        defer {
            if process.isRunning { process.interrupt() }
            process.waitUntilExit()
            pipe.fileHandleForReading.readabilityHandler = nil
        }

        // The 640x480 window centred on the screen; the QR code in its top left quarter.
        func boxes(_ bgra: [UInt8]) -> (dark: CGRect?, green: CGRect?) {
            var dark = (Int.max, Int.max, -1, -1), green = (Int.max, Int.max, -1, -1)
            func add(_ box: inout (Int, Int, Int, Int), _ x: Int, _ y: Int) {
                box = (min(box.0, x), min(box.1, y), max(box.2, x), max(box.3, y))
            }
            for y in 0..<240 {
                for x in 0..<300 {
                    let (b, g, r) = (bgra[(y * 640 + x) * 4], bgra[(y * 640 + x) * 4 + 1], bgra[(y * 640 + x) * 4 + 2])
                    if r < 80 && g < 80 && b < 80 { add(&dark, x, y) }
                    if g > 200 && r < 80 && b < 80 { add(&green, x, y) }
                }
            }
            func rect(_ box: (Int, Int, Int, Int)) -> CGRect? {
                box.2 < 0 ? nil : CGRect(x: box.0, y: box.1, width: box.2 - box.0 + 1, height: box.3 - box.1 + 1)
            }
            return (rect(dark), rect(green))
        }
        let deadline = Date().addingTimeInterval(15)
        var found: (dark: CGRect?, green: CGRect?) = (nil, nil)
        while (found.green == nil || !printed.text.contains("ean13")) && process.isRunning && Date() < deadline {
            found = boxes(try server.grab(x: 320, y: 120, width: 640, height: 480, pixelFormat: "bgra"))
        }
        let dark = try #require(found.dark, "no code shown"), green = try #require(found.green, "no outline shown")
        let expected = dark.insetBy(dx: -4, dy: -4)
        #expect(abs(green.minX - expected.minX) <= 3 && abs(green.minY - expected.minY) <= 3
                    && abs(green.maxX - expected.maxX) <= 3 && abs(green.maxY - expected.maxY) <= 3,
                "outline \(green) around the code's modules at \(dark)")
        let lines = printed.text.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("qr  openav scan  at ") }.count == 1 && lines.filter { $0.hasPrefix("ean13  5901234123457  at ") }.count == 1,
                "printed: \(lines)")
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }
}

/// What a process printed so far, as its output arrives.
final class PrintedText: @unchecked Sendable {
    private let lock = NSLock()
    private var printed = ""

    var text: String { lock.withLock { printed } }

    func append(_ data: Data) {
        lock.withLock { printed += String(decoding: data, as: UTF8.self) }
    }
}
