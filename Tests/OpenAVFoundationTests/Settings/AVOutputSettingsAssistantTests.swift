import Foundation
import Testing
@testable import OpenAVFoundation

/// The output settings assistant: its presets, the shape of its settings and source fitting.
@Suite("AVOutputSettingsAssistant", .timeLimit(.minutes(10)))
struct AVOutputSettingsAssistantTests {
    /// A video format description of the given size.
    private func videoFormat(width: Int32, height: Int32) throws -> CMVideoFormatDescription {
        var format: CMVideoFormatDescription?
        let status = CMVideoFormatDescriptionCreate(allocator: nil, codecType: kCMVideoCodecType_H264, width: width,
                                                    height: height, extensions: nil, formatDescriptionOut: &format)
        #expect(status == noErr)
        return try #require(format)
    }

    /// A linear PCM audio format description.
    private func audioFormat(sampleRate: Double, channels: UInt32) throws -> CMAudioFormatDescription {
        var asbd = AudioStreamBasicDescription(
            mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked, mBytesPerPacket: 2 * channels,
            mFramesPerPacket: 1, mBytesPerFrame: 2 * channels, mChannelsPerFrame: channels, mBitsPerChannel: 16,
            mReserved: 0)
        var format: CMAudioFormatDescription?
        let status = CMAudioFormatDescriptionCreate(allocator: nil, asbd: &asbd, layoutSize: 0, layout: nil,
                                                    magicCookieSize: 0, magicCookie: nil, extensions: nil,
                                                    formatDescriptionOut: &format)
        #expect(status == noErr)
        return try #require(format)
    }

    @Test("Preset identifiers are Apple's and all of them are available")
    func presets() {
        let expected: [(AVOutputSettingsPreset, String)] = [
            (.preset640x480, "AVOutputSettingsPreset640x480"), (.preset960x540, "AVOutputSettingsPreset960x540"),
            (.preset1280x720, "AVOutputSettingsPreset1280x720"), (.preset1920x1080, "AVOutputSettingsPreset1920x1080"),
            (.preset3840x2160, "AVOutputSettingsPreset3840x2160"),
            (.hevc1920x1080, "AVOutputSettingsPresetHEVC1920x1080"),
            (.hevc1920x1080WithAlpha, "AVOutputSettingsPresetHEVC1920x1080WithAlpha"),
            (.hevc3840x2160, "AVOutputSettingsPresetHEVC3840x2160"),
            (.hevc3840x2160WithAlpha, "AVOutputSettingsPresetHEVC3840x2160WithAlpha"),
            (.hevc7680x4320, "AVOutputSettingsPresetHEVC7680x4320"),
        ]
        for (preset, raw) in expected { #expect(preset.rawValue == raw) }
        #expect(AVOutputSettingsAssistant.availableOutputSettingsPresets() == expected.map(\.0))
        for preset in AVOutputSettingsAssistant.availableOutputSettingsPresets() {
            #expect(AVOutputSettingsAssistant(preset: preset) != nil)
        }
        #expect(AVOutputSettingsAssistant(preset: AVOutputSettingsPreset(rawValue: "NoSuchPreset")) == nil)
    }

    @Test("Each preset's video settings carry its codec, box size and compression properties",
          arguments: [
              (AVOutputSettingsPreset.preset640x480, "avc1", 640, 480),
              (.preset960x540, "avc1", 960, 540), (.preset1280x720, "avc1", 1280, 720),
              (.preset1920x1080, "avc1", 1920, 1080), (.preset3840x2160, "avc1", 3840, 2160),
              (.hevc1920x1080, "hvc1", 1920, 1080), (.hevc1920x1080WithAlpha, "muxa", 1920, 1080),
              (.hevc3840x2160, "hvc1", 3840, 2160), (.hevc3840x2160WithAlpha, "muxa", 3840, 2160),
              (.hevc7680x4320, "hvc1", 7680, 4320),
          ])
    func videoSettings(preset: AVOutputSettingsPreset, codec: String, width: Int, height: Int) throws {
        let assistant = try #require(AVOutputSettingsAssistant(preset: preset))
        #expect(assistant.outputFileType == .mov)
        let video = try #require(assistant.videoSettings)
        #expect(video[AVVideoCodecKey] as? String == codec)
        #expect(video[AVVideoWidthKey] as? Int == width)
        #expect(video[AVVideoHeightKey] as? Int == height)
        #expect(video[AVVideoScalingModeKey] as? String == AVVideoScalingModeResizeAspect)
        let compression = try #require(video[AVVideoCompressionPropertiesKey] as? [String: Any])
        let bitRate = try #require(compression[AVVideoAverageBitRateKey] as? Int)
        #expect(bitRate >= width * height && bitRate <= width * height * 10)
        #expect(compression[AVVideoExpectedSourceFrameRateKey] as? Double == 30)
        if codec == "avc1" {
            #expect(compression[AVVideoProfileLevelKey] as? String == AVVideoProfileLevelH264HighAutoLevel)
        } else {
            #expect(compression[AVVideoProfileLevelKey] == nil)
        }
    }

    @Test("Bit rates grow with the preset's size")
    func bitRatesGrow() throws {
        let rates = try [AVOutputSettingsPreset.preset640x480, .preset960x540, .preset1280x720, .preset1920x1080,
                         .preset3840x2160].map { preset -> Int in
            let video = try #require(AVOutputSettingsAssistant(preset: preset)?.videoSettings)
            let compression = try #require(video[AVVideoCompressionPropertiesKey] as? [String: Any])
            return try #require(compression[AVVideoAverageBitRateKey] as? Int)
        }
        #expect(rates == rates.sorted() && Set(rates).count == rates.count)
    }

    @Test("Audio settings are stereo AAC with a bit rate and a stereo channel layout")
    func audioSettings() throws {
        let audio = try #require(AVOutputSettingsAssistant(preset: .preset1280x720)?.audioSettings)
        #expect(audio[AVFormatIDKey] as? AudioFormatID == kAudioFormatMPEG4AAC)
        #expect(audio[AVSampleRateKey] as? Double == 44_100)
        #expect(audio[AVNumberOfChannelsKey] as? Int == 2)
        #expect(audio[AVEncoderBitRateKey] as? Int == 128_000)
        let layout = try #require(audio[AVChannelLayoutKey] as? Data)
        #expect(layout.count == MemoryLayout<AudioChannelLayout>.size)
        let tag = layout.withUnsafeBytes { $0.loadUnaligned(as: AudioChannelLayoutTag.self) }
        #expect(tag == kAudioChannelLayoutTag_Stereo)
    }

    @Test("A 1920x1080 source fits the 640x480 preset as 640x360")
    func fitsWideSourceIntoSmallerBox() throws {
        let assistant = try #require(AVOutputSettingsAssistant(preset: .preset640x480))
        assistant.sourceVideoFormat = try videoFormat(width: 1920, height: 1080)
        let video = try #require(assistant.videoSettings)
        #expect(video[AVVideoWidthKey] as? Int == 640)
        #expect(video[AVVideoHeightKey] as? Int == 360)
    }

    @Test("A 320x240 source is never enlarged by the 1280x720 preset")
    func neverEnlarges() throws {
        let assistant = try #require(AVOutputSettingsAssistant(preset: .preset1280x720))
        assistant.sourceVideoFormat = try videoFormat(width: 320, height: 240)
        let video = try #require(assistant.videoSettings)
        #expect(video[AVVideoWidthKey] as? Int == 320)
        #expect(video[AVVideoHeightKey] as? Int == 240)
        let compression = try #require(video[AVVideoCompressionPropertiesKey] as? [String: Any])
        let small = try #require(compression[AVVideoAverageBitRateKey] as? Int)
        let base = try #require(AVOutputSettingsAssistant(preset: .preset1280x720)?.videoSettings)
        let baseRate = try #require((base[AVVideoCompressionPropertiesKey] as? [String: Any])?[AVVideoAverageBitRateKey]
            as? Int)
        #expect(small < baseRate)
    }

    @Test("Fitting keeps the aspect ratio for tall and exact sources")
    func fitArithmetic() {
        #expect(AVOutputSettingsAssistant.fit(sourceWidth: 1080, sourceHeight: 1920, intoWidth: 1280, height: 720)
            == (405, 720))
        #expect(AVOutputSettingsAssistant.fit(sourceWidth: 1920, sourceHeight: 1080, intoWidth: 1920, height: 1080)
            == (1920, 1080))
        #expect(AVOutputSettingsAssistant.fit(sourceWidth: 3840, sourceHeight: 2160, intoWidth: 1280, height: 720)
            == (1280, 720))
        #expect(AVOutputSettingsAssistant.fit(sourceWidth: 640, sourceHeight: 480, intoWidth: 1920, height: 1080)
            == (640, 480))
    }

    @Test("The frame durations default to 1/30 s and drive the expected frame rate")
    func frameDurations() throws {
        let assistant = try #require(AVOutputSettingsAssistant(preset: .preset1920x1080))
        #expect(assistant.sourceVideoAverageFrameDuration == CMTimeMake(value: 1, timescale: 30))
        #expect(assistant.sourceVideoMinFrameDuration == CMTimeMake(value: 1, timescale: 30))
        assistant.sourceVideoMinFrameDuration = CMTimeMake(value: 1, timescale: 60)
        let video = try #require(assistant.videoSettings)
        let compression = try #require(video[AVVideoCompressionPropertiesKey] as? [String: Any])
        #expect(compression[AVVideoExpectedSourceFrameRateKey] as? Double == 60)
    }

    @Test("A source audio format lowers the sample rate and sets the channel count")
    func sourceAudio() throws {
        let assistant = try #require(AVOutputSettingsAssistant(preset: .preset640x480))
        assistant.sourceAudioFormat = try audioFormat(sampleRate: 22_050, channels: 1)
        let audio = try #require(assistant.audioSettings)
        #expect(audio[AVSampleRateKey] as? Double == 22_050)
        #expect(audio[AVNumberOfChannelsKey] as? Int == 1)
        let layout = try #require(audio[AVChannelLayoutKey] as? Data)
        #expect(layout.withUnsafeBytes { $0.loadUnaligned(as: AudioChannelLayoutTag.self) } == kAudioChannelLayoutTag_Mono)
        assistant.sourceAudioFormat = try audioFormat(sampleRate: 96_000, channels: 2)
        #expect(assistant.audioSettings?[AVSampleRateKey] as? Double == 44_100)
    }
}
