/// How audio is stretched when played or read at another rate.
///
/// Differs from Apple: accepted and reported, but time-scaled reading is not done yet, so the
/// choice has no audible effect.
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
