/// How `AVAudioConverter.convert(to:error:withInputFrom:)` ended.
public enum AVAudioConverterOutputStatus: Int, Sendable {
    /// The output buffer is full.
    case haveData = 0
    /// The input block had no data for now: the output holds what could be converted.
    case inputRanDry = 1
    /// The input has ended and everything was given out: the output holds nothing.
    case endOfStream = 2
    /// The conversion failed (the error says why).
    case error = 3
}
