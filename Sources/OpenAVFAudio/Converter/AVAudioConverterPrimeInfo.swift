/// How many input frames a converter's priming takes before and after the stream.
public struct AVAudioConverterPrimeInfo: Sendable, Equatable {
    /// Frames before the first one converted.
    public var leadingFrames: AVAudioFrameCount
    /// Frames after the last one converted.
    public var trailingFrames: AVAudioFrameCount

    /// No priming frames.
    public init() {
        leadingFrames = 0
        trailingFrames = 0
    }

    /// Priming of `leadingFrames` before and `trailingFrames` after.
    public init(leadingFrames: AVAudioFrameCount, trailingFrames: AVAudioFrameCount) {
        self.leadingFrames = leadingFrames
        self.trailingFrames = trailingFrames
    }
}
