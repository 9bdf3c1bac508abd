import Foundation
import MediaEngine
import OpenCoreMedia

/// Sample buffers of `AVAudioPCMBuffer`s' valid frames for the engine's `Encoder`, for
/// `AVAudioFile`'s writer and `AVAudioConverter`'s encoder: one block holding an interleaved
/// buffer's frames, or a deinterleaved buffer's planes one after another (the encoder takes
/// both layouts), copied once.
struct PCMSampleBufferMaker {
    /// The interleaved format and its description.
    private let interleaved: (format: PCMFormat, description: CMFormatDescription)
    /// The deinterleaved format and its description.
    private let planar: (format: PCMFormat, description: CMFormatDescription)

    /// A maker for buffers of `channelCount` channels of `bitsPerChannel`-bit samples (float
    /// when `isFloat`) at `sampleRate`.
    init(sampleRate: Double, channelCount: Int, bitsPerChannel: Int, isFloat: Bool) {
        func described(_ format: PCMFormat) -> (PCMFormat, CMFormatDescription) {
            (format, CMFormatDescription(mediaType: kCMMediaType_Audio, mediaSubType: kAudioFormatLinearPCM,
                                         audioStreamBasicDescription: format.audioStreamBasicDescription,
                                         channelLayoutTag: format.channelLayoutTag))
        }
        interleaved = described(PCMFormat(sampleRate: sampleRate, channelCount: channelCount, bitsPerChannel: bitsPerChannel, isFloat: isFloat))
        planar = described(PCMFormat(sampleRate: sampleRate, channelCount: channelCount, bitsPerChannel: bitsPerChannel, isFloat: isFloat,
                                     isNonInterleaved: true))
    }

    /// `buffer`'s valid frames as a sample buffer starting at sample `start`; nil when the
    /// buffer holds no frames.
    func sampleBuffer(of buffer: AVAudioPCMBuffer, start: Int64) throws -> CMSampleBuffer? {
        let frames = Int(buffer.frameLength)
        guard frames > 0 else { return nil }
        let isPlanar = !buffer.format.isInterleaved && interleaved.format.channelCount > 1
        let (format, description) = isPlanar ? planar : interleaved
        let channels = format.channelCount
        let frameBytes = format.bytesPerSample * channels
        let planeBytes = frames * format.bytesPerFrame
        var bytes = Data(count: frames * frameBytes)
        bytes.withUnsafeMutableBytes { out in
            for plane in 0..<(isPlanar ? channels : 1) {
                (out.baseAddress! + plane * planeBytes).copyMemory(from: buffer.rawChannel(plane), byteCount: planeBytes)
            }
        }
        let rate = Int32(format.sampleRate)
        return try CMSampleBuffer(
            dataBuffer: CMBlockBuffer(copying: bytes), formatDescription: description, numSamples: frames,
            sampleTimings: [CMSampleTimingInfo(duration: CMTime(value: 1, timescale: rate),
                                               presentationTimeStamp: CMTime(value: start, timescale: rate),
                                               decodeTimeStamp: .invalid)],
            sampleSizes: [frameBytes])
    }
}
