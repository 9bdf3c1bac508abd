import Foundation
import OpenCoreMedia
import Testing
import OpenAVFAudio

/// AVAudioPCMBuffer's channel pointers and buffer list, for interleaved and non-interleaved
/// formats, as Apple's header describes them.
@Suite(.timeLimit(.minutes(10))) struct AVAudioPCMBufferTests {
    @Test func nonInterleavedFloatHasOneBufferAChannel() throws {
        let format = try #require(AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2))
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 100))
        #expect(buffer.frameCapacity == 100 && buffer.frameLength == 0 && buffer.stride == 1)
        let channels = try #require(buffer.floatChannelData)
        #expect(buffer.int16ChannelData == nil && buffer.int32ChannelData == nil)
        buffer.frameLength = 10
        let list = UnsafeMutableAudioBufferListPointer(buffer.mutableAudioBufferList)
        #expect(list.count == 2)
        #expect(list[0].mDataByteSize == 40 && list[1].mDataByteSize == 40 && list[0].mNumberChannels == 1)
        #expect(list[0].mData == UnsafeMutableRawPointer(channels[0]) && list[1].mData == UnsafeMutableRawPointer(channels[1]))
        channels[1][9] = 0.5
        #expect(list[1].mData!.load(fromByteOffset: 36, as: Float.self) == 0.5)
    }

    @Test func interleavedInt16SharesOneBuffer() throws {
        let format = try #require(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 48_000, channels: 2, interleaved: true))
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 8))
        let channels = try #require(buffer.int16ChannelData)
        #expect(buffer.stride == 2)
        channels[0][2 * buffer.stride] = 7
        channels[1][2 * buffer.stride] = -7
        buffer.frameLength = 8
        let list = UnsafeMutableAudioBufferListPointer(buffer.mutableAudioBufferList)
        #expect(list.count == 1 && list[0].mNumberChannels == 2 && list[0].mDataByteSize == 32)
        let samples = list[0].mData!.assumingMemoryBound(to: Int16.self)
        #expect(samples[4] == 7 && samples[5] == -7)
    }

    @Test func compressedFormatsHaveNoPCMBuffer() throws {
        let aac = try #require(AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44_100,
                                                         AVNumberOfChannelsKey: 2]))
        #expect(AVAudioPCMBuffer(pcmFormat: aac, frameCapacity: 1024) == nil)
    }
}
