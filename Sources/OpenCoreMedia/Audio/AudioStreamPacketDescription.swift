/// Where one packet of compressed audio lies in a buffer of packets, as Core Audio's C
/// structure: its byte offset, its size, and its frame count when the format's packets vary in
/// frames (0 when every packet has the format's `mFramesPerPacket`).
public struct AudioStreamPacketDescription {
    /// The packet's offset from the start of the buffer, in bytes.
    public var mStartOffset: Int64
    /// The packet's frames when they vary from packet to packet; 0 otherwise.
    public var mVariableFramesInPacket: UInt32
    /// The packet's size in bytes.
    public var mDataByteSize: UInt32

    /// An empty description: offset, frames and size 0.
    public init() {
        self.init(mStartOffset: 0, mVariableFramesInPacket: 0, mDataByteSize: 0)
    }

    /// A packet of `mDataByteSize` bytes at `mStartOffset`.
    public init(mStartOffset: Int64, mVariableFramesInPacket: UInt32, mDataByteSize: UInt32) {
        self.mStartOffset = mStartOffset
        self.mVariableFramesInPacket = mVariableFramesInPacket
        self.mDataByteSize = mDataByteSize
    }
}
