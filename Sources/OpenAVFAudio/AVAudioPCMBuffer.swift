import Foundation
import OpenCoreMedia

/// A buffer of linear PCM audio: room for `frameCapacity` frames in the buffer's format, of
/// which the first `frameLength` are valid. Non-interleaved formats keep one buffer a channel;
/// interleaved formats one buffer.
open class AVAudioPCMBuffer: AVAudioBuffer, @unchecked Sendable {
    /// The number of frames the buffer has room for.
    public let frameCapacity: AVAudioFrameCount
    /// The sample memory of every buffer, one block.
    private let memory: UnsafeMutableRawPointer
    /// One pointer a channel to its first sample.
    private let channelPointers: UnsafeMutablePointer<UnsafeMutableRawPointer>

    /// A buffer for `frameCapacity` frames of a linear PCM format, with no valid frames; nil
    /// for a format that is not linear PCM or has no bytes per frame.
    public init?(pcmFormat format: AVAudioFormat, frameCapacity: AVAudioFrameCount) {
        let d = format.streamDescription.pointee
        guard d.mFormatID == kAudioFormatLinearPCM, d.mBytesPerFrame > 0, d.mChannelsPerFrame > 0 else { return nil }
        let channels = Int(d.mChannelsPerFrame)
        let buffers = format.isInterleaved ? 1 : channels
        let bytesPerBuffer = (Int(frameCapacity) * Int(d.mBytesPerFrame) + 15) & ~15
        self.frameCapacity = frameCapacity
        memory = .allocate(byteCount: max(16, bytesPerBuffer * buffers), alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: max(16, bytesPerBuffer * buffers))
        channelPointers = .allocate(capacity: channels)
        let bytesPerSample = Int(d.mBitsPerChannel / 8)
        for channel in 0..<channels {
            channelPointers[channel] = format.isInterleaved
                ? memory + channel * bytesPerSample : memory + channel * bytesPerBuffer
        }
        super.init(format: format, bufferCount: buffers)
        for index in 0..<buffers {
            bufferList[index] = AudioBuffer(mNumberChannels: format.isInterleaved ? UInt32(channels) : 1,
                                            mDataByteSize: 0, mData: memory + index * bytesPerBuffer)
        }
    }

    deinit {
        memory.deallocate()
        channelPointers.deallocate()
    }

    /// The number of valid frames, at most `frameCapacity`; setting it sets the buffer list's
    /// byte sizes.
    public var frameLength: AVAudioFrameCount {
        get { bufferList[0].mDataByteSize / max(1, format.streamDescription.pointee.mBytesPerFrame) }
        set {
            precondition(newValue <= frameCapacity,
                         "AVAudioPCMBuffer.frameLength \(newValue) is more than the frame capacity \(frameCapacity)")
            let bytes = newValue * format.streamDescription.pointee.mBytesPerFrame
            for index in bufferList.indices { bufferList[index].mDataByteSize = bytes }
        }
    }

    /// The distance between one channel's successive samples, in samples: the channel count for
    /// an interleaved format, 1 otherwise.
    public var stride: Int { format.isInterleaved ? Int(format.channelCount) : 1 }

    /// One pointer a channel to its 32-bit float samples (`[channel][frame * stride]`); nil
    /// unless the format is `.pcmFormatFloat32`.
    public var floatChannelData: UnsafePointer<UnsafeMutablePointer<Float>>? { channelData(.pcmFormatFloat32) }

    /// One pointer a channel to its 16-bit integer samples; nil unless the format is
    /// `.pcmFormatInt16`.
    public var int16ChannelData: UnsafePointer<UnsafeMutablePointer<Int16>>? { channelData(.pcmFormatInt16) }

    /// One pointer a channel to its 32-bit integer samples; nil unless the format is
    /// `.pcmFormatInt32`.
    public var int32ChannelData: UnsafePointer<UnsafeMutablePointer<Int32>>? { channelData(.pcmFormatInt32) }

    /// The channel pointers typed for a common format, nil when the buffer's format is another.
    private func channelData<Sample>(_ common: AVAudioCommonFormat) -> UnsafePointer<UnsafeMutablePointer<Sample>>? {
        guard format.commonFormat == common else { return nil }
        return UnsafeRawPointer(channelPointers).assumingMemoryBound(to: UnsafeMutablePointer<Sample>.self)
    }

    /// The start of one channel's samples, whatever their type.
    package func rawChannel(_ channel: Int) -> UnsafeMutableRawPointer { channelPointers[channel] }
}
