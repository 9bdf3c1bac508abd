import Foundation
import OpenCoreMedia

/// A buffer of compressed audio: room for `packetCapacity` packets of at most
/// `maximumPacketSize` bytes each, in one block at `data`, of which the first `packetCount`
/// packets and `byteLength` bytes are valid. A format whose packets vary in size has a packet
/// description for each packet.
open class AVAudioCompressedBuffer: AVAudioBuffer, @unchecked Sendable {
    /// The number of packets the buffer has room for.
    public let packetCapacity: AVAudioPacketCount
    /// The largest packet the buffer is made for, in bytes.
    public let maximumPacketSize: Int
    /// The bytes the buffer has room for: `packetCapacity` packets of `maximumPacketSize`.
    public let byteCapacity: UInt32
    /// The packets' bytes, one after another.
    public let data: UnsafeMutableRawPointer
    /// One description a packet, nil for a format whose packets have a constant size.
    public let packetDescriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?

    /// The number of valid packets, at most `packetCapacity`.
    public var packetCount: AVAudioPacketCount {
        didSet {
            precondition(packetCount <= packetCapacity,
                         "AVAudioCompressedBuffer.packetCount \(packetCount) is more than the packet capacity \(packetCapacity)")
        }
    }

    /// A buffer for `packetCapacity` packets of at most `maximumPacketSize` bytes, with a packet
    /// description for each. A linear PCM format is a programmer error (Apple raises an
    /// exception); use `AVAudioPCMBuffer`.
    public convenience init(format: AVAudioFormat, packetCapacity: AVAudioPacketCount, maximumPacketSize: Int) {
        precondition(format.streamDescription.pointee.mFormatID != kAudioFormatLinearPCM,
                     "AVAudioCompressedBuffer(format:packetCapacity:maximumPacketSize:) needs a compressed format, "
                     + "not linear PCM; use AVAudioPCMBuffer")
        precondition(maximumPacketSize > 0,
                     "AVAudioCompressedBuffer(format:packetCapacity:maximumPacketSize:) needs a positive maximum packet size")
        self.init(format: format, packetCapacity: packetCapacity, packetSize: maximumPacketSize, describesPackets: true)
    }

    /// A buffer for `packetCapacity` packets of a format whose packets all have the stream
    /// description's `mBytesPerPacket`, without packet descriptions. A linear PCM format or one
    /// whose packets vary in size is a programmer error (Apple raises an exception).
    public convenience init(format: AVAudioFormat, packetCapacity: AVAudioPacketCount) {
        let description = format.streamDescription.pointee
        precondition(description.mFormatID != kAudioFormatLinearPCM && description.mBytesPerPacket > 0,
                     "AVAudioCompressedBuffer(format:packetCapacity:) needs a compressed format with constant bytes "
                     + "per packet; use init(format:packetCapacity:maximumPacketSize:) for variable packets")
        self.init(format: format, packetCapacity: packetCapacity, packetSize: Int(description.mBytesPerPacket),
                  describesPackets: false)
    }

    /// The buffer's one block, its packet descriptions if `describesPackets`, and its buffer
    /// list of one buffer with every channel.
    private init(format: AVAudioFormat, packetCapacity: AVAudioPacketCount, packetSize: Int, describesPackets: Bool) {
        let bytes = Int(packetCapacity) * packetSize
        precondition(bytes <= Int(UInt32.max), "AVAudioCompressedBuffer's capacity \(bytes) bytes is more than 4 GiB")
        self.packetCapacity = packetCapacity
        maximumPacketSize = packetSize
        byteCapacity = UInt32(bytes)
        data = .allocate(byteCount: max(16, bytes), alignment: 16)
        data.initializeMemory(as: UInt8.self, repeating: 0, count: max(16, bytes))
        if describesPackets {
            packetDescriptions = .allocate(capacity: max(1, Int(packetCapacity)))
            packetDescriptions?.initialize(repeating: AudioStreamPacketDescription(), count: max(1, Int(packetCapacity)))
        } else {
            packetDescriptions = nil
        }
        packetCount = 0
        super.init(format: format, bufferCount: 1)
        bufferList[0] = AudioBuffer(mNumberChannels: format.channelCount, mDataByteSize: 0, mData: data)
    }

    deinit {
        data.deallocate()
        if let packetDescriptions {
            packetDescriptions.deinitialize(count: max(1, Int(packetCapacity)))
            packetDescriptions.deallocate()
        }
    }

    /// The number of valid bytes, at most `byteCapacity`: the buffer list's byte size.
    public var byteLength: UInt32 {
        get { bufferList[0].mDataByteSize }
        set {
            precondition(newValue <= byteCapacity,
                         "AVAudioCompressedBuffer.byteLength \(newValue) is more than the byte capacity \(byteCapacity)")
            bufferList[0].mDataByteSize = newValue
        }
    }
}
