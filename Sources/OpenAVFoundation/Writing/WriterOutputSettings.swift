import Foundation
import MediaEngine
import OpenCoreMedia
import OpenCoreVideo

/// What an `AVAssetWriterInput`'s output settings ask the engine to encode, or why they cannot
/// be honoured (the message names the key and value).
enum WriterOutputSettings {
    /// Reads video or audio output settings as Apple documents them. `nil` settings mean
    /// passthrough and are not read here.
    static func encoderSettings(_ settings: [String: Any], mediaType: AVMediaType) throws(SettingsProblem) -> EncoderSettings {
        switch mediaType {
        case .video: return .video(try video(settings))
        case .audio: return .audio(try audio(settings))
        default: throw SettingsProblem("\(mediaType.rawValue) inputs take nil output settings (passthrough) only")
        }
    }

    static let videoKeys: Set<String> = [
        AVVideoCodecKey, AVVideoWidthKey, AVVideoHeightKey, AVVideoScalingModeKey, AVVideoColorPropertiesKey,
        AVVideoCompressionPropertiesKey, AVVideoPixelAspectRatioKey, AVVideoCleanApertureKey, AVVideoAllowWideColorKey,
    ]

    static func video(_ settings: [String: Any]) throws(SettingsProblem) -> EncoderSettings.Video {
        if let unknown = settings.keys.first(where: { !videoKeys.contains($0) }) {
            throw SettingsProblem("video output settings key \(unknown) is not supported")
        }
        let codecName = (settings[AVVideoCodecKey] as? AVVideoCodecType)?.rawValue ?? settings[AVVideoCodecKey] as? String
        guard let codecName else { throw SettingsProblem("video output settings need AVVideoCodecKey") }
        let codecs: [String: EncoderSettings.VideoCodec] = [
            AVVideoCodecType.h264.rawValue: .h264, AVVideoCodecType.hevc.rawValue: .hevc, AVVideoCodecType.jpeg.rawValue: .jpeg,
            AVVideoCodecType.proRes422.rawValue: .proRes422, AVVideoCodecType.proRes422HQ.rawValue: .proRes422HQ,
            AVVideoCodecType.proRes422LT.rawValue: .proRes422LT, AVVideoCodecType.proRes422Proxy.rawValue: .proRes422Proxy,
            AVVideoCodecType.proRes4444.rawValue: .proRes4444,
        ]
        guard let codec = codecs[codecName] else {
            throw SettingsProblem("AVVideoCodecKey \(codecName) names no codec this platform encodes")
        }
        guard let width = SettingsValue.double(settings[AVVideoWidthKey]).map(Int.init), let height = SettingsValue.double(settings[AVVideoHeightKey]).map(Int.init),
              width > 0, height > 0 else {
            throw SettingsProblem("video output settings need positive AVVideoWidthKey and AVVideoHeightKey")
        }
        if codec != .jpeg && (width % 2 != 0 || height % 2 != 0) {
            throw SettingsProblem("\(codecName) needs even dimensions, not \(width)x\(height)")
        }
        var video = EncoderSettings.Video(codec: codec, width: width, height: height)
        if let colors = settings[AVVideoColorPropertiesKey] as? [String: Any] {
            video.colorPrimaries = colors[AVVideoColorPrimariesKey] as? String
            video.transferFunction = colors[AVVideoTransferFunctionKey] as? String
            video.yCbCrMatrix = colors[AVVideoYCbCrMatrixKey] as? String
        }
        if let aspect = settings[AVVideoPixelAspectRatioKey] as? [String: Any] {
            guard let horizontal = SettingsValue.double(aspect[AVVideoPixelAspectRatioHorizontalSpacingKey]).map(Int32.init),
                  let vertical = SettingsValue.double(aspect[AVVideoPixelAspectRatioVerticalSpacingKey]).map(Int32.init),
                  horizontal > 0, vertical > 0 else {
                throw SettingsProblem("AVVideoPixelAspectRatioKey needs positive horizontal and vertical spacings")
            }
            video.pixelAspectRatio = EncoderSettings.PixelAspectRatio(horizontal: horizontal, vertical: vertical)
        }
        if let compression = settings[AVVideoCompressionPropertiesKey] as? [String: Any] {
            try readCompression(compression, into: &video)
        }
        return video
    }

    static func readCompression(_ compression: [String: Any], into video: inout EncoderSettings.Video) throws(SettingsProblem) {
        let known: Set<String> = [AVVideoAverageBitRateKey, AVVideoQualityKey, AVVideoMaxKeyFrameIntervalKey,
                                  AVVideoMaxKeyFrameIntervalDurationKey, AVVideoAllowFrameReorderingKey, AVVideoProfileLevelKey,
                                  AVVideoExpectedSourceFrameRateKey, AVVideoH264EntropyModeKey, AVVideoAverageNonDroppableFrameRateKey]
        if let unknown = compression.keys.first(where: { !known.contains($0) }) {
            throw SettingsProblem("compression property \(unknown) is not supported")
        }
        if let rate = SettingsValue.double(compression[AVVideoAverageBitRateKey]) {
            guard rate > 0 else { throw SettingsProblem("AVVideoAverageBitRateKey must be positive, not \(rate)") }
            video.averageBitRate = Int(rate)
        }
        if let quality = SettingsValue.double(compression[AVVideoQualityKey]) {
            guard (0...1).contains(quality) else { throw SettingsProblem("AVVideoQualityKey must be from 0 to 1, not \(quality)") }
            video.quality = quality
        }
        if let interval = SettingsValue.double(compression[AVVideoMaxKeyFrameIntervalKey]) {
            guard interval >= 1 else { throw SettingsProblem("AVVideoMaxKeyFrameIntervalKey must be at least 1") }
            video.maxKeyFrameInterval = Int(interval)
        }
        if let seconds = SettingsValue.double(compression[AVVideoMaxKeyFrameIntervalDurationKey]), seconds > 0 {
            video.maxKeyFrameIntervalDuration = CMTime(seconds: seconds, preferredTimescale: 600)
        }
        if let reorder = compression[AVVideoAllowFrameReorderingKey] {
            video.allowFrameReordering = (reorder as? Bool) ?? (SettingsValue.double(reorder).map { $0 != 0 })
        }
        if let rate = SettingsValue.double(compression[AVVideoExpectedSourceFrameRateKey]), rate > 0 { video.expectedFrameRate = rate }
        if let profile = compression[AVVideoProfileLevelKey] as? String {
            video.profile = try self.profile(profile, codec: video.codec)
        }
    }

    /// An Apple profile-level name ("H264_High_4_1", "H264_Main_AutoLevel", "HEVC_Main10_AutoLevel").
    static func profile(_ name: String, codec: EncoderSettings.VideoCodec) throws(SettingsProblem) -> EncoderSettings.Profile {
        let parts = name.split(separator: "_").map(String.init)
        guard parts.count >= 3 else { throw SettingsProblem("AVVideoProfileLevelKey \(name) is not a profile-level name") }
        let level = parts[2] == "AutoLevel" ? nil : parts[2...].joined(separator: ".")
        switch (codec, parts[0], parts[1]) {
        case (.h264, "H264", "Baseline"): return .h264Baseline(level: level)
        case (.h264, "H264", "Main"): return .h264Main(level: level)
        case (.h264, "H264", "High"): return .h264High(level: level)
        case (.hevc, "HEVC", "Main"): return .hevcMain
        case (.hevc, "HEVC", "Main10"): return .hevcMain10
        default: throw SettingsProblem("AVVideoProfileLevelKey \(name) does not fit the codec")
        }
    }

    static let audioKeys: Set<String> = [
        AVFormatIDKey, AVSampleRateKey, AVNumberOfChannelsKey, AVChannelLayoutKey, AVEncoderBitRateKey,
        AVEncoderBitRatePerChannelKey, AVEncoderAudioQualityKey, AVEncoderAudioQualityForVBRKey, AVEncoderBitRateStrategyKey,
        AVEncoderBitDepthHintKey, AVLinearPCMBitDepthKey, AVLinearPCMIsFloatKey, AVLinearPCMIsBigEndianKey,
        AVLinearPCMIsNonInterleaved, AVSampleRateConverterAudioQualityKey, AVSampleRateConverterAlgorithmKey,
    ]

    static func audio(_ settings: [String: Any]) throws(SettingsProblem) -> EncoderSettings.Audio {
        if let unknown = settings.keys.first(where: { !audioKeys.contains($0) }) {
            throw SettingsProblem("audio output settings key \(unknown) is not supported")
        }
        guard let format = SettingsValue.double(settings[AVFormatIDKey]).map({ AudioFormatID($0) }) else {
            throw SettingsProblem("audio output settings need AVFormatIDKey")
        }
        let rate = Int(SettingsValue.double(settings[AVSampleRateKey]) ?? 44100)
        let channels = Int(SettingsValue.double(settings[AVNumberOfChannelsKey]) ?? 2)
        guard rate > 0, (1...8).contains(channels) else {
            throw SettingsProblem("AVSampleRateKey \(rate) and AVNumberOfChannelsKey \(channels) must be positive (1 to 8 channels)")
        }
        let codec: EncoderSettings.AudioCodec
        switch format {
        case kAudioFormatMPEG4AAC:
            guard [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000, 64000, 88200, 96000].contains(rate) else {
                throw SettingsProblem("AAC cannot be encoded at \(rate) Hz")
            }
            codec = .aac
        case kAudioFormatAppleLossless:
            codec = .appleLossless(bitDepth: Int(SettingsValue.double(settings[AVEncoderBitDepthHintKey]) ?? 16))
        case kAudioFormatOpus:
            guard [8000, 12000, 16000, 24000, 48000].contains(rate) else {
                throw SettingsProblem("Opus cannot be encoded at \(rate) Hz")
            }
            codec = .opus
        case kAudioFormatLinearPCM:
            let bits = Int(SettingsValue.double(settings[AVLinearPCMBitDepthKey]) ?? 16)
            let isFloat = (settings[AVLinearPCMIsFloatKey] as? Bool) ?? false
            guard isFloat ? bits == 32 : [16, 24, 32].contains(bits) else {
                throw SettingsProblem("linear PCM of \(bits) bits\(isFloat ? " float" : "") cannot be written")
            }
            codec = .linearPCM(bits: bits, isFloat: isFloat)
        default:
            throw SettingsProblem("AVFormatIDKey \(FourCharCode(format).fourCCString) names no format this platform encodes")
        }
        var bitRate = SettingsValue.double(settings[AVEncoderBitRateKey]).map(Int.init)
        if bitRate == nil, let perChannel = SettingsValue.double(settings[AVEncoderBitRatePerChannelKey]) { bitRate = Int(perChannel) * channels }
        return EncoderSettings.Audio(codec: codec, sampleRate: rate, channelCount: channels, bitRate: bitRate)
    }
}
