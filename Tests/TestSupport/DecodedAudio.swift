import Foundation

/// The mono float samples of an audio file as ffmpeg decodes it (channels mixed), and the
/// stream's sample count as ffprobe reports it.
public enum DecodedAudio {
    /// ffmpeg's decode of `url`, mixed to mono, as 32-bit floats at the file's rate.
    public static func samples(of url: URL) throws -> [Float] {
        let data = try Fixtures.run("ffmpeg", ["-v", "error", "-i", url.path, "-ac", "1", "-f", "f32le", "-"])
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// ffprobe's duration of the audio stream, in samples (`duration_ts` at the rate's time base).
    public static func sampleCount(of url: URL) throws -> Int? {
        let data = try Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-count_packets",
                                                "-show_entries", "stream=duration_ts,duration,sample_rate",
                                                "-of", "default=nw=1", url.path])
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        var values: [String: String] = [:]
        for line in lines {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        if let duration = values["duration"].flatMap(Double.init), let rate = values["sample_rate"].flatMap(Double.init) {
            return Int((duration * rate).rounded())
        }
        return values["duration_ts"].flatMap(Int.init)
    }

    /// The RMS level of samples, in dBFS.
    public static func rmsDecibels(_ samples: some Collection<Float>) -> Double {
        let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return 10 * log10(max(1e-20, sum / Double(max(1, samples.count))))
    }

    /// The frequency of a steady sine, from its upward zero crossings (each counted once the
    /// signal was below a tenth of its peak, so that coding noise near zero adds none).
    public static func frequency(_ samples: [Float], sampleRate: Double) -> Double {
        let threshold = 0.1 * (samples.map(abs).max() ?? 0)
        var crossings: [Int] = []
        var armed = false
        for (index, sample) in samples.enumerated() {
            if sample < -threshold { armed = true }
            if armed, sample >= 0 {
                crossings.append(index)
                armed = false
            }
        }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 2 else { return 0 }
        return Double(crossings.count - 1) * sampleRate / Double(last - first)
    }
}
