import CFFmpeg

/// FFmpeg's `mpeg4_unpack_bframes` bitstream filter over one MPEG-4 Part 2 stream, freed
/// exactly once. DivX and Xvid AVIs pack a B-frame into the packet of the reference frame
/// before it and leave a placeholder (a not-coded frame) in the B-frame's own slot: unpacked,
/// every packet holds one frame, as MP4 and the decoders outside FFmpeg's own expect, and a
/// copy decodes to the same pictures (`ffmpeg -bsf:v mpeg4_unpack_bframes`). A stream that is
/// not packed passes through unchanged.
final class PackedFrameUnpacker {
    private var context: UnsafeMutablePointer<AVBSFContext>?

    /// A filter for a stream with `parameters` and `timeBase`, or nil when FFmpeg lacks it.
    /// The stream's parameters become the unpacked ones (the DivX user data no longer says
    /// "packed"), so that decoders and descriptions made from them match what comes out.
    init?(stream: UnsafeMutablePointer<AVStream>) {
        guard let filter = av_bsf_get_by_name("mpeg4_unpack_bframes") else { return nil }
        var made: UnsafeMutablePointer<AVBSFContext>?
        guard av_bsf_alloc(filter, &made) >= 0, let made else { return nil }
        context = made
        guard avcodec_parameters_copy(made.pointee.par_in, stream.pointee.codecpar) >= 0 else { return nil }
        made.pointee.time_base_in = stream.pointee.time_base
        guard av_bsf_init(made) >= 0 else { return nil }
        avcodec_parameters_copy(stream.pointee.codecpar, made.pointee.par_out)
    }

    deinit {
        av_bsf_free(&context)
    }

    /// Hands a packet in (nil at the end of the file, to get what the filter still holds); the
    /// packet's data moves into the filter.
    func send(_ packet: Packet?) {
        guard let context else { return }
        _ = av_bsf_send_packet(context, packet?.pointer)
    }

    /// The next unpacked packet, or nil when the filter needs another packet (or has ended).
    func receive() -> Packet? {
        guard let context else { return nil }
        let packet = Packet()
        return av_bsf_receive_packet(context, packet.pointer) >= 0 ? packet : nil
    }

    /// Forgets what the filter holds, after a seek.
    func flush() {
        if let context { av_bsf_flush(context) }
    }
}
