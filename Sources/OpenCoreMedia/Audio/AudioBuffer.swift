/// One buffer of audio samples: interleaved channels, or one channel of non-interleaved audio,
/// as `AudioBufferList` holds them. The memory is not owned.
public struct AudioBuffer {
    /// The channels interleaved in the buffer (1 for a channel of non-interleaved audio).
    public var mNumberChannels: UInt32
    /// The bytes at `mData`.
    public var mDataByteSize: UInt32
    /// The samples.
    public var mData: UnsafeMutableRawPointer?

    /// An empty buffer.
    public init() {
        self.init(mNumberChannels: 0, mDataByteSize: 0, mData: nil)
    }

    /// A buffer of `mDataByteSize` bytes of `mNumberChannels` interleaved channels at `mData`.
    public init(mNumberChannels: UInt32, mDataByteSize: UInt32, mData: UnsafeMutableRawPointer?) {
        self.mNumberChannels = mNumberChannels
        self.mDataByteSize = mDataByteSize
        self.mData = mData
    }

    /// A buffer over `typedBuffer`'s memory with `numberOfChannels` interleaved channels.
    public init<Element>(_ typedBuffer: UnsafeMutableBufferPointer<Element>, numberOfChannels: Int) {
        self.init(mNumberChannels: UInt32(numberOfChannels), mDataByteSize: UInt32(typedBuffer.count * MemoryLayout<Element>.stride),
                  mData: typedBuffer.baseAddress.map(UnsafeMutableRawPointer.init))
    }
}
