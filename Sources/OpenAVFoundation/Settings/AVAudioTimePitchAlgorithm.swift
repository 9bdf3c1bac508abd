/// How audio is stretched when played or read at another rate.
///
/// A player at a rate other than 1 keeps the pitch with every algorithm but `.varispeed`, which
/// lets the pitch follow the rate. Differs from Apple: `.timeDomain`, `.spectral` and
/// `.lowQualityZeroLatency` all stretch in the time domain (FFmpeg's `atempo`).
public struct AVAudioTimePitchAlgorithm: RawRepresentable, Hashable, Sendable {
    /// The algorithm's name.
    public let rawValue: String

    /// Creates an algorithm value from its name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Low quality, no latency: suitable for scrubbing.
    public static let lowQualityZeroLatency = AVAudioTimePitchAlgorithm(rawValue: "LowQualityZeroLatency")
    /// Modest quality and cost, pitch kept; suitable for voice.
    public static let timeDomain = AVAudioTimePitchAlgorithm(rawValue: "TimeDomain")
    /// Highest quality, pitch kept; the default.
    public static let spectral = AVAudioTimePitchAlgorithm(rawValue: "Spectral")
    /// High quality, no pitch correction: pitch follows rate.
    public static let varispeed = AVAudioTimePitchAlgorithm(rawValue: "Varispeed")
}
