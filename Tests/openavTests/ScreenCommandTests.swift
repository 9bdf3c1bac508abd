import Foundation
import Testing
import TestSupport

/// `openav devices` and `openav record --screen` against a private Xvfb server, run as a user
/// runs them (`DISPLAY` set); ffprobe and ffmpeg judge the files: size, frame rate, duration,
/// streams, and the picture's brightness where the screen was painted.
@Suite(HeavyLoad.Scope(), .timeLimit(.minutes(10))) struct ScreenCommandTests {
    /// Runs `openav` on `xvfb`'s display, with only the virtual cameras and microphones.
    static func openav(_ arguments: [String], on xvfb: XvfbServer) throws -> (Int32, String, String) {
        try ProbeCommandTests.run(try ProbeCommandTests.openav, arguments,
                                  environment: ["DISPLAY": xvfb.display, "OPENAV_CAPTURE_DEVICES": "virtual"])
    }

    @Test func devicesListsTheScreenNextToTheVirtualDevices() throws {
        let xvfb = try XvfbServer(width: 640, height: 480)
        defer { xvfb.stop() }
        let (status, output, errors) = try Self.openav(["devices", "--json"], on: xvfb)
        try #require(status == 0, "openav devices failed: \(errors)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect((report["devices"] as? [[String: Any]])?.count == 2)
        let screens = try #require(report["screens"] as? [[String: Any]])
        #expect(screens.count == 1)
        #expect(screens.first?["display"] as? String == xvfb.display && screens.first?["displayID"] as? Int == 0)
        #expect(screens.first?["width"] as? Int == 640 && screens.first?["height"] as? Int == 480)

        let (textStatus, text, _) = try Self.openav(["devices"], on: xvfb)
        #expect(textStatus == 0)
        #expect(text.contains("Screen \(xvfb.display)  [displayID 0]  screen, 640x480") && text.contains("Test Pattern Camera"), "\(text)")

        // Without a display, no screens.
        let (_, none, _) = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["devices", "--json"],
                                                     environment: ["DISPLAY": "", "OPENAV_CAPTURE_DEVICES": "virtual"])
        let empty = try #require(try JSONSerialization.jsonObject(with: Data(none.utf8)) as? [String: Any])
        #expect((empty["screens"] as? [Any])?.isEmpty == true)
    }

    /// A 320×240 crop at 30 fps for 2 s: ffprobe's size, rate and duration, every frame on the
    /// 1/30 s grid, frames plus reported drops filling the two seconds, no audio unless asked;
    /// the crop's left half (painted white) and right half (black) where they must be.
    @Test func recordsACropOfTheScreen() throws {
        let xvfb = try XvfbServer(width: 640, height: 480)
        defer { xvfb.stop() }
        try xvfb.paint(0x000000, rectangles: [XvfbServer.Rectangle(x: 100, y: 60, width: 160, height: 240, rgb: 0xFFFFFF)])
        let path = ConvertCommandTests.output("screen.mov")
        let (status, output, errors) = try Self.openav(["record", "--screen", xvfb.display, "--crop", "100,60,320,240",
                                                        "--fps", "30", "--no-cursor", "--duration", "2", path], on: xvfb)
        try #require(status == 0, "openav record failed: \(errors)")
        #expect(output.hasPrefix("Recorded 2.00 s to \(path)"), "\(output)")
        let movie = try RecordedMovie(URL(fileURLWithPath: path), width: 320, height: 240)
        #expect(movie.codecs == ["h264"])
        let video = try #require((movie.probe["streams"] as? [[String: Any]])?.first)
        #expect(video["width"] as? Int == 320 && video["height"] as? Int == 240)
        #expect(video["r_frame_rate"] as? String == "30/1")
        #expect(abs(try #require(Double(video["duration"] as? String ?? "")) - 2) <= 1.0 / 30 + 1e-3)
        for frame in movie.frames {
            #expect(abs(frame.time * 30 - (frame.time * 30).rounded()) < 1e-3, "\(frame.time) is off the 1/30 s grid")
        }
        let dropped = try #require(RecordCommandTests.dropped(in: output), "\(output)")
        #expect(movie.frames.count + dropped == 60, "\(movie.frames.count) frames, \(dropped) dropped")
        // Half white, half black: the mean luma lies half way (limited-range H.264 adds a little).
        for frame in movie.frames {
            #expect(abs(frame.meanLuma - 127.5) < 8, "mean luma \(frame.meanLuma) at \(frame.time)")
        }
        let left = try Self.meanLuma(of: path, x: 0, width: 150), right = try Self.meanLuma(of: path, x: 170, width: 150)
        #expect(left > 230 && right < 25, "left \(left), right \(right)")
    }

    /// The whole screen with the Test Tone Microphone: H.264 at the screen's size and AAC.
    @Test func recordsTheScreenWithAMicrophone() throws {
        let xvfb = try XvfbServer(width: 320, height: 240)
        defer { xvfb.stop() }
        try xvfb.paint(0x808080)
        let path = ConvertCommandTests.output("screen-audio.mov")
        let (status, output, errors) = try Self.openav(["record", "--screen", xvfb.display, "--fps", "25",
                                                        "--audio", "Test Tone Microphone", "--duration", "1.5", path], on: xvfb)
        try #require(status == 0, "openav record failed: \(errors)")
        let movie = try RecordedMovie(URL(fileURLWithPath: path), width: 320, height: 240)
        #expect(movie.codecs == ["h264", "aac"], "\(output)")
        let video = try #require((movie.probe["streams"] as? [[String: Any]])?.first)
        #expect(video["width"] as? Int == 320 && video["height"] as? Int == 240 && video["r_frame_rate"] as? String == "25/1")
        #expect(abs((movie.duration ?? 0) - 1.5) < 0.1, "duration \(movie.duration ?? 0)")
        // The grey screen (limited-range luma 126), not a black or garbled picture.
        #expect(!movie.frames.isEmpty && movie.frames.allSatisfy { abs($0.meanLuma - 126) < 8 },
                "mean lumas \(movie.frames.map(\.meanLuma))")
    }

    @Test func explainsBadScreenRequests() throws {
        let xvfb = try XvfbServer(width: 320, height: 240)
        defer { xvfb.stop() }
        let path = ConvertCommandTests.output("never.mov")
        let refused: [([String], String)] = [
            (["--screen", xvfb.display, "--crop", "0,0,101,100"], "even"),
            (["--screen", xvfb.display, "--crop", "200,0,200,100"], "does not fit"),
            (["--screen", xvfb.display, "--crop", "wide"], "--crop must be"),
            (["--screen", xvfb.display, "--fps", "500"], "--fps"),
            (["--screen", ":4999"], "cannot open the X11 display :4999"),
            (["--screen", xvfb.display, "--preset", "high"], "leave out --video"),
            (["--crop", "0,0,100,100"], "go with --screen"),
        ]
        for (options, message) in refused {
            let (status, _, errors) = try Self.openav(["record"] + options + [path], on: xvfb)
            #expect(status != 0 && errors.contains(message), "\(options): \(errors)")
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// The mean luma, over all frames, of a full-height column band of a recorded movie
    /// (decoded by ffmpeg).
    static func meanLuma(of path: String, x: Int, width: Int) throws -> Double {
        let luma = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-map", "0:v:0",
                                               "-vf", "crop=\(width):ih:\(x):0", "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        return luma.isEmpty ? 0 : Double(luma.reduce(0) { $0 + Int($1) }) / Double(luma.count)
    }
}
