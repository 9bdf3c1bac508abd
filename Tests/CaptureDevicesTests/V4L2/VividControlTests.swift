import Foundation
import Testing
import OpenCoreMedia
import OpenCoreVideo
@testable import CaptureDevices

extension VividGuestTests {
    /// Controls set through the camera change the captured picture; an unplug mid-stream.
    @Suite(.timeLimit(.minutes(10))) struct ControlTests {
        /// One frame of YUYV 320x180 without vivid's text overlay, with `controls` set.
        static func frame(_ camera: V4L2Camera, _ controls: [String: Int64]) throws -> VividFrame {
            try Vivid.withControls(camera, controls.merging(["osd_text_mode": 2]) { a, _ in a }) {
                try Vivid.capture(camera, try Vivid.format(camera, "YUYV", 320, 180), fps: 30, count: 2) { VividFrame($0) }[1]
            }
        }

        @Test func brightnessChangesThePicture() throws {
            let camera = try Vivid.camera()
            let normal = try Self.frame(camera, [:]).meanLuma
            let bright = try Self.frame(camera, ["brightness": 200]).meanLuma
            let dark = try Self.frame(camera, ["brightness": 60]).meanLuma
            print("mean luma: brightness 60 → \(dark), 128 → \(normal), 200 → \(bright)")
            #expect(bright > normal + 20 && dark < normal - 20, "\(dark) < \(normal) < \(bright)")
            #expect(try camera.value(of: .brightness) == 128, "restored")
        }

        /// Luma at the centres of `count` equal bands along a row or column of `length` samples.
        static func bandCentres(_ line: [UInt8], count: Int) -> [Int] {
            (0..<count).map { Int(line[(2 * $0 + 1) * line.count / (2 * count)]) }
        }

        @Test func horizontalFlipMirrorsTheBars() throws {
            let camera = try Vivid.camera()
            let normal = try Self.frame(camera, [:])
            let flipped = try Self.frame(camera, ["horizontal_flip": 1])
            // 75% colour bars: eight vertical bars, white on the left to black on the right.
            let bars = Self.bandCentres(normal.lumaRow(90), count: 8)
            let flippedBars = Self.bandCentres(flipped.lumaRow(90), count: 8)
            print("bars \(bars), flipped \(flippedBars)")
            #expect(bars[0] - bars[7] > 100, "the bars run from light to dark: \(bars)")
            #expect(zip(flippedBars, bars.reversed()).allSatisfy { abs($0 - $1) <= 3 }, "\(flippedBars) mirrors \(bars)")
            #expect(try camera.value(of: .horizontalFlip) == 0, "restored")
        }

        @Test func verticalFlipTurnsTheBarsUpsideDown() throws {
            let camera = try Vivid.camera()
            // "Horizontal 100% Colorbar": eight horizontal bars, white at the top.
            let pattern = try #require(try camera.control(named: "test_pattern")?.menuItems.first {
                $0.value == "Horizontal 100% Colorbar"
            }?.key)
            let normal = try Self.frame(camera, ["test_pattern": pattern])
            let flipped = try Self.frame(camera, ["test_pattern": pattern, "vertical_flip": 1])
            let bars = Self.bandCentres(normal.lumaColumn(160), count: 8)
            let flippedBars = Self.bandCentres(flipped.lumaColumn(160), count: 8)
            print("bars \(bars), flipped \(flippedBars)")
            #expect(bars[0] - bars[7] > 100, "the bars run from light to dark: \(bars)")
            #expect(zip(flippedBars, bars.reversed()).allSatisfy { abs($0 - $1) <= 3 }, "\(flippedBars) mirrors \(bars)")
        }

        @Test func anUnplugMidStreamIsOneDisconnectedFailureAndAReplugWorks() throws {
            // The second vivid instance: unplugging it leaves /dev/video0 to the other tests.
            let camera = try #require(V4L2Discovery.cameras().first { $0.uniqueID.hasPrefix("platform:vivid-001:") })
            let collector = Collector { VividFrame($0, keepPixels: false) }
            let format = try Vivid.format(camera, "YUYV", 320, 180)
            try camera.start(format: format, frameDuration: CMTime(value: 1, timescale: 30), handler: collector.handler)
            try #require(collector.wait(for: 5, timeout: 20).count >= 5)
            try camera.setValue(1, ofControlNamed: "disconnect")
            #expect(collector.waitForError(timeout: 10).map(\.reason) == [.disconnected], "\(collector.errors)")
            #expect(!camera.isConnected)
            #expect(!camera.isRunning)
            let framesAtFailure = collector.records.count
            camera.stop()
            #expect(collector.records.count == framesAtFailure, "no frame after the failure")
            #expect(collector.errors.count == 1, "the failure is delivered once")
            // vivid plugs the camera back in once its last user has closed it, as the camera did
            // on stopping: discovery finds it connected again and it streams.
            #expect(V4L2Discovery.cameras().contains { $0 === camera })
            #expect(camera.isConnected)
            let again = try Vivid.capture(camera, format, fps: 30, count: 3) { VividFrame($0, keepPixels: false) }
            #expect(again.first?.sequenceNumber == 0)
        }
    }
}
