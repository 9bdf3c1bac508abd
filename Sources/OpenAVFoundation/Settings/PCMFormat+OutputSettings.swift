// The package-internal parser that turns linear PCM output settings (the keys are
// OpenAVFAudio's, as on Apple platforms) into the engine's PCMFormat.

import Foundation
import MediaEngine
import OpenAVFAudio

// MARK: Parsing

extension PCMFormat {
    /// An audio settings dictionary the engine cannot honour: the key, its value and why.
    package struct SettingsError: Error, CustomStringConvertible, Sendable {
        /// The offending key, such as `AVLinearPCMBitDepthKey`.
        package let key: String
        /// The offending value as text, nil when the key was missing.
        package let value: String?
        /// Why the value cannot be used.
        package let reason: String

        /// "AVLinearPCMBitDepthKey = 12: reason".
        package var description: String {
            "\(key)\(value.map { " = \($0)" } ?? ""): \(reason)"
        }
    }

    /// The linear PCM format asked for by audio output settings, as an asset reader's audio
    /// outputs take them.
    ///
    /// `AVFormatIDKey` must be `kAudioFormatLinearPCM` (absent means linear PCM). Absent keys
    /// take these defaults: the source's sample rate and channel count, 16 bits (32 when
    /// `AVLinearPCMIsFloatKey` is true), signed integer, little-endian, interleaved: the
    /// format Apple's readers produce for `[AVFormatIDKey: kAudioFormatLinearPCM]`.
    /// `AVChannelLayoutKey` must agree with the channel count; channels come in FFmpeg's order
    /// for the count (see `PCMFormat.channelLayoutTag`). `AVSampleRateConverterAlgorithmKey`
    /// accepts Apple's three algorithms (libswresample's one is used for all). Encoder keys and
    /// `AVSampleRateConverterAudioQualityKey` (which Apple's track outputs also refuse) and
    /// unknown keys throw.
    package init(outputSettings settings: [String: Any], sourceSampleRate: Double,
                 sourceChannelCount: Int) throws(SettingsError) {
        for key in settings.keys where !Self.pcmKeys.contains(key) {
            let reason = Self.encoderKeys.contains(key)
                ? "encoder settings do not apply to linear PCM output"
                : key == AVSampleRateConverterAudioQualityKey
                    ? "track outputs do not support this key"
                    : "not an audio settings key for linear PCM output"
            throw SettingsError(key: key, value: settings[key].map { "\($0)" }, reason: reason)
        }
        if let value = settings[AVFormatIDKey] {
            guard let id = Self.integer(value), id == Int(kAudioFormatLinearPCM) else {
                throw SettingsError(key: AVFormatIDKey, value: Self.text(value),
                                    reason: "only kAudioFormatLinearPCM ('lpcm') can be read; other formats need a writer")
            }
        }
        var rate = sourceSampleRate
        if let value = settings[AVSampleRateKey] {
            guard let number = SettingsValue.double(value), number > 0, number == number.rounded(), number <= 768_000 else {
                throw SettingsError(key: AVSampleRateKey, value: Self.text(value),
                                    reason: "the sample rate must be a whole number of hertz from 1 to 768000")
            }
            rate = number
        }
        var channels = sourceChannelCount
        if let value = settings[AVNumberOfChannelsKey] {
            guard let count = Self.integer(value), (1...64).contains(count) else {
                throw SettingsError(key: AVNumberOfChannelsKey, value: Self.text(value),
                                    reason: "the channel count must be a whole number from 1 to 64")
            }
            channels = count
        }
        if let value = settings[AVChannelLayoutKey] {
            guard let data = value as? Data ?? (value as? NSData).map({ $0 as Data }),
                  data.count >= MemoryLayout<AudioChannelLayoutTag>.size else {
                throw SettingsError(key: AVChannelLayoutKey, value: Self.text(value),
                                    reason: "the channel layout must be Data holding an AudioChannelLayout")
            }
            let tag = data.withUnsafeBytes { $0.loadUnaligned(as: AudioChannelLayoutTag.self) }
            let tagChannels = Int(tag & 0xFFFF)
            let fromDescriptions = tag == 0 && data.count >= 12
                ? Int(data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 8, as: UInt32.self) }) : 0
            let layoutChannels = tag == 0 ? fromDescriptions : tagChannels
            if settings[AVNumberOfChannelsKey] == nil, layoutChannels > 0 { channels = layoutChannels }
            guard layoutChannels == 0 || layoutChannels == channels else {
                throw SettingsError(key: AVChannelLayoutKey, value: Self.text(value),
                                    reason: "the layout has \(layoutChannels) channels but \(channels) were asked for")
            }
        }
        let isFloat = try Self.flag(settings, AVLinearPCMIsFloatKey)
        let isBigEndian = try Self.flag(settings, AVLinearPCMIsBigEndianKey)
        let isNonInterleaved = try Self.flag(settings, AVLinearPCMIsNonInterleaved)
        var bits = isFloat ? 32 : 16
        if let value = settings[AVLinearPCMBitDepthKey] {
            let allowed = isFloat ? [32, 64] : [8, 16, 24, 32]
            guard let depth = Self.integer(value), allowed.contains(depth) else {
                throw SettingsError(key: AVLinearPCMBitDepthKey, value: Self.text(value),
                                    reason: "\(isFloat ? "float" : "integer") samples can be "
                                        + allowed.map(String.init).joined(separator: ", ") + " bits")
            }
            bits = depth
        }
        if let value = settings[AVSampleRateConverterAlgorithmKey] {
            let algorithms = [AVSampleRateConverterAlgorithm_Normal, AVSampleRateConverterAlgorithm_Mastering,
                              AVSampleRateConverterAlgorithm_MinimumPhase]
            guard let name = value as? String, algorithms.contains(name) else {
                throw SettingsError(key: AVSampleRateConverterAlgorithmKey, value: Self.text(value),
                                    reason: "not one of the AVSampleRateConverterAlgorithm_ values")
            }
        }
        self.init(sampleRate: rate, channelCount: channels, bitsPerChannel: bits, isFloat: isFloat,
                  isBigEndian: isBigEndian, isNonInterleaved: isNonInterleaved)
        do {
            try validate()
        } catch {
            // Only a source rate or channel count can still be wrong here.
            throw SettingsError(key: settings[AVSampleRateKey] == nil ? AVSampleRateKey : AVNumberOfChannelsKey,
                                value: nil, reason: "the source track gives no usable value: \(error.message)")
        }
    }

    /// The keys a linear PCM output understands.
    private static let pcmKeys: Set<String> = [
        AVFormatIDKey, AVSampleRateKey, AVNumberOfChannelsKey, AVChannelLayoutKey, AVLinearPCMBitDepthKey,
        AVLinearPCMIsBigEndianKey, AVLinearPCMIsFloatKey, AVLinearPCMIsNonInterleaved,
        AVSampleRateConverterAlgorithmKey,
    ]

    /// The keys that only configure encoders.
    private static let encoderKeys: Set<String> = [
        AVEncoderAudioQualityKey, AVEncoderAudioQualityForVBRKey, AVEncoderBitRateKey,
        AVEncoderBitRatePerChannelKey, AVEncoderBitRateStrategyKey, AVEncoderBitDepthHintKey,
    ]

    /// A value as text for messages.
    private static func text(_ value: Any) -> String { "\(value)" }

    /// A whole-number settings value, or nil when the value is not a whole number.
    private static func integer(_ value: Any) -> Int? {
        guard type(of: value) != Bool.self, let number = SettingsValue.double(value), number == number.rounded(),
              abs(number) < 1e15 else { return nil }
        return Int(number)
    }

    /// A Boolean settings value (`Bool`, or a number 0 or 1); false when absent.
    private static func flag(_ settings: [String: Any], _ key: String) throws(SettingsError) -> Bool {
        guard let value = settings[key] else { return false }
        if let bool = value as? Bool { return bool }
        guard let number = SettingsValue.double(value), number == 0 || number == 1 else {
            throw SettingsError(key: key, value: text(value), reason: "the value must be a Bool")
        }
        return number == 1
    }
}
