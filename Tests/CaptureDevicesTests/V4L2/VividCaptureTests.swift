import Foundation
import HostSystem
import Testing
import OpenCoreMedia
import OpenCoreVideo
import TestSupport
@testable import CaptureDevices

extension VividGuestTests {
    /// Streaming from vivid: rate and timing, pixels against `v4l2-ctl`'s raw capture, drops.
    @Suite(.timeLimit(.minutes(10))) struct CaptureTests {
        @Test func capturesAtTheSetSizeAndRateOnTheHostClock() throws {
            let camera = try Vivid.camera()
            let startTime = HostClock.now
            let frames = try Vivid.capture(camera, try Vivid.format(camera, "YUYV", 320, 180), fps: 30, count: 60) {
                VividFrame($0, keepPixels: false)
            }
            #expect(!camera.isRunning)
            #expect(frames.allSatisfy { $0.width == 320 && $0.height == 180 })
            #expect(frames.allSatisfy { $0.pixelFormat == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange })
            #expect(frames.allSatisfy { $0.duration == CMTime(value: 1, timescale: 30) })
            #expect(frames[0].sequenceNumber == 0)
            for (previous, next) in zip(frames, frames.dropFirst()) {
                let gap = next.sequenceNumber - previous.sequenceNumber
                #expect(gap == UInt64(next.droppedBefore) + 1, "a sequence gap is exactly the reported drops")
                #expect(next.presentationTime > previous.presentationTime)
            }
            // The frame slots the driver counted over the measured time are the rate's: the slope of
            // arrival time over sequence number (least squares, so that one late frame, such as the
            // first under load, does not decide it) is a thirtieth of a second.
            let slots = Double(frames.last!.sequenceNumber - frames.first!.sequenceNumber)
            let span = Double(frames.last!.arrival - frames.first!.arrival) / 1e9
            let dropped = frames.dropFirst().reduce(0) { $0 + $1.droppedBefore }
            let points = frames.map { (Double($0.sequenceNumber), Double($0.arrival) / 1e9) }
            let (meanX, meanY) = (points.map(\.0).reduce(0, +) / Double(points.count), points.map(\.1).reduce(0, +) / Double(points.count))
            let slope = points.reduce(0) { $0 + ($1.0 - meanX) * ($1.1 - meanY) } / points.reduce(0) { $0 + ($1.0 - meanX) * ($1.0 - meanX) }
            print("vivid 320x180 at 30 fps: \(frames.count) frames, \(dropped) dropped, \(slots) slots in \(span) s, \(1 / slope) fps")
            // The driver itself says which interval the camera was set to (the oracle for the
            // exact rate); the pace measured in the guest only has to be near it, as an emulated
            // guest on a loaded host runs vivid's timer late (27 fps measured under load).
            #expect(try Vivid.v4l2ctl("-d", Vivid.mainPath, "--get-parm").contains("Frames per second: 30.000"))
            #expect(abs(1 / slope - 30) < 6, "\(1 / slope) frames per second measured (\(slots) slots in \(span) s)")
            #expect(frames.count + dropped == Int(slots) + 1)
            // The driver's timestamps span the frame slots (vivid's own jitter under emulation aside).
            let stamped = Double(nanoseconds(frames.last!.presentationTime) - nanoseconds(frames.first!.presentationTime)) / 1e9
            #expect(abs(stamped * 30 - slots) <= slots * 0.1 + 2, "\(slots) frame slots stamped over \(stamped) s")
            // They are host (CLOCK_MONOTONIC) times: after the start, at the frame's arrival (vivid
            // stamps the end of the frame period it fills, up to a frame ahead).
            for frame in frames {
                let time = nanoseconds(frame.presentationTime)
                #expect(time >= Int64(startTime), "time \(time), start \(startTime)")
                #expect(abs(Int64(frame.arrival) - time) < 500_000_000, "time \(time), arrival \(frame.arrival)")
            }
        }

        @Test func rejectsWhatItCannotDoAndRestarts() throws {
            let camera = try Vivid.camera()
            let format = try Vivid.format(camera, "NV12", 640, 480)
            let collector = Collector { VividFrame($0, keepPixels: false) }
            #expect(throws: CaptureDeviceError.self) {
                try camera.start(format: format, frameDuration: CMTime(value: 1, timescale: 60), handler: collector.handler)
            }
            #expect(throws: CaptureDeviceError.self) {
                try camera.start(format: .video(CaptureVideoFormat(pixelFormat: kCVPixelFormatType_32BGRA, width: 800,
                                                                   height: 600, frameRateRanges: [])),
                                 frameDuration: nil, handler: collector.handler)
            }
            try camera.start(format: format, frameDuration: CMTime(value: 1, timescale: 25), handler: collector.handler)
            #expect(camera.isRunning)
            do {
                try camera.start(format: format, frameDuration: nil, handler: collector.handler)
                Issue.record("a second start was accepted")
            } catch {
                #expect(error.reason == .alreadyRunning)
            }
            collector.wait(for: 3, timeout: 20)
            camera.stop()
            camera.stop()
            #expect(!camera.isRunning)
            // The node is free again at once: v4l2-ctl can stream from it.
            _ = try Vivid.v4l2ctl("-d", camera.path, "--stream-mmap", "--stream-count=1", "--stream-to=/dev/null")
            let again = try Vivid.capture(camera, format, fps: 25, count: 2) { VividFrame($0, keepPixels: false) }
            #expect(again.first?.sequenceNumber == 0)
            #expect(again.allSatisfy { $0.width == 640 && $0.height == 480 })
        }

        /// What a raw frame of a V4L2 format must become, plane by plane (`'420v'`: luma, then
        /// interleaved chroma; `'BGRA'`: one plane): YUYV through ffmpeg (4:2:2 to 4:2:0 is a
        /// filter), the others by rearranging bytes, exactly.
        static func expectedPlanes(code: String, raw: [UInt8], width: Int, height: Int, folder: URL) throws -> [[UInt8]] {
            let luma = width * height
            switch code {
            case "YUYV":
                let rawPath = folder.appendingPathComponent("frame.raw").path
                let expected = folder.appendingPathComponent("expected.nv12").path
                try Data(raw).write(to: URL(fileURLWithPath: rawPath))
                _ = try run("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", "yuyv422", "-s", "\(width)x\(height)",
                                       "-i", rawPath, "-f", "rawvideo", "-pix_fmt", "nv12", expected])
                let nv12 = [UInt8](try Data(contentsOf: URL(fileURLWithPath: expected)))
                return [Array(nv12[..<luma]), Array(nv12[luma...])]
            case "NV12":
                return [Array(raw[..<luma]), Array(raw[luma...])]
            case "YU12":
                let quarter = luma / 4
                let cb = raw[luma..<luma + quarter], cr = raw[(luma + quarter)...]
                return [Array(raw[..<luma]), zip(cb, cr).flatMap { [$0, $1] }]
            default:  // RGB3: R, G, B → B, G, R, A
                var bgra: [UInt8] = []
                for pixel in stride(from: 0, to: raw.count, by: 3) {
                    bgra += [raw[pixel + 2], raw[pixel + 1], raw[pixel], 255]
                }
                return [bgra]
            }
        }

        @Test(arguments: ["YUYV", "NV12", "YU12", "RGB3"])
        func convertsV4L2CtlsRawFrameExactlyOrLikeFFmpeg(code: String) throws {
            let camera = try Vivid.camera()
            let (width, height) = (320, 180)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vivid-\(code)-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let rawPath = folder.appendingPathComponent("v4l2-ctl.raw").path
            // Without the text overlay, vivid's colour bars are the same in every frame.
            let frame = try Vivid.withControls(camera, ["osd_text_mode": 2]) { () throws -> VividFrame in
                _ = try Vivid.v4l2ctl("-d", camera.path, "--set-fmt-video=width=\(width),height=\(height),pixelformat=\(code)",
                                      "--stream-mmap", "--stream-count=1", "--stream-to=\(rawPath)")
                return try Vivid.capture(camera, try Vivid.format(camera, code, width, height), fps: 30, count: 2) {
                    VividFrame($0)
                }[1]
            }
            let raw = [UInt8](try Data(contentsOf: URL(fileURLWithPath: rawPath)))
            let isRGB = code == "RGB3"
            let halfBytesPerPixel = ["YUYV": 4, "NV12": 3, "YU12": 3, "RGB3": 6][code]!
            try #require(raw.count == width * height * halfBytesPerPixel / 2, "one whole frame from v4l2-ctl")
            #expect(frame.pixelFormat == (isRGB ? kCVPixelFormatType_32BGRA : kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange))
            let expected = try Self.expectedPlanes(code: code, raw: raw, width: width, height: height, folder: folder)
            try #require(frame.planes.count == expected.count)
            let psnr = zip(frame.planes, expected).map { PixelComparison.psnr($0, $1) }
            print("\(code) → '\(frame.pixelFormat.fourCharacterString)': \(psnr) dB")
            if code == "YUYV" {
                #expect(psnr.allSatisfy { $0 >= 45 }, "\(psnr) dB")
            } else {
                #expect(psnr.allSatisfy { $0 == .infinity }, "\(code) is rearranged exactly: \(psnr) dB")
            }
            // The picture is vivid's bars, not a blank frame: its luma (or green) spans dark to bright.
            let samples = isRGB ? stride(from: 1, to: frame.planes[0].count, by: 4).map { frame.planes[0][$0] } : frame.planes[0]
            #expect((samples.max() ?? 0) - (samples.min() ?? 0) > 100)
        }

        @Test func driverDropsAreReportedAsDrops() throws {
            let camera = try Vivid.camera()
            let frames = try Vivid.withControls(camera, ["percentage_of_dropped_buffers": 40]) {
                try Vivid.capture(camera, try Vivid.format(camera, "YUYV", 320, 180), fps: 30, count: 30) {
                    VividFrame($0, keepPixels: false)
                }
            }
            for (previous, next) in zip(frames, frames.dropFirst()) {
                #expect(next.sequenceNumber - previous.sequenceNumber == UInt64(next.droppedBefore) + 1)
            }
            let dropped = frames.dropFirst().reduce(0) { $0 + $1.droppedBefore }
            let slots = Int(frames.last!.sequenceNumber - frames.first!.sequenceNumber) + 1
            print("vivid dropping 40%: \(dropped) of \(slots) frames reported dropped")
            #expect(Double(dropped) >= 0.2 * Double(slots), "\(dropped) of \(slots) frames reported dropped")
        }
    }
}
