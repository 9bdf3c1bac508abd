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

    /// Starts `openav` with `arguments`, its windows on `server`.
    static func launch(_ arguments: [String], on server: XvfbServer) throws -> Process {
        let process = Process()
        process.executableURL = try ProbeCommandTests.openav
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["DISPLAY": server.display]) { _, new in new }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
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
}
