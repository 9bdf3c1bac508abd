import CFFmpeg
import Foundation
import OpenCoreMedia
import OpenCoreVideo

extension CMSampleBuffer {
    /// A ready one-sample buffer holding a compressed packet, as an asset reader vends samples
    /// in their stored format; nil when the packet holds no data.
    ///
    /// The data buffer shares the packet's reference-counted memory without a copy and keeps
    /// `packet` alive until the sample buffer (and any block buffer made from it) goes away, so
    /// `packet` must not be read into again (`Demuxer.readPacket()` makes a new one each time).
    /// Timing is the packet's presentation time, decode time and duration converted exactly
    /// from `timeBase`; an unknown timestamp or a zero duration becomes `.invalid`. Packets that
    /// are not key frames carry `kCMSampleAttachmentKey_NotSync` = true (marked with
    /// `markAllSamplesNotSync()`, the dictionary made only when someone asks for it); key
    /// frames carry no sample attachment, as on Apple platforms. An audio packet is one sample with the
    /// packet's duration.
    package static func compressed(from packet: Packet, formatDescription: CMFormatDescription,
                                   timeBase: AVRational) -> CMSampleBuffer? {
        let pointer = packet.pointer
        // Demuxed packets are reference counted already; anything else gets its own buffer
        // once, so the memory outlives whoever filled the packet.
        if pointer.pointee.buf == nil, av_packet_make_refcounted(pointer) < 0 { return nil }
        guard let data = pointer.pointee.data, pointer.pointee.size > 0 else { return nil }
        let length = Int(pointer.pointee.size)
        let blockBuffer = CMBlockBuffer(wrapping: UnsafeMutableRawPointer(data), length: length, owner: packet,
                                        release: { withExtendedLifetime(packet) {} })
        let duration = pointer.pointee.duration > 0
            ? CMTime(ffmpegTimestamp: pointer.pointee.duration, timeBase: timeBase)
            : CMTime.invalid
        var timing = CMSampleTimingInfo(
            duration: duration,
            presentationTimeStamp: CMTime(ffmpegTimestamp: pointer.pointee.pts, timeBase: timeBase),
            decodeTimeStamp: CMTime(ffmpegTimestamp: pointer.pointee.dts, timeBase: timeBase))
        var size = length
        var sampleBuffer: CMSampleBuffer?
        let status = CMSampleBufferCreateReady(
            allocator: nil, dataBuffer: blockBuffer, formatDescription: formatDescription, sampleCount: 1,
            sampleTimingEntryCount: 1, sampleTimingArray: &timing, sampleSizeEntryCount: 1,
            sampleSizeArray: &size, sampleBufferOut: &sampleBuffer)
        guard status == noErr, let sampleBuffer else { return nil }
        if !packet.isKeyFrame {
            sampleBuffer.markAllSamplesNotSync()
        }
        return sampleBuffer
    }
}
