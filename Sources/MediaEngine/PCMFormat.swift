import CFFmpeg
import OpenCoreMedia

/// A linear PCM layout as CoreAudio describes one: the target format of `AudioConverter` and of
/// an asset reader's audio output.
///
/// FFmpeg only produces native-endian samples, unsigned 8-bit integers and no packed 24-bit
/// integers, but every CoreAudio combination below is supported: the converter produces the
/// nearest FFmpeg format (`avSampleFormat`) and finishes in place (`repacking`): 8-bit samples
/// are made signed, 24-bit samples are packed from 32-bit ones, samples of the other byte order
/// than the machine's are byte swapped. Unsupported combinations (such as 16-bit float) are rejected by `validate()`.
package struct PCMFormat: Equatable, Hashable, Sendable {
    /// Frames per second; must be a whole number (FFmpeg resamples between integer rates).
    package var sampleRate: Double
    /// Channels per frame.
    package var channelCount: Int
    /// Bits of one channel sample: 8, 16, 24 or 32 for integers, 32 or 64 for floats.
    package var bitsPerChannel: Int
    /// Whether samples are IEEE floats; otherwise signed integers (CoreAudio's LPCM rule).
    package var isFloat: Bool
    /// Whether samples are big-endian; otherwise little-endian.
    package var isBigEndian: Bool
    /// Whether each channel is in its own buffer (planar); otherwise interleaved.
    package var isNonInterleaved: Bool

    /// A PCM format; interleaved little-endian signed 16-bit integers unless told otherwise.
    package init(sampleRate: Double, channelCount: Int, bitsPerChannel: Int = 16, isFloat: Bool = false,
                 isBigEndian: Bool = false, isNonInterleaved: Bool = false) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.bitsPerChannel = bitsPerChannel
        self.isFloat = isFloat
        self.isBigEndian = isBigEndian
        self.isNonInterleaved = isNonInterleaved
    }

    /// The linear PCM format a stream description states; nil for other formats, or one
    /// without channels or a rate.
    package init?(streamDescription d: AudioStreamBasicDescription) {
        guard d.mFormatID == kAudioFormatLinearPCM, d.mChannelsPerFrame > 0, d.mSampleRate > 0, d.mBitsPerChannel > 0 else { return nil }
        self.init(sampleRate: d.mSampleRate, channelCount: Int(d.mChannelsPerFrame), bitsPerChannel: Int(d.mBitsPerChannel),
                  isFloat: d.mFormatFlags & kAudioFormatFlagIsFloat != 0, isBigEndian: d.mFormatFlags & kAudioFormatFlagIsBigEndian != 0,
                  isNonInterleaved: d.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0)
    }

    /// Bytes of one channel sample.
    package var bytesPerSample: Int { bitsPerChannel / 8 }

    /// Bytes of one frame in one buffer: all channels when interleaved, one channel otherwise
    /// (CoreAudio's `mBytesPerFrame`).
    package var bytesPerFrame: Int { isNonInterleaved ? bytesPerSample : bytesPerSample * channelCount }

    /// The sample rate as FFmpeg's integer rate.
    package var integerSampleRate: Int32 { Int32(sampleRate) }

    /// CoreAudio's description of the format, as `FillOutASBDForLPCM` makes it: packed,
    /// signed integer unless float, big-endian and non-interleaved flags as set, one frame per
    /// packet, byte counts per buffer.
    package var audioStreamBasicDescription: AudioStreamBasicDescription {
        var flags: AudioFormatFlags = kAudioFormatFlagIsPacked
        flags |= isFloat ? kAudioFormatFlagIsFloat : kAudioFormatFlagIsSignedInteger
        if isBigEndian { flags |= kAudioFormatFlagIsBigEndian }
        if isNonInterleaved { flags |= kAudioFormatFlagIsNonInterleaved }
        return AudioStreamBasicDescription(
            mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags,
            mBytesPerPacket: UInt32(bytesPerFrame), mFramesPerPacket: 1, mBytesPerFrame: UInt32(bytesPerFrame),
            mChannelsPerFrame: UInt32(channelCount), mBitsPerChannel: UInt32(bitsPerChannel), mReserved: 0)
    }

    /// CoreAudio's channel layout tag for the channel count in FFmpeg's channel order (mono,
    /// stereo, 5.1 as L R C LFE Ls Rs, 7.1 as L R C LFE Ls Rs Rls Rrs), nil for other counts.
    package var channelLayoutTag: AudioChannelLayoutTag? {
        switch channelCount {
        case 1: return kAudioChannelLayoutTag_Mono
        case 2: return kAudioChannelLayoutTag_Stereo
        case 6: return kAudioChannelLayoutTag_MPEG_5_1_A
        case 8: return kAudioChannelLayoutTag_MPEG_7_1_C
        default: return nil
        }
    }

    /// Throws `EngineError` naming the problem when the format cannot be produced: a rate that
    /// is not a positive whole number, no channels, or a depth CoreAudio has no LPCM for.
    package func validate() throws(EngineError) {
        let operation = "choosing the PCM output format"
        guard sampleRate > 0, sampleRate == sampleRate.rounded(), sampleRate <= Double(Int32.max) else {
            throw EngineError(operation: operation, message: "the sample rate \(sampleRate) is not a positive whole number")
        }
        guard channelCount > 0, channelCount <= 64 else {
            throw EngineError(operation: operation, message: "\(channelCount) channels are not supported")
        }
        let depths = isFloat ? [32, 64] : [8, 16, 24, 32]
        guard depths.contains(bitsPerChannel) else {
            throw EngineError(operation: operation, message: "\(bitsPerChannel)-bit \(isFloat ? "float" : "integer") "
                + "samples are not supported (use \(depths.map(String.init).joined(separator: ", ")))")
        }
    }

    /// The FFmpeg sample format libswresample produces for this format, before `repacking`:
    /// signed 16/32-bit integers and 32/64-bit floats as themselves, 8-bit as unsigned 8-bit,
    /// 24-bit as 32-bit; planar when non-interleaved. Throws for formats `validate()` rejects.
    package var avSampleFormat: AVSampleFormat {
        get throws(EngineError) {
            try validate()
            let interleaved: AVSampleFormat
            switch (isFloat, bitsPerChannel) {
            case (true, 64): interleaved = AV_SAMPLE_FMT_DBL
            case (true, _): interleaved = AV_SAMPLE_FMT_FLT
            case (false, 8): interleaved = AV_SAMPLE_FMT_U8
            case (false, 16): interleaved = AV_SAMPLE_FMT_S16
            default: interleaved = AV_SAMPLE_FMT_S32
            }
            return isNonInterleaved ? av_get_planar_sample_fmt(interleaved) : interleaved
        }
    }

    /// The in-place work left after libswresample to reach this exact layout.
    package struct Repacking: OptionSet, Sendable {
        /// The option bits.
        package let rawValue: Int
        /// Creates the set from its bits.
        package init(rawValue: Int) { self.rawValue = rawValue }
        /// Unsigned 8-bit samples become signed (flip the top bit).
        package static let signed8 = Repacking(rawValue: 1)
        /// 32-bit samples are packed to their top 24 bits, 3 bytes each.
        package static let pack24 = Repacking(rawValue: 2)
        /// Every sample's bytes are reversed (big-endian output).
        package static let byteSwap = Repacking(rawValue: 4)
    }

    /// Whether this machine stores numbers big-endian (FFmpeg's samples are in this order).
    static let hostIsBigEndian = 1.bigEndian == 1

    /// What `AudioConverter` does after libswresample for this format.
    package var repacking: Repacking {
        var work: Repacking = []
        if !isFloat && bitsPerChannel == 8 { work.insert(.signed8) }
        if !isFloat && bitsPerChannel == 24 { work.insert(.pack24) }
        if isBigEndian != PCMFormat.hostIsBigEndian && bitsPerChannel > 8 { work.insert(.byteSwap) }
        return work
    }
}
