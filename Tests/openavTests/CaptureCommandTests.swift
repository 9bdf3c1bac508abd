import Foundation
import Testing
import TestSupport

/// `openav snapshot` and `openav devices` run as a user runs them, on the virtual devices
/// (`OPENAV_CAPTURE_DEVICES=virtual`, so that a machine's own camera does not change the
/// outcome), checked with ffprobe.
@Suite(HeavyLoad.Scope(), .timeLimit(.minutes(10))) struct CaptureCommandTests {
    static let virtual = ["OPENAV_CAPTURE_DEVICES": "virtual"]

    static func openav(_ arguments: [String]) throws -> (Int32, String, String) {
        try ProbeCommandTests.run(try ProbeCommandTests.openav, arguments, environment: virtual)
    }

    @Test(arguments: [([String](), 1920, 1080), (["--preset", "vga640x480"], 640, 480),
                      (["--format", "1280x720@60"], 1280, 720), (["--video", "Test Pattern Camera", "--format", "3840x2160"], 3840, 2160)])
    func snapshotWritesAJPEGOfTheCamerasFormat(options: [String], width: Int, height: Int) throws {
        let path = ConvertCommandTests.output("snapshot.jpg")
        let (status, output, errors) = try Self.openav(["snapshot", path] + options)
        try #require(status == 0, "openav snapshot failed: \(errors)")
        #expect(output.contains("\(width)x\(height)") && output.contains("Test Pattern Camera"))

        let image = try DecodedImage(URL(fileURLWithPath: path))
        #expect(image.codec == "mjpeg" && image.width == width && image.height == height)
        #expect(image.tags["Model"] == "OpenAV Test Pattern Camera" && image.tags["PixelXDimension"] == "\(width)")
        // ffmpeg decodes the whole picture.
        #expect(image.luma.count == width * height)
    }

    @Test func snapshotNeverOverwritesAndExplainsBadRequests() throws {
        let path = ConvertCommandTests.output("precious.jpg")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: path))
        let (status, _, errors) = try Self.openav(["snapshot", path])
        #expect(status != 0 && errors.contains("exists"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("precious".utf8))

        let fresh = ConvertCommandTests.output("never.jpg")
        let refused: [([String], String)] = [
            (["--video", "No Such Camera"], "no camera"),
            (["--format", "123x45"], "no 123x45 format"),
            (["--format", "3840x2160@60"], "cannot deliver"),
            (["--format", "wide"], "--format"),
            (["--preset", "huge"], "--preset"),
            (["--preset", "high", "--format", "640x480"], "not both"),
        ]
        for (options, message) in refused {
            let (status, _, errors) = try Self.openav(["snapshot", fresh] + options)
            #expect(status != 0 && errors.contains(message), "\(options): \(errors)")
        }
        #expect(try Self.openav(["snapshot", ConvertCommandTests.output("picture.png")]).0 != 0)
        #expect(!FileManager.default.fileExists(atPath: fresh))
    }

    @Test func devicesListsTheVirtualDevicesWithTheirFormats() throws {
        let (status, output, errors) = try Self.openav(["devices", "--json"])
        try #require(status == 0, "openav devices failed: \(errors)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let devices = try #require(report["devices"] as? [[String: Any]])
        #expect(devices.map { $0["uniqueID"] as? String }
            == ["openav-virtual-test-pattern-camera", "openav-virtual-test-tone-microphone"])
        let camera = devices[0]
        #expect(camera["localizedName"] as? String == "Test Pattern Camera" && camera["isDefault"] as? Bool == true)
        let formats = try #require(camera["formats"] as? [[String: Any]])
        // Every pixel format at every size, with its frame rate range.
        let expected: [(Int, Int, Double)] = [(640, 480, 240), (1280, 720, 240), (1920, 1080, 60), (3840, 2160, 30)]
        #expect(formats.count == expected.count * 3)
        for (width, height, maxRate) in expected {
            let sized = formats.filter { $0["width"] as? Int == width && $0["height"] as? Int == height }
            #expect(Set(sized.compactMap { $0["mediaSubType"] as? String }) == ["420v", "420f", "BGRA"])
            for format in sized {
                let ranges = format["frameRateRanges"] as? [[String: Double]]
                #expect(ranges == [["minFrameRate": 1, "maxFrameRate": maxRate]], "\(width)x\(height)")
            }
        }
        let microphone = try #require(devices[1]["formats"] as? [[String: Any]])
        #expect(!microphone.isEmpty && microphone.allSatisfy { $0["mediaSubType"] as? String == "lpcm" && $0["sampleRate"] != nil })

        let (textStatus, text, _) = try Self.openav(["devices"])
        #expect(textStatus == 0)
        #expect(text.contains("Test Pattern Camera  [openav-virtual-test-pattern-camera]  camera"))
        #expect(text.contains("'420v'  3840x2160  1-30 fps") && text.contains("'BGRA'  640x480  1-240 fps"))
        #expect(text.contains("Test Tone Microphone"))
    }
}
