import Foundation
import OpenCoreMedia
import Testing
import OpenAVFAudio

/// AVAudioCompressedBuffer's capacities, packet descriptions and buffer list, for variable and
/// constant packet sizes, as Apple's header describes them.
@Suite(.timeLimit(.minutes(10))) struct AVAudioCompressedBufferTests {
    @Test func variablePacketsHaveADescriptionEach() throws {
        let aac = try #require(AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44_100,
                                                         AVNumberOfChannelsKey: 2]))
        let buffer = AVAudioCompressedBuffer(format: aac, packetCapacity: 8, maximumPacketSize: 1_536)
        #expect(buffer.packetCapacity == 8 && buffer.maximumPacketSize == 1_536 && buffer.byteCapacity == 8 * 1_536)
        #expect(buffer.packetCount == 0 && buffer.byteLength == 0)
        let descriptions = try #require(buffer.packetDescriptions)
        descriptions[7] = AudioStreamPacketDescription(mStartOffset: 300, mVariableFramesInPacket: 0, mDataByteSize: 200)
        #expect(descriptions[7].mStartOffset == 300 && descriptions[0].mDataByteSize == 0)
        buffer.packetCount = 8
        buffer.byteLength = 500
        let list = UnsafeMutableAudioBufferListPointer(buffer.mutableAudioBufferList)
        #expect(list.count == 1 && list[0].mNumberChannels == 2 && list[0].mDataByteSize == 500)
        #expect(list[0].mData == buffer.data)
        buffer.data.storeBytes(of: 0xAB, toByteOffset: 499, as: UInt8.self)
        #expect(buffer.audioBufferList.pointee.mBuffers.mData!.load(fromByteOffset: 499, as: UInt8.self) == 0xAB)
    }

    @Test func constantPacketsHaveNoDescriptions() throws {
        var description = AudioStreamBasicDescription(
            mSampleRate: 44_100, mFormatID: kAudioFormatAppleIMA4, mFormatFlags: 0, mBytesPerPacket: 34,
            mFramesPerPacket: 64, mBytesPerFrame: 0, mChannelsPerFrame: 1, mBitsPerChannel: 0, mReserved: 0)
        let ima4 = try #require(AVAudioFormat(streamDescription: &description))
        let buffer = AVAudioCompressedBuffer(format: ima4, packetCapacity: 10)
        #expect(buffer.packetDescriptions == nil)
        #expect(buffer.maximumPacketSize == 34 && buffer.byteCapacity == 340 && buffer.format === ima4)
    }
}
