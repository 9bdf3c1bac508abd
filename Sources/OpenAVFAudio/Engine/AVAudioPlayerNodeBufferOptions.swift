/// How a scheduled buffer plays: looping, or cutting into what is already scheduled.
public struct AVAudioPlayerNodeBufferOptions: OptionSet, Sendable {
    /// The bits.
    public let rawValue: UInt

    /// Options of the given bits.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// The buffer plays again and again until something scheduled with `.interrupts` or
    /// `.interruptsAtLoop` (or `stop()`) ends it.
    public static let loops = AVAudioPlayerNodeBufferOptions(rawValue: 1 << 0)
    /// The buffer replaces everything scheduled, cutting off what is playing.
    public static let interrupts = AVAudioPlayerNodeBufferOptions(rawValue: 1 << 1)
    /// The buffer replaces everything scheduled once the looping buffer playing reaches its end.
    public static let interruptsAtLoop = AVAudioPlayerNodeBufferOptions(rawValue: 1 << 2)
}
