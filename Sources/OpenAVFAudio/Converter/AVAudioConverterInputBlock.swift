/// The block `AVAudioConverter.convert(to:error:withInputFrom:)` asks for input with: it is
/// given how many packets (frames, for linear PCM) would complete the output, sets the status
/// and returns a buffer in the converter's input format (nil without data). The buffer must
/// stay as it is until the block is called again or the conversion returns.
public typealias AVAudioConverterInputBlock = (AVAudioPacketCount, UnsafeMutablePointer<AVAudioConverterInputStatus>) -> AVAudioBuffer?
