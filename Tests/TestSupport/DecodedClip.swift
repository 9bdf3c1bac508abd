import Foundation

/// An H.264 clip that ffmpeg encoded as a camera does (a distinct picture per frame, no
/// B-frames, a key frame every `keyFrameInterval` frames with its parameter sets) and ffmpeg's
/// own decode of it, the oracle of what something stored from it holds: `clipFrame(matching:)`
/// says which of its frames a picture is, `frames(ofMovie:)` which frames a movie shows, and
/// `gaps(in:)` how they depart from consecutive (the clip may loop).
public struct DecodedClip: Sendable {
    /// The clip's frame size.
    public static let (width, height) = (320, 240)
    /// Bytes of one NV12 frame.
    public static let frameBytes = width * height * 3 / 2

    /// The clip.
    public let url: URL
    /// Its frames.
    public let frameCount: Int
    /// Frames from one key frame to the next.
    public let keyFrameInterval: Int
    private let decoded: [UInt8]
    /// The clip's frames by the hash of their pictures.
    private let framesByHash: [Int: [Int]]

    /// Encodes `frameCount` frames of ffmpeg's `testsrc2` at 30 fps into `url` (`format`: "h264"
    /// for raw Annex B, "mpegts" for a clip ffmpeg can loop) and decodes them.
    public init(_ url: URL, frameCount: Int, keyFrameInterval: Int, format: String) throws {
        self.url = url
        self.frameCount = frameCount
        self.keyFrameInterval = keyFrameInterval
        _ = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi",
                                        "-i", "testsrc2=size=\(Self.width)x\(Self.height):rate=30",
                                        "-frames:v", "\(frameCount)", "-c:v", "libx264", "-preset", "ultrafast",
                                        "-bf", "0", "-g", "\(keyFrameInterval)", "-pix_fmt", "yuv420p",
                                        "-f", format, url.path])
        decoded = [UInt8](try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path,
                                                      "-f", "rawvideo", "-pix_fmt", "nv12", "-"]))
        guard decoded.count == Self.frameBytes * frameCount else {
            throw FixtureError(message: "ffmpeg decoded \(decoded.count) bytes of \(url.lastPathComponent)")
        }
        var byHash: [Int: [Int]] = [:]
        for frame in 0..<frameCount {
            byHash[Self.hash(decoded[frame * Self.frameBytes..<(frame + 1) * Self.frameBytes]), default: []].append(frame)
        }
        framesByHash = byHash
    }

    /// Where each access unit of a raw H.264 stream lies, as ffprobe's parser splits it.
    public static func accessUnits(of url: URL) throws -> [Range<Int>] {
        let listing = String(decoding: try Fixtures.run("ffprobe", ["-v", "error", "-show_entries", "packet=pos,size",
                                                                    "-of", "csv=p=0", url.path]), as: UTF8.self)
        return listing.split(separator: "\n").map { line -> Range<Int> in
            let fields = line.split(separator: ",").compactMap { Int($0) }
            return fields[1]..<(fields[1] + fields[0])
        }
    }

    /// Which of the clip's frames (0-based) a picture is, byte for byte, as packed NV12 (luma rows
    /// then chroma rows, no padding); nil when it is none of them.
    public func clipFrame(matching nv12: ArraySlice<UInt8>) -> Int? {
        guard nv12.count == Self.frameBytes else { return nil }
        return framesByHash[Self.hash(nv12)]?.first {
            decoded[$0 * Self.frameBytes..<($0 + 1) * Self.frameBytes].elementsEqual(nv12)
        }
    }

    /// The clip frames a movie's video decodes to, in order (nil for a picture that is none of
    /// them): ffmpeg decodes the movie to NV12.
    public func frames(ofMovie url: URL) throws -> [Int?] {
        let pictures = [UInt8](try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-map", "0:v:0",
                                                           "-fps_mode", "passthrough", "-f", "rawvideo",
                                                           "-pix_fmt", "nv12", "-"]))
        return stride(from: 0, to: pictures.count, by: Self.frameBytes).map {
            clipFrame(matching: pictures[$0..<min($0 + Self.frameBytes, pictures.count)])
        }
    }

    /// Whether `next` is the clip frame right after `previous` (the clip loops).
    public func follows(_ next: Int, _ previous: Int) -> Bool { next == (previous + 1) % frameCount }

    /// How a run of clip frames (the pictures of something stored) departs from consecutive:
    /// the frames missing between them, and whether after each gap the run goes on at a key
    /// frame, as a stream that lost frames must; nil when a picture is none of the clip's, or
    /// there is none.
    public func gaps(in frames: [Int?]) -> (missing: Int, resumesAtKeyFrames: Bool)? {
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

    /// A hash of a picture's bytes.
    private static func hash(_ bytes: ArraySlice<UInt8>) -> Int {
        var hasher = Hasher()
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        return hasher.finalize()
    }
}
