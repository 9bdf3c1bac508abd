import CaptureDevices
import Foundation

/// A camera that sends H.264, inside `scripts/vivid-vm`: the VM's v4l2loopback node, fed by
/// ffmpeg's v4l2 muxer with a `DecodedClip` (5 s, a key frame every 15 frames), looped, in
/// Annex B form, at 30 fps; the clip's decode is the oracle.
///
/// One feeder serves every test of the process (`shared()`), running until the VM ends:
/// v4l2loopback does not offer its capture format again to a second writer once the first has
/// gone. The clip is MPEG-TS, which keeps H.264 in Annex B form and, unlike a raw H.264 file,
/// lets ffmpeg loop it.
public final class H264LoopbackCamera: @unchecked Sendable {
    /// The loopback node's card name (`scripts/vivid-vm` loads it so).
    public static let cardName = "OpenAV H.264 loopback"

    /// The node, such as `/dev/video2`.
    public let path: String
    /// The clip the camera sends, and ffmpeg's decode of it.
    public let clip: DecodedClip
    private let feeder = Process()

    private static let made = Result { try H264LoopbackCamera() }

    /// The camera, fed from its first use on; throws when it cannot be made.
    public static func shared() throws -> H264LoopbackCamera { try made.get() }

    /// Makes the clip and its decode, and starts feeding the node; returns once the node offers
    /// its H.264 capture format (it does so only while fed).
    private init() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("h264-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        clip = try DecodedClip(folder.appendingPathComponent("clip.ts"), frameCount: 150, keyFrameInterval: 15,
                               format: "mpegts")
        path = try Self.loopbackPath()
        feeder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        feeder.arguments = ["ffmpeg", "-nostdin", "-v", "error", "-re", "-stream_loop", "-1", "-i", clip.url.path,
                            "-c:v", "copy", "-f", "v4l2", path]
        feeder.standardInput = FileHandle.nullDevice
        feeder.standardOutput = FileHandle.nullDevice
        feeder.standardError = FileHandle.nullDevice
        try feeder.run()
        // The node gives no notice when its formats change: they are polled.
        let offered = pollUntil(timeout: 10, every: 0.05) {
            V4L2Discovery.cameras().contains {
                $0.path == path && $0.videoFormats.contains { $0.v4l2PixelFormat == V4L2PixelFormat.fourCC("H264") }
            }
        }
        guard offered else {
            feeder.terminate()
            feeder.waitUntilExit()
            throw FixtureError(message: "\(path) offers no H.264 format 10 s after ffmpeg began feeding it")
        }
    }

    /// The loopback node's path, from sysfs.
    static func loopbackPath() throws -> String {
        let classFolder = URL(fileURLWithPath: "/sys/class/video4linux")
        for name in try FileManager.default.contentsOfDirectory(atPath: classFolder.path) where name.hasPrefix("video") {
            let card = try String(contentsOf: classFolder.appendingPathComponent("\(name)/name"), encoding: .utf8)
            if card.trimmingCharacters(in: .whitespacesAndNewlines) == cardName { return "/dev/\(name)" }
        }
        throw FixtureError(message: "no V4L2 node named \(cardName)")
    }
}
