import Foundation
import MediaEngine
import OpenCoreMedia

/// The writing side of `AVAudioFile`: PCM buffers through the engine's `Encoder` and `Muxer`
/// (the parts `AVAssetWriter`'s one writer uses) into a file whose type its extension names.
/// Not thread safe: `AVAudioFile` serializes its calls.
final class AudioFileEncoding {
    /// What the settings and the file name ask for, or why they cannot be written.
    struct Plan {
        /// FFmpeg's muxer name.
        let fileType: String
        /// The encoder's settings.
        let audio: EncoderSettings.Audio
        /// The file's format, as the settings describe it.
        let fileFormat: AVAudioFormat
    }

    /// A file type or data format the engine cannot write: the Core Audio code and the reason.
    struct Unsupported: Error {
        /// `kAudioFileUnsupportedFileTypeError` or `kAudioFileUnsupportedDataFormatError`.
        let code: OSStatus
        /// What is not supported.
        let reason: String
    }

    /// The muxer names of the file name extensions, and the format IDs each can hold.
    private static let containers: [String: (fileType: String, formats: Set<AudioFormatID>)] = [
        "wav": ("wav", [kAudioFormatLinearPCM]),
        "flac": ("flac", [kAudioFormatFLAC]),
        "aif": ("aiff", [kAudioFormatLinearPCM]),
        "aiff": ("aiff", [kAudioFormatLinearPCM]),
        "opus": ("opus", [kAudioFormatOpus]),
        "caf": ("caf", [kAudioFormatLinearPCM, kAudioFormatAppleLossless]),
        "m4a": ("ipod", [kAudioFormatMPEG4AAC, kAudioFormatAppleLossless]),
        "mp4": ("mp4", [kAudioFormatMPEG4AAC, kAudioFormatAppleLossless, kAudioFormatOpus]),
        "mov": ("mov", [kAudioFormatLinearPCM, kAudioFormatMPEG4AAC, kAudioFormatAppleLossless]),
    ]

    /// Reads the settings for a file at `url`; throws `Unsupported` for a file type or data
    /// format the engine does not write.
    static func plan(url: URL, settings: [String: Any]) throws(Unsupported) -> Plan {
        guard let container = containers[url.pathExtension.lowercased()] else {
            throw Unsupported(code: kAudioFileUnsupportedFileTypeError,
                              reason: "cannot write .\(url.pathExtension) files (WAV, AIFF, CAF, FLAC, M4A, MP4, MOV and Opus can be written)")
        }
        guard let parsed = AudioSettings(settings) else {
            throw Unsupported(code: kAudioFileUnsupportedDataFormatError, reason: "the settings describe no usable format")
        }
        let d = parsed.description
        guard container.formats.contains(d.mFormatID) else {
            throw Unsupported(code: kAudioFileUnsupportedDataFormatError,
                              reason: "a .\(url.pathExtension) file cannot hold this format")
        }
        let codec: EncoderSettings.AudioCodec
        switch d.mFormatID {
        case kAudioFormatLinearPCM where container.fileType == "aiff":
            // AIFF holds big-endian integers, whatever AVLinearPCMIsBigEndianKey says.
            guard d.mFormatFlags & kAudioFormatFlagIsFloat == 0, [16, 24, 32].contains(d.mBitsPerChannel) else {
                throw Unsupported(code: kAudioFileUnsupportedDataFormatError,
                                  reason: "AIFF files hold 16-, 24- or 32-bit integers")
            }
            codec = .bigEndianPCM(bits: Int(d.mBitsPerChannel))
        case kAudioFormatLinearPCM:
            let isFloat = d.mFormatFlags & kAudioFormatFlagIsFloat != 0
            guard d.mFormatFlags & kAudioFormatFlagIsBigEndian == 0,
                  isFloat ? d.mBitsPerChannel == 32 : [16, 24, 32].contains(d.mBitsPerChannel) else {
                throw Unsupported(code: kAudioFileUnsupportedDataFormatError,
                                  reason: "linear PCM is written little-endian, as 16-, 24- or 32-bit integers or 32-bit floats")
            }
            codec = .linearPCM(bits: Int(d.mBitsPerChannel), isFloat: isFloat)
        case kAudioFormatAppleLossless:
            let depth = SettingsValue.integer(settings[AVEncoderBitDepthHintKey]) ?? 16
            codec = .appleLossless(bitDepth: depth > 16 ? 24 : 16)
        case kAudioFormatOpus:
            codec = .opus
        case kAudioFormatFLAC:
            codec = .flac
        default:
            codec = .aac
        }
        let audio = EncoderSettings.Audio(
            codec: codec, sampleRate: Int(d.mSampleRate), channelCount: Int(d.mChannelsPerFrame),
            channelLayoutTag: parsed.layout?.layoutTag,
            bitRate: SettingsValue.integer(settings[AVEncoderBitRateKey]).map(Int.init))
        return Plan(fileType: container.fileType, audio: audio,
                    fileFormat: AVAudioFormat(description: d, layout: parsed.layout, magicCookie: nil))
    }

    /// The encoder.
    private let encoder: Encoder
    /// The muxer, writing the file.
    private let muxer: Muxer
    /// The muxer's track.
    private let track: Int
    /// The sample buffers handed to the encoder.
    private let samples: PCMSampleBufferMaker
    /// Frames written so far.
    private(set) var framesWritten: Int64 = 0

    /// Creates the file (replacing one already there, as Apple's class does) and its encoder.
    init(url: URL, plan: Plan, isFloat: Bool, bitsPerChannel: Int) throws {
        try? FileManager.default.removeItem(at: url)
        encoder = try Encoder(settings: .audio(plan.audio), globalHeader: Muxer.needsGlobalHeader(fileType: plan.fileType))
        muxer = try Muxer(url: url, fileType: plan.fileType)
        track = try muxer.addTrack(from: encoder)
        samples = PCMSampleBufferMaker(sampleRate: Double(plan.audio.sampleRate), channelCount: plan.audio.channelCount,
                                       bitsPerChannel: bitsPerChannel, isFloat: isFloat)
    }

    /// Encodes a buffer's valid frames.
    func write(_ buffer: AVAudioPCMBuffer) throws {
        guard let sample = try samples.sampleBuffer(of: buffer, start: framesWritten) else {
            return
        }
        let frames = Int(buffer.frameLength)
        try encoder.encode(pcm: sample)
        try writePackets()
        framesWritten += Int64(frames)
    }

    /// Encodes what the encoder holds and finishes the file.
    func finish() throws {
        try encoder.finish()
        try writePackets()
        try muxer.finish()
    }

    /// Stops writing and deletes the file, after a failure.
    func cancel() {
        muxer.cancel()
    }

    /// Hands the encoder's packets to the muxer, starting it on the first.
    private func writePackets() throws {
        let packets = encoder.receivePackets()
        guard !packets.isEmpty else { return }
        try muxer.start()
        for packet in packets { try muxer.write(packet, track: track) }
    }
}
