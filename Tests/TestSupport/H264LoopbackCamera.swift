import CaptureDevices
import Foundation

/// A camera that sends H.264, inside `scripts/vivid-vm`: the VM's v4l2loopback node, fed by
/// ffmpeg's v4l2 muxer with a clip that ffmpeg encoded (a distinct picture per frame, no
/// B-frames, a key frame every `keyFrameInterval` frames with its parameter sets, as a camera
/// encodes), looped, in Annex B form, at 30 fps. ffmpeg's own decode of the clip is the oracle:
/// `clipFrame(matching:)` says which of its frames a picture is.
///
/// One feeder serves every test of the process (`shared()`), running until the VM ends:
/// v4l2loopback does not offer its capture format again to a second writer once the first has
/// gone. The clip is MPEG-TS, which keeps H.264 in Annex B form and, unlike a raw H.264 file,
/// lets ffmpeg loop it.
public final class H264LoopbackCamera: @unchecked Sendable {
    /// The loopback node's card name (`scripts/vivid-vm` loads it so).
    public static let cardName = "OpenAV H.264 loopback"
    /// The clip's frame size.
    public static let (width, height) = (320, 240)
    /// Frames in the clip (5 s at 30 fps, then it starts again).
    public static let frameCount = 150
    /// Frames from one key frame to the next.
    public static let keyFrameInterval = 15

    /// The node, such as `/dev/video2`.
    public let path: String
    /// The clip, as the camera sends it.
    public let clip: URL
    private let folder: URL
    private let decoded: [UInt8]
    /// The clip's frames by the hash of their pictures.
    private let framesByHash: [Int: [Int]]
    private let feeder = Process()

    /// Bytes of one NV12 frame of the clip.
    public static let frameBytes = width * height * 3 / 2

    private static let made = Result { try H264LoopbackCamera() }

    /// The camera, fed from its first use on; throws when it cannot be made.
    public static func shared() throws -> H264LoopbackCamera { try made.get() }

    /// Whether `next` is the clip frame right after `previous` (the clip loops).
    public static func follows(_ next: Int, _ previous: Int) -> Bool { next == (previous + 1) % frameCount }

    /// How a run of clip frames (the pictures of something stored) departs from consecutive:
    /// the frames missing between them (the clip loops), and whether after each gap the run goes
    /// on at a key frame, as a stream that lost frames must; nil when a picture is none of the
    /// clip's, or there is none.
    public static func gaps(in frames: [Int?]) -> (missing: Int, resumesAtKeyFrames: Bool)? {
        let known = frames.compactMap { $0 }
        guard !known.isEmpty, known.count == frames.count else { return nil }
        var missing = 0
        var resumesAtKeyFrames = true
        for (previous, next) in zip(known, known.dropFirst()) where !follows(next, previous) {
            missing += (next - previous - 1 + 2 * frameCount) % frameCount
            if next % keyFrameInterval != 0 { resumesAtKeyFrames = false }
        }
        return (missing, resumesAtKeyFrames)
    }

    /// Makes the clip and its decode, and starts feeding the node; returns once the node offers
    /// its H.264 capture format (it does so only while fed).
    private init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("h264-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        clip = folder.appendingPathComponent("clip.ts")
        _ = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi",
                                        "-i", "testsrc2=size=\(Self.width)x\(Self.height):rate=30",
                                        "-frames:v", "\(Self.frameCount)", "-c:v", "libx264", "-preset", "ultrafast",
                                        "-bf", "0", "-g", "\(Self.keyFrameInterval)", "-pix_fmt", "yuv420p",
                                        "-f", "mpegts", clip.path])
        decoded = [UInt8](try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", clip.path,
                                                      "-f", "rawvideo", "-pix_fmt", "nv12", "-"]))
        guard decoded.count == Self.frameBytes * Self.frameCount else {
            throw FixtureError(message: "ffmpeg decoded \(decoded.count) bytes of the clip")
        }
        var byHash: [Int: [Int]] = [:]
        for frame in 0..<Self.frameCount {
            byHash[Self.hash(decoded[frame * Self.frameBytes..<(frame + 1) * Self.frameBytes]), default: []].append(frame)
        }
        framesByHash = byHash
        path = try Self.loopbackPath()
        feeder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        feeder.arguments = ["ffmpeg", "-nostdin", "-v", "error", "-re", "-stream_loop", "-1", "-i", clip.path,
                            "-c:v", "copy", "-f", "v4l2", path]
        feeder.standardInput = FileHandle.nullDevice
        feeder.standardOutput = FileHandle.nullDevice
        feeder.standardError = FileHandle.nullDevice
        try feeder.run()
        let deadline = Date().addingTimeInterval(10)
        while !V4L2Discovery.cameras().contains(where: {
            $0.path == path && $0.videoFormats.contains { $0.v4l2PixelFormat == V4L2PixelFormat.fourCC("H264") }
        }) {
            guard Date() < deadline else {
                stop()
                throw FixtureError(message: "\(path) offers no H.264 format 10 s after ffmpeg began feeding it")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Stops feeding the node (when it never offered its format).
    private func stop() {
        if feeder.isRunning { feeder.terminate() }
        feeder.waitUntilExit()
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

    /// Which of the clip's frames (0-based) a picture is, byte for byte, as packed NV12 (luma rows
    /// then chroma rows, no padding); nil when it is none of them.
    public func clipFrame(matching nv12: ArraySlice<UInt8>) -> Int? {
        guard nv12.count == Self.frameBytes else { return nil }
        return framesByHash[Self.hash(nv12)]?.first {
            decoded[$0 * Self.frameBytes..<($0 + 1) * Self.frameBytes].elementsEqual(nv12)
        }
    }

    /// A hash of a picture's bytes.
    private static func hash(_ bytes: ArraySlice<UInt8>) -> Int {
        var hasher = Hasher()
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        return hasher.finalize()
    }

    /// The clip frames a movie's video decodes to, in order (nil for a picture that is none of
    /// them): ffmpeg decodes the movie to NV12.
    public func clipFrames(ofMovie url: URL) throws -> [Int?] {
        let pictures = [UInt8](try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-map", "0:v:0",
                                                           "-fps_mode", "passthrough", "-f", "rawvideo",
                                                           "-pix_fmt", "nv12", "-"]))
        return stride(from: 0, to: pictures.count, by: Self.frameBytes).map {
            clipFrame(matching: pictures[$0..<min($0 + Self.frameBytes, pictures.count)])
        }
    }
}
