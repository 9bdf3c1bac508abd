import Foundation
import OpenCoreVideo

/// The format of an audio stream: sample rate, codec, packet and frame layout.
///
/// Linux addition: `Equatable` (field-by-field), `Hashable` and `Sendable`.
public struct AudioStreamBasicDescription: Equatable, Hashable, Sendable {
    /// Frames per second of the stream when played at normal speed.
    public var mSampleRate: Float64
    /// The data format, such as `kAudioFormatLinearPCM` or `kAudioFormatMPEG4AAC`.
    public var mFormatID: AudioFormatID
    /// Format-specific flags, such as `kAudioFormatFlagsNativeFloatPacked`.
    public var mFormatFlags: AudioFormatFlags
    /// Bytes in a packet; `0` for variable-size packets.
    public var mBytesPerPacket: UInt32
    /// Frames in a packet (1 for linear PCM, 1024 for AAC); `0` if it varies.
    public var mFramesPerPacket: UInt32
    /// Bytes in one frame of a single buffer; `0` for compressed formats.
    public var mBytesPerFrame: UInt32
    /// Channels in each frame.
    public var mChannelsPerFrame: UInt32
    /// Bits of one channel sample; `0` for compressed formats.
    public var mBitsPerChannel: UInt32
    /// Padding for 8-byte alignment; must be `0`.
    public var mReserved: UInt32

    /// Creates a description with every field zero.
    public init() {
        self.init(mSampleRate: 0, mFormatID: 0, mFormatFlags: 0, mBytesPerPacket: 0, mFramesPerPacket: 0,
                  mBytesPerFrame: 0, mChannelsPerFrame: 0, mBitsPerChannel: 0, mReserved: 0)
    }

    /// Creates a description from every field, as Apple's memberwise initializer.
    public init(mSampleRate: Float64, mFormatID: AudioFormatID, mFormatFlags: AudioFormatFlags,
                mBytesPerPacket: UInt32, mFramesPerPacket: UInt32, mBytesPerFrame: UInt32,
                mChannelsPerFrame: UInt32, mBitsPerChannel: UInt32, mReserved: UInt32) {
        self.mSampleRate = mSampleRate
        self.mFormatID = mFormatID
        self.mFormatFlags = mFormatFlags
        self.mBytesPerPacket = mBytesPerPacket
        self.mFramesPerPacket = mFramesPerPacket
        self.mBytesPerFrame = mBytesPerFrame
        self.mChannelsPerFrame = mChannelsPerFrame
        self.mBitsPerChannel = mBitsPerChannel
        self.mReserved = mReserved
    }
}
