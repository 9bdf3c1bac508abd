import CFFmpeg

/// Text subtitles that are not 3GPP timed text (SubRip, ASS/SSA, WebVTT, Matroska's plain text
/// and the other text formats FFmpeg decodes) turned into 3GPP timed text (`tx3g`), the text
/// format Apple's framework reads and writes: each cue decoded by FFmpeg's decoder for its
/// format and encoded by FFmpeg's `mov_text` encoder, as `ffmpeg -c:s mov_text` converts them.
/// The demuxer describes the stream with the converter's `parameters` (`mov_text`, with the
/// encoder's sample description), so that its format description, its passthrough samples and
/// a copy into MP4 or QuickTime are timed text; the stream itself keeps its stored codec, which
/// FFmpeg's demuxer goes on reading it by (Matroska's WebVTT blocks are parsed only for a
/// WebVTT stream) and which the stream's description names.
final class TextSubtitleConverter {
    /// The codec parameters of the converted stream: FFmpeg's `mov_text` with its sample
    /// description as extradata.
    let parameters: UnsafeMutablePointer<AVCodecParameters>
    private var decoder: UnsafeMutablePointer<AVCodecContext>?
    private var encoder: UnsafeMutablePointer<AVCodecContext>?
    /// The encoded cue, reused for every packet.
    private var encoded = [UInt8](repeating: 0, count: 64 * 1024)

    /// A converter for `stream`, or nil when its codec is not a text subtitle format FFmpeg
    /// decodes (or is 3GPP timed text already).
    init?(stream: UnsafeMutablePointer<AVStream>) {
        let stored = stream.pointee.codecpar!
        let codecID = stored.pointee.codec_id
        guard stored.pointee.codec_type == AVMEDIA_TYPE_SUBTITLE, codecID != AV_CODEC_ID_MOV_TEXT,
              let descriptor = avcodec_descriptor_get(codecID), descriptor.pointee.props & AV_CODEC_PROP_TEXT_SUB != 0,
              let decoding = avcodec_find_decoder(codecID), let encoding = avcodec_find_encoder(AV_CODEC_ID_MOV_TEXT),
              let parameters = avcodec_parameters_alloc() else { return nil }
        self.parameters = parameters
        guard let decoder = avcodec_alloc_context3(decoding) else { return nil }
        self.decoder = decoder
        decoder.pointee.pkt_timebase = stream.pointee.time_base
        guard avcodec_parameters_to_context(decoder, stored) >= 0, avcodec_open2(decoder, decoding, nil) >= 0,
              let encoder = avcodec_alloc_context3(encoding) else { return nil }
        self.encoder = encoder
        encoder.pointee.time_base = stream.pointee.time_base
        // The encoder takes the decoder's ASS header (styles), as ffmpeg's command hands it over.
        if let header = decoder.pointee.subtitle_header, decoder.pointee.subtitle_header_size > 0,
           let copy = av_mallocz(Int(decoder.pointee.subtitle_header_size) + 1) {
            copy.copyMemory(from: header, byteCount: Int(decoder.pointee.subtitle_header_size))
            encoder.pointee.subtitle_header = copy.assumingMemoryBound(to: UInt8.self)
            encoder.pointee.subtitle_header_size = decoder.pointee.subtitle_header_size
        }
        guard avcodec_open2(encoder, encoding, nil) >= 0, avcodec_parameters_from_context(parameters, encoder) >= 0 else { return nil }
    }

    deinit {
        avcodec_free_context(&decoder)
        avcodec_free_context(&encoder)
        var parameters: UnsafeMutablePointer<AVCodecParameters>? = parameters
        avcodec_parameters_free(&parameters)
    }

    /// The cue of `packet` as a 3GPP timed text sample, with the packet's times; a cue that
    /// does not decode becomes an empty sample (the time it covers shows no text).
    func convert(_ packet: Packet) -> Packet {
        guard let decoder, let encoder else { return packet }
        var subtitle = AVSubtitle()
        var decoded: Int32 = 0
        var size: Int32 = 0
        if avcodec_decode_subtitle2(decoder, &subtitle, &decoded, packet.pointer) >= 0, decoded != 0 {
            size = max(0, avcodec_encode_subtitle(encoder, &encoded, Int32(encoded.count), &subtitle))
            avsubtitle_free(&subtitle)
        }
        if size == 0 {
            // An empty sample: a zero text length.
            encoded[0] = 0
            encoded[1] = 0
            size = 2
        }
        let converted = Packet()
        guard av_new_packet(converted.pointer, size) >= 0 else { return packet }
        converted.pointer.pointee.data.update(from: encoded, count: Int(size))
        av_packet_copy_props(converted.pointer, packet.pointer)
        converted.pointer.pointee.stream_index = packet.pointer.pointee.stream_index
        return converted
    }

    /// Forgets what the decoder holds, after a seek.
    func flush() {
        if let decoder { avcodec_flush_buffers(decoder) }
    }
}
