/// How a converter primes its sample rate converter (its filter needs input before the first
/// output frame).
public enum AVAudioConverterPrimeMethod: Int, Sendable {
    /// Primes with leading and trailing input frames.
    case pre = 0
    /// Primes with silence and drops the output that leads the input's start, so that output
    /// frame 0 is input frame 0 (the default).
    case normal = 1
    /// No priming: output starts with the filter's latency.
    case none = 2
}
