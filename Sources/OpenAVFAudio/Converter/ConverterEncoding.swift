import Foundation
import MediaEngine
import OpenCoreMedia

/// The encoding side of `AVAudioConverter`: PCM buffers through the engine's `Encoder` (the
/// one `AVAudioFile` and `AVAssetWriter` use, which also changes the rate, sample format and
/// channels) into packets, held until an output buffer takes them. Not thread safe: the
/// converter serializes its calls.
final class ConverterEncoding {
    /// The encoder's settings but the bit rate.
    private var settings: EncoderSettings.Audio
    /// The encoder; made again when the bit rate changes before the first samples.
    private(set) var encoder: Encoder
    /// The sample buffers handed to the encoder (the input's type, rate and channels).
    private let samples: PCMSampleBufferMaker
    /// Frames encoded so far.
    private var framesIn: Int64 = 0
    /// Packets encoded and not yet given out, in order (without the empty packets FFmpeg's
    /// FLAC encoder ends with, which carry only its updated header).
    private var packets: [Packet] = []
    /// Whether the input ended and the encoder was finished.
    private(set) var finished = false

    /// An encoder from `inputFormat` (linear PCM) to `outputFormat`; nil when the output's
    /// format ID is not one the engine encodes (AAC, Apple Lossless, FLAC, Opus) or the encoder
    /// does not take its rate or channel count.
    init?(from inputFormat: AVAudioFormat, to outputFormat: AVAudioFormat) {
        let source = inputFormat.streamDescription.pointee
        let target = outputFormat.streamDescription.pointee
        guard source.mFormatID == kAudioFormatLinearPCM, inputFormat.commonFormat != .otherFormat,
              target.mSampleRate > 0, target.mChannelsPerFrame > 0 else { return nil }
        let codec: EncoderSettings.AudioCodec
        switch target.mFormatID {
        case kAudioFormatMPEG4AAC: codec = .aac
        case kAudioFormatAppleLossless: codec = .appleLossless(bitDepth: source.mBitsPerChannel > 16 ? 24 : 16)
        case kAudioFormatFLAC: codec = .flac
        case kAudioFormatOpus: codec = .opus
        default: return nil
        }
        settings = EncoderSettings.Audio(codec: codec, sampleRate: Int(target.mSampleRate),
                                         channelCount: Int(target.mChannelsPerFrame))
        guard let encoder = try? Encoder(settings: .audio(settings), globalHeader: true) else { return nil }
        self.encoder = encoder
        samples = PCMSampleBufferMaker(sampleRate: source.mSampleRate, channelCount: Int(source.mChannelsPerFrame),
                                       bitsPerChannel: Int(source.mBitsPerChannel), isFloat: source.mFormatFlags & kAudioFormatFlagIsFloat != 0)
    }

    /// The bit rate the encoder makes, bits per second (0 for lossless codecs).
    var bitRate: Int { settings.resolvedBitRate ?? 0 }

    /// Asks for `bitRate`: honoured before the first samples (the encoder is opened again);
    /// false when the encoder refuses it or encoding has started.
    @discardableResult
    func setBitRate(_ bitRate: Int) -> Bool {
        guard framesIn == 0, !finished, settings.resolvedBitRate != nil else { return false }
        var changed = settings
        changed.bitRate = bitRate
        guard let reopened = try? Encoder(settings: .audio(changed), globalHeader: true) else { return false }
        settings = changed
        encoder = reopened
        return true
    }

    /// The bit rates the codec offers at any rate and channel count; empty for lossless codecs.
    var availableBitRates: [Int] {
        switch settings.codec {
        case .aac: [16_000, 24_000, 32_000, 48_000, 64_000, 80_000, 96_000, 112_000, 128_000, 160_000,
                    192_000, 224_000, 256_000, 320_000, 384_000, 448_000, 512_000]
        case .opus: [6_000, 8_000, 12_000, 16_000, 24_000, 32_000, 48_000, 64_000, 96_000, 128_000,
                     160_000, 192_000, 256_000, 320_000, 384_000, 448_000, 510_000]
        default: []
        }
    }

    /// The bit rates the codec takes at the output's rate and channel count: AAC at most 6144
    /// bits a channel per 1024-sample frame, Opus 256 kbit/s a channel.
    var applicableBitRates: [Int] {
        let channels = settings.channelCount
        switch settings.codec {
        case .aac: return availableBitRates.filter { $0 <= 6 * settings.sampleRate * channels && $0 >= 8_000 * channels }
        case .opus: return availableBitRates.filter { $0 <= 256_000 * channels && $0 >= 6_000 * channels }
        default: return []
        }
    }

    /// The sample rates the codec's encoder takes (AAC's twelve MPEG-4 rates; every rate up
    /// to 384 kHz for encoders that take any: `AudioSettings`' ceiling).
    var availableSampleRates: [Int] {
        let rates = (try? Encoder.supportedSampleRates(for: settings)) ?? nil
        return rates ?? [8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000, 64_000, 88_200, 96_000,
                         176_400, 192_000, 352_800, 384_000]
    }

    /// The largest packet the encoder can make, in bytes: an AAC frame holds at most 6144
    /// bits a channel, an Opus frame 1275 bytes a channel; a lossless frame at most its samples
    /// uncompressed plus a header.
    var maximumPacketSize: Int {
        let channels = settings.channelCount
        switch settings.codec {
        case .aac: return 768 * channels
        case .opus: return 1275 * channels
        default: return max(1, encoder.frameSize > 0 ? encoder.frameSize : 4608) * channels * 4 + 64
        }
    }

    /// The encoder's configuration (its extradata): the output format's magic cookie.
    var magicCookie: Data? {
        var size = 0
        guard let description = encoder.formatDescription,
              let cookie = CMAudioFormatDescriptionGetMagicCookie(description, sizeOut: &size), size > 0 else { return nil }
        return Data(bytes: cookie, count: size)
    }

    /// Encodes a buffer of the input format.
    func encode(_ buffer: AVAudioPCMBuffer) throws {
        guard let sample = try samples.sampleBuffer(of: buffer, start: framesIn) else {
            return
        }
        try encoder.encode(pcm: sample)
        framesIn += Int64(buffer.frameLength)
        packets += encoder.receivePackets().filter { $0.size > 0 }
    }

    /// Encodes what the encoder holds, at the end of the input.
    func finish() throws {
        guard !finished else { return }
        finished = true
        try encoder.finish()
        packets += encoder.receivePackets().filter { $0.size > 0 }
    }

    /// The next packet to give out, without taking it.
    var nextPacket: Packet? { packets.first }

    /// Takes the next packet.
    func dropPacket() {
        packets.removeFirst()
    }

    /// Forgets the stream under way: a new encoder for a new stream.
    func reset() {
        if let fresh = try? Encoder(settings: .audio(settings), globalHeader: true) { encoder = fresh }
        framesIn = 0
        packets.removeAll()
        finished = false
    }
}
