import Foundation
import Testing
import TestSupport

/// `openav scan` run as a user runs it, on a picture of a QR code and an EAN-13 code drawn by
/// zint and played by a File Camera (`--video FILE`): each code printed once, its text as ZBar's
/// `zbarimg` reads the same picture (the oracle), its place where it was drawn.
@Suite(.timeLimit(.minutes(3))) struct ScanCommandTests {
    /// A 640x480 picture of a QR code (top left) and an EAN-13 code (bottom right), as PNG.
    static func picture() throws -> URL {
        let folder = Fixtures.folder.appendingPathComponent("scan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let qr = folder.appendingPathComponent("qr.png"), ean = folder.appendingPathComponent("ean.png")
        _ = try Fixtures.run("zint", ["-b", "58", "-d", "openav scan", "--scale=4", "--quietzones", "-o", qr.path])
        _ = try Fixtures.run("zint", ["-b", "13", "-d", "590123412345", "--scale=1", "-o", ean.path])
        let picture = folder.appendingPathComponent("codes.png")
        _ = try Fixtures.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=white:s=640x480", "-i", qr.path, "-i", ean.path,
                                        "-filter_complex", "[0][1]overlay=20:20[a];[a][2]overlay=300:280", "-frames:v", "1", picture.path])
        return picture
    }

    static func scan(_ arguments: [String]) throws -> (Int32, String, String) {
        try CaptureCommandTests.openav(["scan"] + arguments)
    }

    @Test func printsEachCodeOnceAsZBarReadsIt() throws {
        let picture = try Self.picture()
        let oracle = String(decoding: try Fixtures.run("zbarimg", ["--quiet", picture.path]), as: UTF8.self)
            .split(separator: "\n").map(String.init).sorted()
        #expect(oracle == ["EAN-13:5901234123457", "QR-Code:openav scan"])

        let (status, output, errors) = try Self.scan(["--video", picture.path, "--json", "--count", "2"])
        try #require(status == 0, "openav scan failed: \(errors)")
        let lines = output.split(separator: "\n")
        #expect(lines.count == 2, "\(output)")
        var read: [String] = []
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let type = try #require(object["type"] as? String), text = try #require(object["string"] as? String)
            read.append("\(type == "qr" ? "QR-Code" : type == "ean13" ? "EAN-13" : type):\(text)")
            let bounds = try #require(object["bounds"] as? [Double])
            // Where each was drawn, in parts of the picture.
            let drawnX = type == "qr" ? 20.0 / 640 : 300.0 / 640, drawnY = type == "qr" ? 20.0 / 480 : 280.0 / 480
            #expect(bounds.count == 4 && bounds[0] >= drawnX && bounds[0] < drawnX + 0.1 && bounds[1] >= drawnY && bounds[1] < drawnY + 0.1,
                    "\(type) at \(bounds)")
            #expect((object["corners"] as? [[Double]])?.count == 4 && object["time"] is Double)
        }
        #expect(read.sorted() == oracle)

        // One type asked for: only it.
        let (onlyStatus, only, onlyErrors) = try Self.scan(["--video", picture.path, "--types", "ean13", "--count", "1"])
        try #require(onlyStatus == 0, "openav scan --types ean13 failed: \(onlyErrors)")
        #expect(only.hasPrefix("ean13  5901234123457  at ") && only.split(separator: "\n").count == 1, "\(only)")
    }

    @Test func explainsWhatItCannotDo() throws {
        let picture = try Self.picture()
        // Fewer codes than asked for before the time is up.
        let (short, _, shortErrors) = try Self.scan(["--video", picture.path, "--count", "3", "--duration", "2"])
        #expect(short != 0 && shortErrors.contains("read 2 of 3 codes"), "\(shortErrors)")
        let (missing, _, missingErrors) = try Self.scan(["--video", "/nonexistent/codes.png"])
        #expect(missing != 0 && missingErrors.contains("no camera \"/nonexistent/codes.png\""), "\(missingErrors)")
        let text = Fixtures.folder.appendingPathComponent("scan-\(UUID().uuidString).png")
        try Data("not a picture".utf8).write(to: text)
        let (unreadable, _, unreadableErrors) = try Self.scan(["--video", text.path])
        #expect(unreadable != 0 && unreadableErrors.contains("cannot play \(text.path) as a camera"), "\(unreadableErrors)")
        let (unknown, _, unknownErrors) = try Self.scan(["--types", "qr,barcode"])
        #expect(unknown != 0 && unknownErrors.contains("unknown code type barcode"), "\(unknownErrors)")
    }
}
