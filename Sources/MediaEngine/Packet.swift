import CFFmpeg

/// One compressed packet read from a demuxer: FFmpeg's `AVPacket`, freed exactly once.
/// Its data is reference-counted by FFmpeg, so sample buffers can share it without a copy.
package final class Packet: @unchecked Sendable {
    /// The FFmpeg packet, valid until deinit.
    package let pointer: UnsafeMutablePointer<AVPacket>

    /// An empty packet to read into.
    package init() {
        guard let packet = av_packet_alloc() else { fatalError("av_packet_alloc: out of memory") }
        pointer = packet
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }

    /// The index of the stream the packet belongs to.
    package var streamIndex: Int { Int(pointer.pointee.stream_index) }
    /// The payload size in bytes.
    package var size: Int { Int(pointer.pointee.size) }
    /// Whether the packet starts at a key frame (a sync sample).
    package var isKeyFrame: Bool { pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }
}
