import CFFmpeg
import OpenCoreMedia

/// One compressed packet read from a demuxer: FFmpeg's `AVPacket`, freed exactly once.
/// Its data is reference-counted by FFmpeg, so sample buffers can share it without a copy.
package final class Packet: @unchecked Sendable {
    /// The FFmpeg packet, valid until deinit.
    package let pointer: UnsafeMutablePointer<AVPacket>

    /// The time base of the packet's timestamps (its stream's); 1/1 until set. Kept in the
    /// `AVPacket`'s own `time_base` (which FFmpeg copies with the packet's properties and muxers
    /// ignore), not in a stored Swift property: reading a class's stored `var` from another
    /// module costs a dynamic exclusivity check, several times per packet.
    package internal(set) var timeBase: AVRational {
        get { pointer.pointee.time_base }
        set { pointer.pointee.time_base = newValue }
    }

    /// An empty packet to read into.
    package init() {
        guard let packet = av_packet_alloc() else { fatalError("av_packet_alloc: out of memory") }
        pointer = packet
        packet.pointee.time_base = AVRational(num: 1, den: 1)
    }

    /// A packet holding a copy of `bytes`, presented at `presentationTime` (and decoded then)
    /// for `duration`, counted in units of 1/`timescale` s: compressed data handed in by the
    /// caller.
    package convenience init(copying bytes: UnsafeRawBufferPointer, presentationTime: Int64, duration: Int64,
                             timescale: Int32) throws(EngineError) {
        self.init()
        try ffmpegCheck(av_new_packet(pointer, Int32(bytes.count)), "allocating a packet")
        if let base = bytes.baseAddress, bytes.count > 0 {
            UnsafeMutableRawPointer(pointer.pointee.data).copyMemory(from: base, byteCount: bytes.count)
        }
        pointer.pointee.pts = presentationTime
        pointer.pointee.dts = presentationTime
        pointer.pointee.duration = duration
        timeBase = AVRational(num: 1, den: timescale)
    }

    /// The payload's bytes, valid while the packet lives and is not read into again.
    package var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: pointer.pointee.data, count: Int(pointer.pointee.size))
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
    /// The presentation time, or invalid when the container gives none.
    package var presentationTime: CMTime { CMTime(ffmpegTimestamp: pointer.pointee.pts, timeBase: timeBase) }
    /// The decode time, or invalid when the container gives none.
    package var decodeTime: CMTime { CMTime(ffmpegTimestamp: pointer.pointee.dts, timeBase: timeBase) }
    /// The duration, or invalid when unknown.
    package var duration: CMTime {
        pointer.pointee.duration > 0 ? CMTime(ffmpegTimestamp: pointer.pointee.duration, timeBase: timeBase) : .invalid
    }

    /// How many decoded samples at the start of this audio packet are not presented (encoder
    /// priming an edit list hides: FFmpeg's skip-samples side data); 0 when none.
    package var skippedLeadingSamples: Int {
        var size: Int = 0
        guard let data = av_packet_get_side_data(pointer, AV_PKT_DATA_SKIP_SAMPLES, &size), size >= 4 else { return 0 }
        return Int(UInt32(data[0]) | UInt32(data[1]) << 8 | UInt32(data[2]) << 16 | UInt32(data[3]) << 24)
    }
}
