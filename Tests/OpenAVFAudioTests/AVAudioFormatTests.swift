import Foundation
import OpenCoreMedia
import Testing
@testable import OpenAVFAudio

/// AVAudioFormat against the stream descriptions Core Audio gives for the same formats
/// (`FillOutASBDForLPCM`'s values, as Apple's headers document them).
@Suite(.timeLimit(.minutes(10))) struct AVAudioFormatTests {
    @Test func theStandardFormatIsNonInterleavedFloat() throws {
        let format = try #require(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2))
        let d = format.streamDescription.pointee
        #expect(d.mFormatID == kAudioFormatLinearPCM)
        #expect(d.mFormatFlags == kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved)
        #expect(d.mBytesPerFrame == 4 && d.mBytesPerPacket == 4 && d.mFramesPerPacket == 1 && d.mBitsPerChannel == 32)
        #expect(format.isStandard && !format.isInterleaved && format.commonFormat == .pcmFormatFloat32)
        #expect(format.sampleRate == 48_000 && format.channelCount == 2)
        #expect(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 6) == nil)
        #expect(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 0) == nil)
    }

    /// One or two channels without a layout are mono or stereo: a stereo file's processing
    /// format (with its layout) takes the buffers of a stereo format made from settings.
    @Test func monoAndStereoNeedNoLayoutToBeEqual() throws {
        for (channels, tag) in [(1, kAudioChannelLayoutTag_Mono), (2, kAudioChannelLayoutTag_Stereo)] {
            let laidOut = AVAudioFormat(standardFormatWithSampleRate: 48_000, channelLayout: try #require(AVAudioChannelLayout(layoutTag: tag)))
            let plain = try #require(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: AVAudioChannelCount(channels)))
            #expect(laidOut.isEqual(plain) && plain.isEqual(laidOut) && laidOut.hash == plain.hash)
        }
        // Mono is not stereo's left channel, and a 5.1 layout is not a hexagonal one.
        let left = AVAudioFormat(standardFormatWithSampleRate: 48_000, channelLayout: try #require(AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_Stereo)))
        #expect(!left.isEqual(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1)))
        let surround = AVAudioFormat(standardFormatWithSampleRate: 48_000, channelLayout: try #require(AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_MPEG_5_1_A)))
        let hexagonal = AVAudioFormat(standardFormatWithSampleRate: 48_000, channelLayout: try #require(AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_Hexagonal)))
        #expect(!surround.isEqual(hexagonal))
    }

    @Test func commonFormatsHaveCoreAudiosDescriptions() throws {
        let int16 = try #require(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 44_100, channels: 2, interleaved: true))
        let d = int16.streamDescription.pointee
        #expect(d.mFormatFlags == kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked)
        #expect(d.mBytesPerFrame == 4 && d.mBitsPerChannel == 16)
        #expect(int16.isInterleaved && !int16.isStandard && int16.commonFormat == .pcmFormatInt16)
        let int32 = try #require(AVAudioFormat(commonFormat: .pcmFormatInt32, sampleRate: 8_000, channels: 1, interleaved: false))
        #expect(int32.commonFormat == .pcmFormatInt32)
        let double = try #require(AVAudioFormat(commonFormat: .pcmFormatFloat64, sampleRate: 96_000, channels: 2, interleaved: true))
        #expect(double.commonFormat == .pcmFormatFloat64 && double.streamDescription.pointee.mBytesPerFrame == 16)
        #expect(AVAudioFormat(commonFormat: .otherFormat, sampleRate: 44_100, channels: 2, interleaved: true) == nil)
    }

    @Test func settingsRoundTrip() throws {
        let format = try #require(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 44_100, channels: 2, interleaved: true))
        let settings = format.settings
        #expect((settings[AVFormatIDKey] as? NSNumber)?.uint32Value == kAudioFormatLinearPCM)
        #expect((settings[AVSampleRateKey] as? NSNumber)?.doubleValue == 44_100)
        #expect((settings[AVLinearPCMBitDepthKey] as? NSNumber)?.intValue == 16)
        let again = try #require(AVAudioFormat(settings: settings))
        #expect(again == format)
        let aac = try #require(AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 48_000,
                                                         AVNumberOfChannelsKey: 2]))
        #expect(aac.commonFormat == .otherFormat && aac.streamDescription.pointee.mFramesPerPacket == 1024)
        #expect(AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatLinearPCM]) == nil)
        #expect(AVAudioFormat(settings: [AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2, AVLinearPCMBitDepthKey: 12]) == nil)
    }

    @Test func streamDescriptionsNeedALayoutBeyondStereo() throws {
        var d = AudioSettings.pcmDescription(sampleRate: 48_000, channels: 6, bits: 32, isFloat: true,
                                             isBigEndian: false, isNonInterleaved: true)
        #expect(AVAudioFormat(streamDescription: &d) == nil)
        let layout = try #require(AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_MPEG_5_1_A))
        #expect(layout.channelCount == 6 && layout.layoutTag == kAudioChannelLayoutTag_MPEG_5_1_A)
        let format = try #require(AVAudioFormat(streamDescription: &d, channelLayout: layout))
        #expect(format.channelLayout == layout && format.channelCount == 6)
        let standard = AVAudioFormat(standardFormatWithSampleRate: 48_000, channelLayout: layout)
        #expect(standard == format && standard.isStandard)
        #expect(AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_UseChannelDescriptions) == nil)
    }

    @Test func formatDescriptionsCarryTheStreamDescriptionAndLayout() throws {
        let layout = try #require(AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_Stereo))
        let format = AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 44_100, interleaved: true, channelLayout: layout)
        let description = format.formatDescription
        #expect(CMAudioFormatDescriptionGetStreamBasicDescription(description)?.pointee == format.streamDescription.pointee)
        #expect(description.audioChannelLayout?.mChannelLayoutTag == kAudioChannelLayoutTag_Stereo)
        #expect(AVAudioFormat(cmAudioFormatDescription: description) == format)
    }
}
