import CFFmpeg

/// FFmpeg's `mpeg4_unpack_bframes` bitstream filter over one MPEG-4 Part 2 stream, freed
/// exactly once. DivX and Xvid AVIs pack a B-frame into the packet of the reference frame
/// before it and leave a placeholder (a not-coded frame) in the B-frame's own slot: unpacked,
/// every packet holds one frame, as MP4 and the decoders outside FFmpeg's own expect, and a
/// copy decodes to the same pictures (`ffmpeg -bsf:v mpeg4_unpack_bframes`). A stream that is
/// not packed passes through unchanged.
///
/// The presentation times of what comes out are derived here, from the frames' own types, as
/// FFmpeg's `genpts` derives them for a stream that needs no unpacking: a B-frame is shown at
/// its decode time, and a reference frame (I or P) followed by B-frames at the decode time of
/// the next reference frame. FFmpeg derives the times of a packed file before unpacking, for the
/// slots the frames leave, so that a copy has a P-frame shown before the B-frames that precede
/// it; decoding the packed file, ffmpeg shows the frames one frame duration apart from its
/// first decode time, as the times derived here do.
final class PackedFrameUnpacker {
    private var context: UnsafeMutablePointer<AVBSFContext>?
    /// FFmpeg's MPEG-4 parser, which reads each unpacked frame's picture type.
    private var parser: UnsafeMutablePointer<AVCodecParserContext>?
    private var parserCodec: UnsafeMutablePointer<AVCodecContext>?
    /// A reference frame waiting for the next one (whose decode time is its presentation
    /// time), then the B-frames decoded after it.
    private var held: [Packet] = []
    /// Packets whose times are set, in decode order.
    private var ready: [Packet] = []
    /// Whether the stream has B-frames (FFmpeg's probe says so, or one has been seen): without
    /// them a reference frame is shown at its decode time.
    private var hasBFrames: Bool
    /// The last decode time and the frame duration, for the last reference frame's time.
    private var lastDecodeTime: Int64 = 0
    private var frameDuration: Int64 = 1

    /// A filter for a stream with `parameters` and `timeBase`, or nil when FFmpeg lacks it.
    /// The stream's parameters become the unpacked ones (the DivX user data no longer says
    /// "packed"), so that decoders and descriptions made from them match what comes out.
    init?(stream: UnsafeMutablePointer<AVStream>) {
        hasBFrames = stream.pointee.codecpar.pointee.video_delay > 0
        guard let filter = av_bsf_get_by_name("mpeg4_unpack_bframes") else { return nil }
        var made: UnsafeMutablePointer<AVBSFContext>?
        guard av_bsf_alloc(filter, &made) >= 0, let made else { return nil }
        context = made
        guard avcodec_parameters_copy(made.pointee.par_in, stream.pointee.codecpar) >= 0 else { return nil }
        made.pointee.time_base_in = stream.pointee.time_base
        guard av_bsf_init(made) >= 0 else { return nil }
        avcodec_parameters_copy(stream.pointee.codecpar, made.pointee.par_out)
        guard let parser = av_parser_init(Int32(AV_CODEC_ID_MPEG4.rawValue)), let codec = avcodec_alloc_context3(nil) else { return nil }
        self.parser = parser
        parserCodec = codec
        parser.pointee.flags |= PARSER_FLAG_COMPLETE_FRAMES
        guard avcodec_parameters_to_context(codec, made.pointee.par_out) >= 0 else { return nil }
        let rate = stream.pointee.avg_frame_rate.num > 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
        if rate.num > 0, rate.den > 0 {
            frameDuration = max(1, av_rescale_q(1, AVRational(num: rate.den, den: rate.num), stream.pointee.time_base))
        }
    }

    deinit {
        av_bsf_free(&context)
        if let parser { av_parser_close(parser) }
        avcodec_free_context(&parserCodec)
    }

    /// Hands a packet in (nil at the end of the file, to get what the filter still holds); the
    /// packet's data moves into the filter.
    func send(_ packet: Packet?) {
        guard let context else { return }
        _ = av_bsf_send_packet(context, packet?.pointer)
    }

    /// The next unpacked packet with its presentation time, or nil when the filter needs
    /// another packet (or has ended).
    func receive() -> Packet? {
        guard let context else { return nil }
        while ready.isEmpty {
            let packet = Packet()
            let status = av_bsf_receive_packet(context, packet.pointer)
            if status == cffmpeg_averror_eof() {
                // The end: the last reference frame is shown one frame after the last decode time.
                if let reference = held.first {
                    reference.pointer.pointee.pts = hasBFrames ? lastDecodeTime + frameDuration : reference.pointer.pointee.dts
                    ready = held
                    held = []
                }
                break
            }
            guard status >= 0 else { break }
            stamp(packet)
        }
        return ready.isEmpty ? nil : ready.removeFirst()
    }

    /// Gives an unpacked packet its presentation time, or holds it until the next reference
    /// frame says it.
    private func stamp(_ packet: Packet) {
        let dts = packet.pointer.pointee.dts
        guard dts != cffmpeg_nopts_value() else {
            // Without a decode time nothing can be derived: FFmpeg's times stand.
            ready.append(packet)
            return
        }
        if packet.pointer.pointee.duration > 0 { frameDuration = packet.pointer.pointee.duration }
        lastDecodeTime = dts
        if isBFrame(packet) {
            hasBFrames = true
            packet.pointer.pointee.pts = dts
            if held.isEmpty { ready.append(packet) } else { held.append(packet) }
        } else {
            if let reference = held.first {
                reference.pointer.pointee.pts = hasBFrames ? dts : reference.pointer.pointee.dts
                ready = held
            }
            held = [packet]
        }
    }

    /// Whether the packet's frame is a B-frame, as FFmpeg's MPEG-4 parser reads its header.
    private func isBFrame(_ packet: Packet) -> Bool {
        guard let parser, let parserCodec else { return false }
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize: Int32 = 0
        _ = av_parser_parse2(parser, parserCodec, &output, &outputSize, packet.pointer.pointee.data, packet.pointer.pointee.size,
                             cffmpeg_nopts_value(), cffmpeg_nopts_value(), 0)
        return parser.pointee.pict_type == Int32(AV_PICTURE_TYPE_B.rawValue)
    }

    /// Forgets what the filter holds, after a seek.
    func flush() {
        if let context { av_bsf_flush(context) }
        held = []
        ready = []
    }
}
