import Foundation
import Testing
import MediaEngine
@testable import OpenAVFoundation

/// The audio settings keys with Apple's values, and linear PCM output settings parsed into the
/// engine's PCM format.
@Suite("AVAudioSettings", .timeLimit(.minutes(10)))
struct AVAudioSettingsTests {
    @Test("Keys and values are Apple's strings")
    func stringValues() {
        let keys = [AVFormatIDKey, AVSampleRateKey, AVNumberOfChannelsKey, AVChannelLayoutKey,
                    AVLinearPCMBitDepthKey, AVLinearPCMIsBigEndianKey, AVLinearPCMIsFloatKey,
                    AVEncoderAudioQualityKey, AVEncoderAudioQualityForVBRKey, AVEncoderBitRateKey,
                    AVEncoderBitRatePerChannelKey, AVEncoderBitRateStrategyKey, AVEncoderBitDepthHintKey,
                    AVSampleRateConverterAlgorithmKey, AVSampleRateConverterAudioQualityKey]
        let names = ["AVFormatIDKey", "AVSampleRateKey", "AVNumberOfChannelsKey", "AVChannelLayoutKey",
                     "AVLinearPCMBitDepthKey", "AVLinearPCMIsBigEndianKey", "AVLinearPCMIsFloatKey",
                     "AVEncoderAudioQualityKey", "AVEncoderAudioQualityForVBRKey", "AVEncoderBitRateKey",
                     "AVEncoderBitRatePerChannelKey", "AVEncoderBitRateStrategyKey", "AVEncoderBitDepthHintKey",
                     "AVSampleRateConverterAlgorithmKey", "AVSampleRateConverterAudioQualityKey"]
        #expect(keys == names)
        #expect(AVLinearPCMIsNonInterleaved == "AVLinearPCMIsNonInterleaved")
        #expect(AVLinearPCMIsNonInterleavedKey == AVLinearPCMIsNonInterleaved)
        #expect(AVAudioBitRateStrategy_Constant == "AVAudioBitRateStrategy_Constant")
        #expect(AVAudioBitRateStrategy_LongTermAverage == "AVAudioBitRateStrategy_LongTermAverage")
        #expect(AVAudioBitRateStrategy_VariableConstrained == "AVAudioBitRateStrategy_VariableConstrained")
        #expect(AVAudioBitRateStrategy_Variable == "AVAudioBitRateStrategy_Variable")
        #expect(AVSampleRateConverterAlgorithm_Normal == "AVSampleRateConverterAlgorithm_Normal")
        #expect(AVSampleRateConverterAlgorithm_Mastering == "AVSampleRateConverterAlgorithm_Mastering")
        #expect(AVSampleRateConverterAlgorithm_MinimumPhase == "AVSampleRateConverterAlgorithm_MinimumPhase")
    }

    @Test("AVAudioQuality raw values are Apple's")
    func qualityValues() {
        #expect(AVAudioQuality.min.rawValue == 0)
        #expect(AVAudioQuality.low.rawValue == 0x20)
        #expect(AVAudioQuality.medium.rawValue == 0x40)
        #expect(AVAudioQuality.high.rawValue == 0x60)
        #expect(AVAudioQuality.max.rawValue == 0x7F)
        #expect(AVAudioQuality(rawValue: 0x60) == .high)
        #expect(AVAudioQuality(rawValue: 1) == nil)
    }

    @Test("Absent keys take the source's rate and channels, 16-bit interleaved integers")
    func defaults() throws {
        let format = try PCMFormat(outputSettings: [AVFormatIDKey: kAudioFormatLinearPCM],
                                   sourceSampleRate: 48_000, sourceChannelCount: 6)
        #expect(format == PCMFormat(sampleRate: 48_000, channelCount: 6, bitsPerChannel: 16, isFloat: false,
                                    isBigEndian: false, isNonInterleaved: false))
        let float = try PCMFormat(outputSettings: [AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMIsFloatKey: true],
                                  sourceSampleRate: 44_100, sourceChannelCount: 2)
        #expect(float.bitsPerChannel == 32 && float.isFloat)
    }

    @Test("Every linear PCM key is honoured, whatever number type carries it")
    func everyKey() throws {
        let settings: [String: Any] = [
            AVFormatIDKey: NSNumber(value: kAudioFormatLinearPCM),
            AVSampleRateKey: 22_050.0,
            AVNumberOfChannelsKey: NSNumber(value: 1),
            AVLinearPCMBitDepthKey: Int32(24),
            AVLinearPCMIsBigEndianKey: true,
            AVLinearPCMIsFloatKey: NSNumber(value: false),
            AVLinearPCMIsNonInterleaved: 1,
            AVSampleRateConverterAlgorithmKey: AVSampleRateConverterAlgorithm_Mastering,
        ]
        let format = try PCMFormat(outputSettings: settings, sourceSampleRate: 48_000, sourceChannelCount: 2)
        #expect(format == PCMFormat(sampleRate: 22_050, channelCount: 1, bitsPerChannel: 24, isFloat: false,
                                    isBigEndian: true, isNonInterleaved: true))
        let asbd = format.audioStreamBasicDescription
        #expect(asbd.mFormatFlags == kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked
            | kAudioFormatFlagIsBigEndian | kAudioFormatFlagIsNonInterleaved)
        #expect(asbd.mBytesPerFrame == 3 && asbd.mBytesPerPacket == 3 && asbd.mFramesPerPacket == 1)
    }

    @Test("A channel layout sets or checks the channel count")
    func channelLayout() throws {
        var layout = AudioChannelLayout()
        layout.mChannelLayoutTag = kAudioChannelLayoutTag_Stereo
        let data = withUnsafeBytes(of: layout) { Data($0) }
        let format = try PCMFormat(outputSettings: [AVFormatIDKey: kAudioFormatLinearPCM, AVChannelLayoutKey: data],
                                   sourceSampleRate: 48_000, sourceChannelCount: 6)
        #expect(format.channelCount == 2)
        #expect(throws: PCMFormat.SettingsError.self) {
            try PCMFormat(outputSettings: [AVNumberOfChannelsKey: 1, AVChannelLayoutKey: data],
                          sourceSampleRate: 48_000, sourceChannelCount: 2)
        }
    }

    @Test("Unsupported values name the key and the value")
    func errors() {
        func failure(_ settings: [String: Any]) -> PCMFormat.SettingsError? {
            do {
                _ = try PCMFormat(outputSettings: settings, sourceSampleRate: 48_000, sourceChannelCount: 2)
                return nil
            } catch {
                return error
            }
        }
        let aac = failure([AVFormatIDKey: kAudioFormatMPEG4AAC])
        #expect(aac?.key == AVFormatIDKey)
        #expect(aac?.value == "\(kAudioFormatMPEG4AAC)")
        #expect(failure([AVLinearPCMBitDepthKey: 12])?.key == AVLinearPCMBitDepthKey)
        #expect(failure([AVLinearPCMBitDepthKey: 12])?.description.contains("12") == true)
        #expect(failure([AVLinearPCMIsFloatKey: true, AVLinearPCMBitDepthKey: 16])?.key == AVLinearPCMBitDepthKey)
        #expect(failure([AVSampleRateKey: 44_100.5])?.key == AVSampleRateKey)
        #expect(failure([AVSampleRateKey: -1])?.key == AVSampleRateKey)
        #expect(failure([AVNumberOfChannelsKey: 0])?.key == AVNumberOfChannelsKey)
        #expect(failure([AVNumberOfChannelsKey: "two"])?.key == AVNumberOfChannelsKey)
        #expect(failure([AVLinearPCMIsBigEndianKey: "yes"])?.key == AVLinearPCMIsBigEndianKey)
        #expect(failure([AVEncoderBitRateKey: 128_000])?.key == AVEncoderBitRateKey)
        #expect(failure([AVSampleRateConverterAudioQualityKey: AVAudioQuality.high.rawValue])?.key
            == AVSampleRateConverterAudioQualityKey)
        #expect(failure([AVSampleRateConverterAlgorithmKey: "Fancy"])?.key == AVSampleRateConverterAlgorithmKey)
        #expect(failure(["NotAKey": 1])?.key == "NotAKey")
        #expect(failure([:]) == nil)
    }
}
