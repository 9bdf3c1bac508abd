import CFFmpeg
import OpenCoreMedia

extension Packet {
    /// The packets of a buffer of compressed samples an app hands in (enqueued into a renderer),
    /// stamped in `timeBase`: one a sample, each with its presentation and decode times (the
    /// buffer's first time for samples without their own), duration and key-frame flag. A buffer
    /// holding one demuxed packet whole shares that packet's data; otherwise each sample's bytes
    /// are copied. Throws when the sample sizes do not fit the data.
    package static func packets(of sampleBuffer: CMSampleBuffer, timeBase: AVRational) throws(EngineError) -> [Packet] {
        let operation = "reading an enqueued sample buffer's packets"
        guard let data = sampleBuffer.dataBuffer, sampleBuffer.numSamples > 0 else { return [] }
        let sizes = (0..<sampleBuffer.numSamples).map { sampleBuffer.sampleSize(at: $0) }
        guard sizes.allSatisfy({ $0 >= 0 }), sizes.reduce(0, +) <= data.dataLength else {
            throw EngineError(operation: operation, message: "the sample buffer holds fewer bytes than its sample sizes")
        }
        func stamp(_ packet: Packet, sample index: Int) {
            let timing = (try? sampleBuffer.sampleTimingInfo(at: index)) ?? CMSampleTimingInfo(
                duration: .invalid, presentationTimeStamp: sampleBuffer.presentationTimeStamp, decodeTimeStamp: .invalid)
            let p = packet.pointer
            p.pointee.pts = timing.presentationTimeStamp.ffmpegTimestamp(in: timeBase)
            p.pointee.dts = timing.decodeTimeStamp.isNumeric ? timing.decodeTimeStamp.ffmpegTimestamp(in: timeBase) : p.pointee.pts
            p.pointee.duration = timing.duration.isNumeric ? timing.duration.ffmpegTimestamp(in: timeBase) : 0
            p.pointee.flags = sampleBuffer.isSyncSample(at: index) ? AV_PKT_FLAG_KEY : 0
            packet.timeBase = timeBase
        }
        if sizes.count == 1, let source = data.memoryOwner as? Packet, source.pointer.pointee.buf != nil, source.size == sizes[0] {
            let packet = Packet()
            try ffmpegCheck(av_packet_ref(packet.pointer, source.pointer), operation)
            stamp(packet, sample: 0)
            return [packet]
        }
        var packets: [Packet] = []
        var offset = 0
        for (index, size) in sizes.enumerated() {
            let packet = Packet()
            try ffmpegCheck(av_new_packet(packet.pointer, Int32(size)), operation)
            let copied = CMBlockBufferCopyDataBytes(data, atOffset: offset, dataLength: size,
                                                    destination: UnsafeMutableRawPointer(packet.pointer.pointee.data))
            guard copied == kCMBlockBufferNoErr else {
                throw EngineError(operation: operation, message: "CoreMedia status \(copied) reading the sample data")
            }
            stamp(packet, sample: index)
            packets.append(packet)
            offset += size
        }
        return packets
    }
}
