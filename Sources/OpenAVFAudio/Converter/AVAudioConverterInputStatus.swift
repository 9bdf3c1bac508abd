/// What an `AVAudioConverterInputBlock` says about the input it returns.
public enum AVAudioConverterInputStatus: Int, Sendable {
    /// The block returns a buffer of input.
    case haveData = 0
    /// The block has no input now: the conversion returns what it could convert
    /// (`AVAudioConverterOutputStatus.inputRanDry`), and goes on with the next call.
    case noDataNow = 1
    /// The input has ended: the converter gives out what it still holds, then ends.
    case endOfStream = 2
}
