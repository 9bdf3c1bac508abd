import Foundation
import Testing
import OpenCoreMedia
import OpenCoreVideo
import TestSupport
@testable import CaptureDevices

extension VividGuestTests {
    /// An H.264 camera: the VM's v4l2loopback node, fed an ffmpeg-made H.264 clip (Annex B, as
    /// UVC H.264 cameras send it) by ffmpeg's v4l2 muxer.
    @Suite struct H264Tests {
        /// The loopback node's card name (`scripts/vivid-vm` loads it so).
        static let cardName = "OpenAV H.264 loopback"
        static let (width, height, frameCount) = (320, 240, 150)

        /// The loopback node's path, from sysfs.
        static func loopbackPath() throws -> String {
            let classFolder = URL(fileURLWithPath: "/sys/class/video4linux")
            for name in try FileManager.default.contentsOfDirectory(atPath: classFolder.path) where name.hasPrefix("video") {
                let card = try String(contentsOf: classFolder.appendingPathComponent("\(name)/name"), encoding: .utf8)
                if card.trimmingCharacters(in: .whitespacesAndNewlines) == cardName { return "/dev/\(name)" }
            }
            throw FixtureError(message: "no V4L2 node named \(cardName)")
        }

        @Test func decodesTheCamerasH264FramesLikeFFmpeg() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("h264-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            // A clip with a distinct picture per frame (testsrc2 draws the frame number), no
            // B-frames and a key frame every half second, as a camera encodes.
            let clip = folder.appendingPathComponent("clip.h264").path
            _ = try run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(Self.width)x\(Self.height):rate=30",
                                   "-frames:v", "\(Self.frameCount)", "-c:v", "libx264", "-preset", "ultrafast",
                                   "-bf", "0", "-g", "15", "-pix_fmt", "yuv420p", "-f", "h264", clip])
            let decodedPath = folder.appendingPathComponent("clip.nv12").path
            _ = try run("ffmpeg", ["-v", "error", "-i", clip, "-f", "rawvideo", "-pix_fmt", "nv12", decodedPath])
            let decoded = [UInt8](try Data(contentsOf: URL(fileURLWithPath: decodedPath)))
            let frameBytes = Self.width * Self.height * 3 / 2
            try #require(decoded.count == frameBytes * Self.frameCount, "ffmpeg decodes every frame of the clip")

            let path = try Self.loopbackPath()
            let feeder = Process()
            feeder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            feeder.arguments = ["ffmpeg", "-v", "error", "-re", "-framerate", "30", "-f", "h264", "-i", clip,
                                "-c:v", "copy", "-f", "v4l2", path]
            feeder.standardInput = FileHandle.nullDevice
            feeder.standardOutput = FileHandle.nullDevice
            feeder.standardError = FileHandle.nullDevice
            try feeder.run()
            defer {
                if feeder.isRunning { feeder.terminate() }
                feeder.waitUntilExit()
            }
            // The loopback offers a capture format once the feeder has set its output format.
            let deadline = Date().addingTimeInterval(10)
            var camera: V4L2Camera?
            while camera == nil, Date() < deadline {
                camera = V4L2Discovery.cameras().first {
                    $0.path == path && $0.videoFormats.contains { $0.v4l2PixelFormat == V4L2PixelFormat.fourCC("H264") }
                }
                if camera == nil { Thread.sleep(forTimeInterval: 0.05) }
            }
            let found = try #require(camera, "discovery lists \(path) with an H.264 format while it is fed")
            let format = try Vivid.format(found, "H264", Self.width, Self.height)
            guard case .video(let videoFormat) = format else {
                Issue.record("the H.264 format is not a video format: \(format)")
                return
            }
            #expect(videoFormat.pixelFormat == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)

            // The capture joins the stream somewhere: frames before its first key frame cannot be
            // decoded and are dropped; every frame delivered is one of the clip's, in order.
            let frames = try Vivid.capture(found, format, fps: 30, count: 20) { VividFrame($0) }
            var previous = -1
            for (index, frame) in frames.enumerated() {
                #expect(frame.width == Self.width && frame.height == Self.height)
                let packed = frame.planes[0] + frame.planes[1]
                let match = (0..<Self.frameCount).first {
                    decoded[$0 * frameBytes..<($0 + 1) * frameBytes].elementsEqual(packed)
                }
                let clipFrame = try #require(match, "delivered frame \(index) equals none of ffmpeg's decoded frames")
                #expect(clipFrame > previous, "delivered frame \(index) is clip frame \(clipFrame), after \(previous)")
                previous = clipFrame
            }
        }
    }
}
