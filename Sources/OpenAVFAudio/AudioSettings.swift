import Foundation
import OpenCoreMedia

/// An audio settings dictionary read into a stream description and a channel layout, as
/// `AVAudioFormat(settings:)` and `AVAudioFile(forWriting:settings:)` take it.
package struct AudioSettings {
    /// The stream description the settings ask for.
    package let description: AudioStreamBasicDescription
    /// The layout from `AVChannelLayoutKey`, nil when absent.
    package let layout: AVAudioChannelLayout?

    /// Reads the format keys; nil when the format ID, rate or channel count is missing or
    /// unusable, a PCM bit depth is not one Core Audio has, or the layout disagrees with the
    /// channel count.
    package init?(_ settings: [String: Any]) {
        let formatID = settings[AVFormatIDKey].flatMap(SettingsValue.integer).map { AudioFormatID(truncatingIfNeeded: $0) }
            ?? kAudioFormatLinearPCM
        guard let rate = SettingsValue.double(settings[AVSampleRateKey]), rate > 0, rate <= 768_000 else { return nil }
        var layout: AVAudioChannelLayout?
        if let data = settings[AVChannelLayoutKey] as? Data ?? (settings[AVChannelLayoutKey] as? NSData).map({ $0 as Data }) {
            guard data.count >= MemoryLayout<AudioChannelLayoutTag>.size else { return nil }
            var bytes = [UInt8](repeating: 0, count: max(data.count, MemoryLayout<AudioChannelLayout>.size))
            bytes.replaceSubrange(0..<data.count, with: data)
            layout = bytes.withUnsafeBytes { AVAudioChannelLayout(layout: $0.baseAddress!.assumingMemoryBound(to: AudioChannelLayout.self)) }
        }
        let channelCount = SettingsValue.integer(settings[AVNumberOfChannelsKey]).map(Int.init) ?? layout.map { Int($0.channelCount) }
        guard let channelCount, (1...64).contains(channelCount) else { return nil }
        if let layout, layout.channelCount != channelCount { return nil }
        let channels = UInt32(channelCount)
        if formatID == kAudioFormatLinearPCM {
            let isFloat = SettingsValue.double(settings[AVLinearPCMIsFloatKey]) == 1
            let bits = SettingsValue.integer(settings[AVLinearPCMBitDepthKey]).map { UInt32(clamping: $0) } ?? (isFloat ? 32 : 16)
            guard isFloat ? [32, 64].contains(bits) : [8, 16, 24, 32].contains(bits) else { return nil }
            description = Self.pcmDescription(
                sampleRate: rate, channels: channels, bits: bits, isFloat: isFloat,
                isBigEndian: SettingsValue.double(settings[AVLinearPCMIsBigEndianKey]) == 1,
                isNonInterleaved: SettingsValue.double(settings[AVLinearPCMIsNonInterleaved]) == 1)
        } else {
            description = AudioStreamBasicDescription(
                mSampleRate: rate, mFormatID: formatID, mFormatFlags: 0, mBytesPerPacket: 0,
                mFramesPerPacket: Self.framesPerPacket(formatID), mBytesPerFrame: 0, mChannelsPerFrame: channels,
                mBitsPerChannel: 0, mReserved: 0)
        }
        self.layout = layout
    }

    /// Core Audio's linear PCM description, as `FillOutASBDForLPCM` makes it (8-bit samples
    /// unsigned, as in WAV; the others signed).
    package static func pcmDescription(sampleRate: Double, channels: UInt32, bits: UInt32, isFloat: Bool,
                                       isBigEndian: Bool, isNonInterleaved: Bool) -> AudioStreamBasicDescription {
        var flags: AudioFormatFlags = kAudioFormatFlagIsPacked
        if isFloat { flags |= kAudioFormatFlagIsFloat } else if bits > 8 { flags |= kAudioFormatFlagIsSignedInteger }
        if isBigEndian { flags |= kAudioFormatFlagIsBigEndian }
        if isNonInterleaved { flags |= kAudioFormatFlagIsNonInterleaved }
        let bytesPerFrame = bits / 8 * (isNonInterleaved ? 1 : channels)
        return AudioStreamBasicDescription(
            mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags,
            mBytesPerPacket: bytesPerFrame, mFramesPerPacket: 1, mBytesPerFrame: bytesPerFrame,
            mChannelsPerFrame: channels, mBitsPerChannel: bits, mReserved: 0)
    }

    /// The frames in one packet of a compressed format, 0 when variable or unknown.
    private static func framesPerPacket(_ formatID: AudioFormatID) -> UInt32 {
        switch formatID {
        case kAudioFormatMPEG4AAC: 1024
        case kAudioFormatAppleLossless: 4096
        case kAudioFormatMPEGLayer3: 1152
        case kAudioFormatOpus: 960
        default: 0
        }
    }
}
