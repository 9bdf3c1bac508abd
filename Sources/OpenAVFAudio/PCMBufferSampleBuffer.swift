import Foundation
import MediaEngine
import OpenCoreMedia

extension AVAudioPCMBuffer {
    /// The buffer's valid frames as one interleaved linear PCM sample buffer of `format` (the
    /// buffer's sample type, interleaved; `description` describes it) starting at sample
    /// `start`, interleaving them first when the buffer is not: what the engine's `Encoder`
    /// takes, for `AVAudioFile` and `AVAudioConverter`. Nil when the buffer holds no frames.
    func interleavedSampleBuffer(format: PCMFormat, description: CMFormatDescription, start: Int64) throws -> CMSampleBuffer? {
        let frames = Int(frameLength)
        guard frames > 0 else { return nil }
        let bytesPerSample = format.bytesPerSample
        let channels = format.channelCount
        var bytes = Data(count: frames * format.bytesPerFrame)
        bytes.withUnsafeMutableBytes { out in
            if self.format.isInterleaved || channels == 1 {
                out.baseAddress!.copyMemory(from: rawChannel(0), byteCount: frames * format.bytesPerFrame)
                return
            }
            for channel in 0..<channels {
                let source = rawChannel(channel)
                for frame in 0..<frames {
                    (out.baseAddress! + (frame * channels + channel) * bytesPerSample)
                        .copyMemory(from: source + frame * bytesPerSample, byteCount: bytesPerSample)
                }
            }
        }
        let rate = Int32(format.sampleRate)
        return try CMSampleBuffer(
            dataBuffer: CMBlockBuffer(copying: bytes), formatDescription: description, numSamples: frames,
            sampleTimings: [CMSampleTimingInfo(duration: CMTime(value: 1, timescale: rate),
                                               presentationTimeStamp: CMTime(value: start, timescale: rate),
                                               decodeTimeStamp: .invalid)],
            sampleSizes: [format.bytesPerFrame])
    }
}
