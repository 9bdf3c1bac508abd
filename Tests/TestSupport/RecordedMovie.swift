import CaptureDevices
import Foundation

/// What a movie recorded from the virtual devices holds, as `ffprobe` and `ffmpeg` decode it
/// (the independent oracle): per video frame its presentation time, the Test Pattern Camera's
/// frame index read from the barcode and its mean brightness (flash frames are white); the
/// times the Test Tone Microphone's beeps start in the decoded audio.
public struct RecordedMovie {
    /// One decoded video frame.
    public struct Frame {
        /// Presentation time in the file, in seconds.
        public var time: Double
        /// The camera's frame index, or nil when the barcode cannot be read.
        public var index: Int?
        /// Mean luma, 0–255.
        public var meanLuma: Double
    }

    /// `ffprobe -show_format -show_streams` of the file.
    public let probe: [String: Any]
    /// The video frames in presentation order.
    public let frames: [Frame]
    /// Where beeps start in the file, in seconds (empty without audio).
    public let beepOnsets: [Double]

    /// Decodes `url` with ffmpeg, its video scaled to `width`x`height` (the recorded size, or a
    /// smaller one of the same shape to save memory: the barcode survives).
    public init(_ url: URL, width: Int, height: Int) throws {
        probe = try Fixtures.probe(url)
        let frameList = try JSONSerialization.jsonObject(with: try Fixtures.run("ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "json", url.path,
        ])) as? [String: Any]
        let times = (frameList?["frames"] as? [[String: Any]] ?? []).compactMap { ($0["pts_time"] as? String).flatMap(Double.init) }
        let luma = try Fixtures.run("ffmpeg", [
            "-nostdin", "-v", "error", "-i", url.path, "-map", "0:v:0", "-fps_mode", "passthrough",
            "-vf", "scale=\(width):\(height):flags=area", "-f", "rawvideo", "-pix_fmt", "gray", "-",
        ])
        let frameSize = width * height
        guard luma.count == frameSize * times.count else {
            throw FixtureError(message: "ffmpeg decoded \(luma.count) bytes for \(times.count) frames of \(width)x\(height)")
        }
        frames = times.enumerated().map { number, time in
            luma.withUnsafeBytes { bytes in
                let frame = UnsafeRawBufferPointer(rebasing: bytes[(number * frameSize)..<((number + 1) * frameSize)])
                let index = FrameIndexBarcode.read(luma: frame, width: width, height: height, bytesPerRow: width)
                let sum = frame.reduce(0) { $0 + Int($1) }
                return Frame(time: time, index: index, meanLuma: Double(sum) / Double(frameSize))
            }
        }
        beepOnsets = try Self.beepOnsets(of: url, probe: probe)
    }

    /// Where the Test Tone Microphone's beeps start in `url`'s first audio track (decoded by
    /// ffmpeg), in seconds of the file; empty without audio. `probe`: the file's
    /// `ffprobe -show_format -show_streams`.
    public static func beepOnsets(of url: URL, probe: [String: Any]) throws -> [Double] {
        let streams = probe["streams"] as? [[String: Any]] ?? []
        guard let audio = streams.first(where: { $0["codec_type"] as? String == "audio" }) else { return [] }
        let rate = 48000
        let start = Double(audio["start_time"] as? String ?? "0") ?? 0
        let pcm = try Fixtures.run("ffmpeg", [
            "-nostdin", "-v", "error", "-i", url.path, "-map", "0:a:0", "-ac", "1", "-ar", String(rate),
            "-f", "f32le", "-",
        ])
        let samples = pcm.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        // A beep starts where the signal first exceeds what the steady tone reaches, after half
        // a second without.
        let threshold = Float(TestToneMicrophone.toneAmplitude + TestToneMicrophone.beepAmplitude / 2)
        var onsets: [Double] = []
        var lastLoud = -rate
        for (i, sample) in samples.enumerated() where abs(sample) > threshold {
            if i - lastLoud > rate / 2 { onsets.append(start + Double(i) / Double(rate)) }
            lastLoud = i
        }
        return onsets
    }

    /// The times of the flash frames (white but for the barcode).
    public var flashTimes: [Double] { frames.filter { $0.meanLuma > 200 }.map(\.time) }

    /// The frame indices skipped between consecutive frames, in total; nil when a barcode is
    /// unreadable or the indices do not increase.
    public var skippedIndices: Int? {
        let indices = frames.compactMap(\.index)
        guard indices.count == frames.count else { return nil }
        var skipped = 0
        for (previous, next) in zip(indices, indices.dropFirst()) {
            guard next > previous else { return nil }
            skipped += next - previous - 1
        }
        return skipped
    }

    /// For each flash frame with a beep within half a second, the beep's start minus the
    /// flash frame's time, in seconds.
    public var audioVideoOffsets: [Double] {
        flashTimes.compactMap { flash in
            beepOnsets.min { abs($0 - flash) < abs($1 - flash) }.flatMap { abs($0 - flash) < 0.5 ? $0 - flash : nil }
        }
    }

    /// The file's duration according to ffprobe's format section, in seconds.
    public var duration: Double? {
        ((probe["format"] as? [String: Any])?["duration"] as? String).flatMap(Double.init)
    }

    /// The codec names of the streams, in order.
    public var codecs: [String] {
        (probe["streams"] as? [[String: Any]] ?? []).compactMap { $0["codec_name"] as? String }
    }
}
