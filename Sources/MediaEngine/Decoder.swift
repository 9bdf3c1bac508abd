import CFFmpeg
import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// A decoder for one stream: FFmpeg's `AVCodecContext`, opened from the stream's codec
/// parameters, with frame and slice threads sized to the machine. Freed exactly once.
package final class Decoder {
    /// The codec context, valid until deinit.
    private var context: UnsafeMutablePointer<AVCodecContext>?
    /// The time base of the packets and frames.
    package let timeBase: AVRational

    /// Opens a decoder for a stream's codec parameters; throws when FFmpeg has no decoder for
    /// the codec or cannot open it. `lowDelay` uses slice threads only, so that each frame comes
    /// out as soon as its packet goes in (frame threads hold several back), and FFmpeg's low-delay
    /// flag (no frames held for reordering): for live capture.
    package init(parameters: UnsafePointer<AVCodecParameters>, timeBase: AVRational,
                 lowDelay: Bool = false) throws(EngineError) {
        _ = FFmpegLog.install
        self.timeBase = timeBase
        let codecName = avcodec_get_name(parameters.pointee.codec_id).map { String(cString: $0) } ?? "unknown"
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw EngineError(ffmpegCode: cffmpeg_averror_decoder_not_found(), operation: "finding a decoder for \(codecName)")
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw EngineError(ffmpegCode: cffmpeg_averror(ENOMEM), operation: "allocating a \(codecName) decoder")
        }
        self.context = context
        try ffmpegCheck(avcodec_parameters_to_context(context, parameters), "configuring the \(codecName) decoder")
        context.pointee.pkt_timebase = timeBase
        context.pointee.thread_count = 0 // FFmpeg picks one thread per core
        context.pointee.thread_type = lowDelay ? FF_THREAD_SLICE : FF_THREAD_FRAME | FF_THREAD_SLICE
        if lowDelay { context.pointee.flags |= Int32(AV_CODEC_FLAG_LOW_DELAY) }
        try ffmpegCheck(avcodec_open2(context, codec, nil), "opening the \(codecName) decoder")
    }

    deinit {
        avcodec_free_context(&context)
    }

    /// Opens a decoder for the packets of an audio format description: its codec (the
    /// subtype, through `CodecMapping`), rate, channel count and magic cookie (the codec's
    /// configuration as the engine stores it, such as the AAC AudioSpecificConfig; an Apple
    /// Lossless cookie also as Apple's bare 24-byte ALACSpecificConfig). Timestamps count
    /// samples. Throws when the engine has no decoder for the codec or cannot open it.
    package convenience init(audioFormat description: CMFormatDescription) throws(EngineError) {
        let subType = CMFormatDescriptionGetMediaSubType(description)
        let operation = "opening a decoder for \(subType.fourCCString) audio"
        guard let asbd = description.audioStreamBasicDescription, asbd.mSampleRate > 0, asbd.mChannelsPerFrame > 0,
              let codecID = CodecMapping.codecID(for: subType) else {
            throw EngineError(ffmpegCode: cffmpeg_averror_decoder_not_found(), operation: operation)
        }
        guard let parameters = avcodec_parameters_alloc() else {
            throw EngineError(ffmpegCode: cffmpeg_averror(ENOMEM), operation: operation)
        }
        defer {
            var owned: UnsafeMutablePointer<AVCodecParameters>? = parameters
            avcodec_parameters_free(&owned)
        }
        let p = parameters
        p.pointee.codec_type = AVMEDIA_TYPE_AUDIO
        p.pointee.codec_id = codecID
        p.pointee.sample_rate = Int32(asbd.mSampleRate)
        av_channel_layout_default(&p.pointee.ch_layout, Int32(asbd.mChannelsPerFrame))
        if asbd.mBitsPerChannel > 0 { p.pointee.bits_per_coded_sample = Int32(asbd.mBitsPerChannel) }
        var cookieSize = 0
        if let cookie = CMAudioFormatDescriptionGetMagicCookie(description, sizeOut: &cookieSize), cookieSize > 0 {
            var bytes = Data(bytes: cookie, count: cookieSize)
            if codecID == AV_CODEC_ID_ALAC, cookieSize == 24 {
                // Apple's bare ALACSpecificConfig: FFmpeg takes it inside its `alac` atom.
                bytes = Data([0, 0, 0, 36]) + Data("alac".utf8) + Data(count: 4) + bytes
            }
            guard let extradata = av_mallocz(bytes.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)) else {
                throw EngineError(ffmpegCode: cffmpeg_averror(ENOMEM), operation: operation)
            }
            bytes.withUnsafeBytes { extradata.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
            p.pointee.extradata = extradata.assumingMemoryBound(to: UInt8.self)
            p.pointee.extradata_size = Int32(bytes.count)
        }
        try self.init(parameters: UnsafePointer(p), timeBase: AVRational(num: 1, den: Int32(asbd.mSampleRate)))
    }

    /// Opens a decoder for the packets of a video format description, as an app enqueues them
    /// (an `AVSampleBufferDisplayLayer`'s): its codec, dimensions, colour and configuration record
    /// (`avcC`, `hvcC`, …) read as a writer's passthrough input reads them. Timestamps count
    /// microseconds. Each frame comes out as soon as its packet goes in (`lowDelay`). Throws when
    /// the engine has no decoder for the codec or cannot open it.
    package convenience init(videoFormat description: CMFormatDescription) throws(EngineError) {
        let subType = CMFormatDescriptionGetMediaSubType(description)
        guard CMFormatDescriptionGetMediaType(description) == kCMMediaType_Video, CodecMapping.codecID(for: subType) != nil,
              let parameters = avcodec_parameters_alloc() else {
            throw EngineError(ffmpegCode: cffmpeg_averror_decoder_not_found(), operation: "opening a decoder for \(subType.fourCCString) video")
        }
        defer {
            var owned: UnsafeMutablePointer<AVCodecParameters>? = parameters
            avcodec_parameters_free(&owned)
        }
        _ = try MuxerTrack.fill(parameters, from: description)
        try self.init(parameters: UnsafePointer(parameters), timeBase: Self.microseconds, lowDelay: true)
    }

    /// The time base of decoders opened for a format description's packets: a microsecond.
    package static let microseconds = AVRational(num: 1, den: 1_000_000)

    /// Sends one packet to the decoder, or nil to signal the end of the stream (which drains
    /// the frames still inside). Returns false when the decoder is full and frames must be
    /// received first.
    package func send(_ packet: Packet?) throws(EngineError) -> Bool {
        let status = avcodec_send_packet(context, packet?.pointer)
        if status == cffmpeg_averror(EAGAIN) { return false }
        if status == cffmpeg_averror_eof() && packet == nil { return true }
        try ffmpegCheck(status, "decoding a packet")
        return true
    }

    /// A frame kept from a receive that produced nothing, for the next one.
    private var spare: Frame?

    /// The next decoded frame, or nil when the decoder needs more packets (or has been fully
    /// drained after `send(nil)`). Each frame returned is new (it may outlive the decoder, as
    /// a shared pixel buffer); an empty receive allocates nothing.
    package func receiveFrame() throws(EngineError) -> Frame? {
        let frame = spare ?? Frame()
        spare = nil
        frame.timeBase = timeBase
        let status = avcodec_receive_frame(context, frame.pointer)
        if status == cffmpeg_averror(EAGAIN) || status == cffmpeg_averror_eof() {
            spare = frame
            return nil
        }
        try ffmpegCheck(status, "receiving a decoded frame")
        return frame
    }

    /// Whether frames no other frame refers to are skipped undecoded (FFmpeg's `skip_frame`
    /// `AVDISCARD_NONREF`; off: `AVDISCARD_DEFAULT`): for the packets before a seek's target,
    /// decoded only for the frames they refer to, as mpv's exact seeks do. It applies to the
    /// packets sent after it is set, also with frame threads.
    package var skipsNonReferenceFrames: Bool {
        get { context?.pointee.skip_frame == AVDISCARD_NONREF }
        set { context?.pointee.skip_frame = newValue ? AVDISCARD_NONREF : AVDISCARD_DEFAULT }
    }

    /// Forgets buffered packets and frames, for a seek.
    package func flush() {
        avcodec_flush_buffers(context)
    }
}
