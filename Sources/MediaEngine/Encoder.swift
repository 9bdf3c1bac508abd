import CFFmpeg
import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// An encoder for one track: FFmpeg's `AVCodecContext` opened from `EncoderSettings`, with
/// frame and slice threads sized to the machine. Freed exactly once. The one encoder behind
/// `AVAssetWriter`, `AVCaptureMovieFileOutput` and `AVAssetExportSession`.
///
/// Video: `encode(_:presentationTime:duration:)` takes pixel buffers of any supported layout.
/// A buffer already in the encoder's pixel format and size is handed to FFmpeg without a copy
/// (the frame's planes are the buffer's, which stays alive as long as FFmpeg holds the frame);
/// anything else is converted once by the shared `PixelConverter` into a reusable frame.
/// Presentation times must increase; each is rounded to the encoder's time base (exact when
/// the time base represents it). Packets come out in decode order with the encoder's decode
/// times (B-frames reordered by the encoder) and durations: the time to the next frame, or the
/// duration passed in, or for the last frame the previous frame's.
///
/// Audio: `encode(pcm:)` takes linear PCM sample buffers of any layout, rate and channel
/// count, converted by the shared `AudioConverter` and cut into exactly the codec's frame size
/// (1024 for AAC). Audio time is continuous from the first buffer (gaps are not reproduced),
/// as `AudioConverter` documents.
///
/// Not thread safe: one encoder serves one writer input on one queue.
package final class Encoder {
    /// What the encoder makes.
    package let settings: EncoderSettings
    /// The time base of the timestamps of the frames in and the packets out.
    package let timeBase: AVRational
    /// The encoder's codec parameters (codec, size or rate, extradata such as avcC or the AAC
    /// AudioSpecificConfig), valid for the encoder's lifetime: what a muxer track needs.
    package var codecParameters: UnsafePointer<AVCodecParameters> { UnsafePointer(parameters) }
    /// The format description of the packets (what `CMFormatDescription.stored(_:)` makes of
    /// the codec parameters), nil when CoreMedia has no code for the codec.
    package let formatDescription: CMFormatDescription?
    /// Samples per channel in every audio frame the codec takes (1024 for AAC); 0 for video
    /// and for codecs that take any count.
    package let frameSize: Int

    /// The codec context, valid until deinit.
    private var context: UnsafeMutablePointer<AVCodecContext>?
    /// The parameters copied out of the context after opening, freed in deinit.
    private var parameters: UnsafeMutablePointer<AVCodecParameters>
    /// Whether `finish()` has run.
    private var isFinished = false
    /// Packets received from the codec whose duration is not known yet, in decode order.
    private var waiting: [Packet] = []
    /// Packets ready to hand out, in decode order.
    private var ready: [Packet] = []

    // Video
    /// The one pixel converter of this encoder.
    private let pixelConverter = PixelConverter()
    /// The frame conversions go into, reused while the codec holds no reference to it.
    private var conversionFrame: Frame?
    /// The timestamp of the last frame sent.
    private var lastTimestamp: Int64?
    /// The duration of each frame sent whose packet has not come out yet, by timestamp.
    private var frameDurations: [Int64: Int64] = [:]
    /// The duration of the last frame whose duration was known.
    private var lastDuration: Int64?
    /// The duration given with the last frame, if any.
    private var lastGivenDuration: Int64?

    // Audio
    /// The converter into the codec's sample format, rate and channels.
    private var audioConverter: AudioConverter?
    /// Converted samples waiting to fill a codec frame.
    private var fifo: SampleFIFO?
    /// The timestamp of the next audio frame (in samples), nil until the first samples.
    private var nextAudioTimestamp: Int64?

    /// Opens an encoder. `globalHeader` puts the codec configuration in the codec parameters'
    /// extradata rather than in the stream (what MP4 and QuickTime need; see
    /// `Muxer.needsGlobalHeader(fileType:)`). Throws when FFmpeg has no such encoder or the
    /// settings cannot work (odd dimensions for 4:2:0, a pixel format or sample rate the codec
    /// refuses, …), naming the problem.
    package init(settings: EncoderSettings, globalHeader: Bool) throws(EngineError) {
        _ = FFmpegLog.install
        self.settings = settings
        let opened: UnsafeMutablePointer<AVCodecContext>
        switch settings {
        case .video(let video): opened = try Self.openVideo(video, globalHeader: globalHeader)
        case .audio(let audio): opened = try Self.openAudio(audio, globalHeader: globalHeader)
        }
        guard let parameters = avcodec_parameters_alloc() else {
            var failed: UnsafeMutablePointer<AVCodecContext>? = opened
            avcodec_free_context(&failed)
            throw EngineError(ffmpegCode: cffmpeg_averror(ENOMEM), operation: "allocating codec parameters")
        }
        context = opened
        self.parameters = parameters
        timeBase = opened.pointee.time_base
        frameSize = opened.pointee.codec_type == AVMEDIA_TYPE_AUDIO ? Int(opened.pointee.frame_size) : 0
        let status = avcodec_parameters_from_context(parameters, opened)
        formatDescription = status >= 0 ? CMFormatDescription.stored(UnsafePointer(parameters)) : nil
        // Fully initialised: deinit frees the context and parameters if this throws.
        try ffmpegCheck(status, "reading the encoder's parameters")
        if case .audio(let audio) = settings {
            audioConverter = AudioConverter(output: audio.encoderInput)
            fifo = SampleFIFO(format: audio.encoderInput)
        }
    }

    deinit {
        avcodec_free_context(&context)
        var parameters: UnsafeMutablePointer<AVCodecParameters>? = self.parameters
        avcodec_parameters_free(&parameters)
    }

    /// The open context.
    private var openContext: UnsafeMutablePointer<AVCodecContext> {
        guard let context else { preconditionFailure("Encoder used after its context was freed") }
        return context
    }

    /// The samples of codec delay before the first input sample in the decoded output
    /// (FFmpeg's `initial_padding`: 1024 for AAC, 312 for Opus, 0 for lossless codecs).
    package var primingSamples: Int { Int(parameters.pointee.initial_padding) }

    /// Whether this is a video encoder.
    package var isVideo: Bool {
        if case .video = settings { return true }
        return false
    }

    // MARK: Opening

    /// Finds an encoder by name or throws.
    private static func encoder(named name: String) throws(EngineError) -> UnsafePointer<AVCodec> {
        guard let codec = avcodec_find_encoder_by_name(name) else {
            throw EngineError(ffmpegCode: cffmpeg_averror(ENOSYS), operation: "finding the \(name) encoder")
        }
        return codec
    }

    /// Allocates a context, lets `configure` set it up and opens it; frees it on failure.
    private static func open(_ codec: UnsafePointer<AVCodec>, name: String,
                             configure: (UnsafeMutablePointer<AVCodecContext>) throws(EngineError) -> Void)
        throws(EngineError) -> UnsafeMutablePointer<AVCodecContext> {
        guard let context = avcodec_alloc_context3(codec) else {
            throw EngineError(ffmpegCode: cffmpeg_averror(ENOMEM), operation: "allocating the \(name) encoder")
        }
        do {
            try configure(context)
            try ffmpegCheck(avcodec_open2(context, codec, nil), "opening the \(name) encoder")
        } catch {
            var failed: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&failed)
            throw error
        }
        return context
    }

    /// The pixel formats an encoder takes, from its own list.
    private static func pixelFormats(of codec: UnsafePointer<AVCodec>) -> [AVPixelFormat] {
        var formats: [AVPixelFormat] = []
        guard var pointer = codec.pointee.pix_fmts else { return formats }
        while pointer.pointee != AV_PIX_FMT_NONE {
            formats.append(pointer.pointee)
            pointer += 1
        }
        return formats
    }

    /// The pixel format to give `codec` for frames from `source` (a CoreVideo pixel format):
    /// the source's own layout when the codec takes it (so frames go in without conversion),
    /// otherwise the codec's default. For `EncoderSettings.Video.pixelFormat`.
    package static func preferredPixelFormat(for codec: EncoderSettings.VideoCodec, source: OSType) -> Int32? {
        guard let (format, _) = PixelFormatMapping.ffmpegFormat(for: source),
              let encoder = avcodec_find_encoder_by_name(codec.encoderName) else { return nil }
        // JPEG stays full-range 4:2:0 and ProRes keeps its profile's layout.
        guard codec == .h264 || codec == .hevc else { return nil }
        return pixelFormats(of: encoder).contains(format) ? format.rawValue : nil
    }

    /// Opens a video encoder.
    private static func openVideo(_ video: EncoderSettings.Video, globalHeader: Bool)
        throws(EngineError) -> UnsafeMutablePointer<AVCodecContext> {
        let name = video.codec.encoderName
        let codec = try encoder(named: name)
        let operation = "configuring the \(name) encoder"
        let format = video.resolvedPixelFormat
        guard pixelFormats(of: codec).contains(format) else {
            throw EngineError(operation: operation,
                              message: "\(name) does not take \(PixelConverter.name(format)) pixels")
        }
        guard video.width > 0, video.height > 0, video.width <= 16384, video.height <= 16384 else {
            throw EngineError(operation: operation, message: "\(video.width)x\(video.height) is not a valid size")
        }
        if let descriptor = av_pix_fmt_desc_get(format) {
            let (w, h) = (1 << Int(descriptor.pointee.log2_chroma_w), 1 << Int(descriptor.pointee.log2_chroma_h))
            guard video.width % w == 0, video.height % h == 0 else {
                throw EngineError(operation: operation, message: "\(video.width)x\(video.height) does not divide "
                    + "into \(PixelConverter.name(format))'s \(w)x\(h) chroma blocks")
            }
        }
        guard video.timeScale > 0 else {
            throw EngineError(operation: operation, message: "the time scale \(video.timeScale) is not positive")
        }
        if let profile = video.profile {
            let fits: Bool = switch (video.codec, profile) {
            case (.h264, .h264Baseline), (.h264, .h264Main), (.h264, .h264High), (.hevc, .hevcMain), (.hevc, .hevcMain10): true
            default: false
            }
            guard fits else {
                throw EngineError(operation: operation, message: "profile \(profile.optionValue) is not a \(name) profile")
            }
        }
        return try open(codec, name: name) { (c) throws(EngineError) in
            c.pointee.width = Int32(video.width)
            c.pointee.height = Int32(video.height)
            c.pointee.pix_fmt = format
            c.pointee.time_base = AVRational(num: 1, den: video.timeScale)
            c.pointee.sample_aspect_ratio = video.pixelAspectRatio.map { AVRational(num: $0.horizontal, den: $0.vertical) }
                ?? AVRational(num: 1, den: 1)
            // The frame rate is a hint for rate control and the level (timestamps stay exact):
            // without it x264 would take the time base (90000 per second) for the frame rate
            // and pick level 6.2.
            let rate = video.expectedFrameRate.flatMap { $0 > 0 && $0.isFinite ? $0 : nil } ?? 30
            c.pointee.framerate = av_d2q(rate, 1 << 16)
            c.pointee.gop_size = Int32(video.keyFrameInterval)
            c.pointee.color_range = video.isFullRange ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
            if let primaries = EncoderSettings.ffmpegPrimaries(video.colorPrimaries) { c.pointee.color_primaries = primaries }
            if let transfer = EncoderSettings.ffmpegTransfer(video.transferFunction) { c.pointee.color_trc = transfer }
            if let matrix = EncoderSettings.ffmpegMatrix(video.yCbCrMatrix) { c.pointee.colorspace = matrix }
            c.pointee.thread_count = 0 // one thread per core
            c.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
            if globalHeader { c.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
            if let bitRate = video.averageBitRate, bitRate > 0 { c.pointee.bit_rate = Int64(bitRate) }
            let options = c.pointee.priv_data
            switch video.codec {
            case .h264, .hevc:
                av_opt_set(options, "preset", video.preset ?? EncoderSettings.Video.defaultPreset, 0)
                if video.averageBitRate == nil, let quality = video.quality {
                    av_opt_set_double(options, "crf", 51 * (1 - min(max(quality, 0), 1)), 0)
                }
                if video.codec == .h264, video.averageBitRate != nil {
                    // An average bit rate is to be met over the clip, as Apple's encoder meets it
                    // (within 15 % from 1 s on). x264's macroblock tree moves bits toward the
                    // pictures others refer to and its rate control starts cautiously, which left
                    // short clips up to 30 % under; without it, and with a flatter quantiser
                    // curve, one second of video lands within about 12 % (measured on moving and
                    // detailed test pictures).
                    av_opt_set(options, "x264-params", "mbtree=0:qcomp=0.7", 0)
                }
                if video.allowFrameReordering == false { c.pointee.max_b_frames = 0 }
                if let profile = video.profile {
                    av_opt_set(options, "profile", profile.optionValue, 0)
                    if let level = profile.level, let number = Double(level) { c.pointee.level = Int32((number * 10).rounded()) }
                } else if video.codec == .hevc, format == AV_PIX_FMT_YUV420P10LE {
                    av_opt_set(options, "profile", "main10", 0)
                }
                if video.codec == .hevc {
                    // libx265 prints its own banner to stderr unless told otherwise.
                    var parameters = "log-level=error"
                    if video.allowFrameReordering == false { parameters += ":bframes=0" }
                    av_opt_set(options, "x265-params", parameters, 0)
                }
            case .jpeg:
                c.pointee.flags |= AV_CODEC_FLAG_QSCALE
                let quality = min(max(video.quality ?? 0.75, 0), 1)
                c.pointee.global_quality = Int32((2 + (1 - quality) * 29) * Double(FF_QP2LAMBDA))
            case .proRes422, .proRes422HQ, .proRes422LT, .proRes422Proxy, .proRes4444:
                av_opt_set_int(options, "profile", Int64(video.codec.proResProfile ?? 2), 0)
            }
        }
    }

    /// The sample rates an encoder takes, nil when it takes any.
    private static func sampleRates(of codec: UnsafePointer<AVCodec>) -> [Int]? {
        guard var rates = codec.pointee.supported_samplerates else { return nil }
        var supported: [Int] = []
        while rates.pointee != 0 { supported.append(Int(rates.pointee)); rates += 1 }
        return supported
    }

    /// The sample rates the encoder of `audio`'s codec takes, nil when it takes any; throws
    /// when FFmpeg has no such encoder.
    package static func supportedSampleRates(for audio: EncoderSettings.Audio) throws(EngineError) -> [Int]? {
        sampleRates(of: try encoder(named: audio.encoderName))
    }

    /// Opens an audio encoder.
    private static func openAudio(_ audio: EncoderSettings.Audio, globalHeader: Bool)
        throws(EngineError) -> UnsafeMutablePointer<AVCodecContext> {
        let name = audio.encoderName
        let codec = try encoder(named: name)
        let operation = "configuring the \(name) encoder"
        guard audio.channelCount > 0, audio.channelCount <= 8 else {
            throw EngineError(operation: operation, message: "\(audio.channelCount) channels are not supported")
        }
        if let tag = audio.channelLayoutTag, tag & 0xFFFF != 0, Int(tag & 0xFFFF) != audio.channelCount {
            throw EngineError(operation: operation, message: "the channel layout has \(tag & 0xFFFF) channels, "
                + "not \(audio.channelCount)")
        }
        guard audio.sampleRate > 0, audio.sampleRate <= 768_000 else {
            throw EngineError(operation: operation, message: "the sample rate \(audio.sampleRate) is not supported")
        }
        if let supported = sampleRates(of: codec) {
            guard supported.contains(audio.sampleRate) else {
                throw EngineError(operation: operation, message: "\(name) does not take \(audio.sampleRate) Hz "
                    + "(it takes \(supported.map(String.init).joined(separator: ", ")) Hz)")
            }
        }
        if case .appleLossless(let depth) = audio.codec, depth != 16, depth != 24 {
            throw EngineError(operation: operation, message: "Apple Lossless is encoded at 16 or 24 bits, not \(depth)")
        }
        if case .linearPCM(let bits, let isFloat) = audio.codec, isFloat ? bits != 32 : ![16, 24, 32].contains(bits) {
            throw EngineError(operation: operation, message: "\(bits)-bit \(isFloat ? "float" : "integer") PCM is not supported")
        }
        if case .bigEndianPCM(let bits) = audio.codec, ![16, 24, 32].contains(bits) {
            throw EngineError(operation: operation, message: "\(bits)-bit big-endian PCM is not supported")
        }
        let sampleFormat = try audio.encoderInput.avSampleFormat
        if var formats = codec.pointee.sample_fmts {
            var supported: [AVSampleFormat] = []
            while formats.pointee != AV_SAMPLE_FMT_NONE { supported.append(formats.pointee); formats += 1 }
            guard supported.contains(sampleFormat) else {
                throw EngineError(operation: operation, message: "\(name) does not take "
                    + (av_get_sample_fmt_name(sampleFormat).map { String(cString: $0) } ?? "these") + " samples")
            }
        }
        return try open(codec, name: name) { (c) throws(EngineError) in
            c.pointee.sample_rate = Int32(audio.sampleRate)
            c.pointee.sample_fmt = sampleFormat
            av_channel_layout_uninit(&c.pointee.ch_layout)
            av_channel_layout_default(&c.pointee.ch_layout, Int32(audio.channelCount))
            c.pointee.time_base = AVRational(num: 1, den: Int32(audio.sampleRate))
            if let bitRate = audio.resolvedBitRate { c.pointee.bit_rate = Int64(bitRate) }
            if case .appleLossless(let depth) = audio.codec { c.pointee.bits_per_raw_sample = Int32(depth) }
            c.pointee.thread_count = 0
            if globalHeader { c.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        }
    }

    // MARK: Video

    /// Encodes one picture shown at `presentationTime` for `duration` (invalid: until the next
    /// picture), as a key frame when `keyFrame` (else where the encoder chooses). Throws when
    /// the encoder is audio or finished, the time is not numeric or not after the previous
    /// picture's, the pixel format is unsupported, or the codec fails.
    package func encode(_ pixelBuffer: CVPixelBuffer, presentationTime: CMTime,
                        duration: CMTime = .invalid, keyFrame: Bool = false) throws(EngineError) {
        let operation = "encoding a video frame"
        guard isVideo else { throw EngineError(operation: operation, message: "the encoder is an audio encoder") }
        guard !isFinished else { throw EngineError(operation: operation, message: "the encoder has finished") }
        guard presentationTime.isNumeric else {
            throw EngineError(operation: operation, message: "the presentation time is not numeric")
        }
        let timestamp = presentationTime.ffmpegTimestamp(in: timeBase)
        if let lastTimestamp, timestamp <= lastTimestamp {
            throw EngineError(operation: operation, message: "the presentation time \(presentationTime.seconds) s "
                + "is not after the previous frame's")
        }
        let frame = try videoFrame(for: pixelBuffer)
        frame.pointer.pointee.pts = timestamp
        frame.pointer.pointee.pict_type = keyFrame ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        if let lastTimestamp {
            let interval = timestamp - lastTimestamp
            if frameDurations[lastTimestamp] == nil { frameDurations[lastTimestamp] = interval }
            lastDuration = frameDurations[lastTimestamp]
        }
        lastGivenDuration = nil
        if duration.isNumeric, duration > .zero {
            let ticks = max(1, duration.ffmpegTimestamp(in: timeBase))
            frameDurations[timestamp] = ticks
            lastGivenDuration = ticks
        }
        lastTimestamp = timestamp
        try send(frame.pointer)
    }

    /// The frame to send for a pixel buffer: the buffer's own planes when its layout is the
    /// encoder's, otherwise a conversion.
    private func videoFrame(for pixelBuffer: CVPixelBuffer) throws(EngineError) -> Frame {
        let c = openContext.pointee
        let fullRange = c.color_range == AVCOL_RANGE_JPEG
        if pixelBuffer.width == Int(c.width), pixelBuffer.height == Int(c.height),
           let (format, bufferFullRange) = PixelFormatMapping.ffmpegFormat(for: pixelBuffer.pixelFormatType),
           format == c.pix_fmt || (format == AV_PIX_FMT_YUV420P && c.pix_fmt == AV_PIX_FMT_YUVJ420P),
           bufferFullRange == fullRange || isRGB(format),
           let frame = wrap(pixelBuffer, format: c.pix_fmt) {
            return frame
        }
        var frame: Frame
        if let reusable = conversionFrame, reusable.isWritable {
            frame = reusable
        } else {
            frame = Frame()
            frame.pointer.pointee.format = c.pix_fmt.rawValue
            frame.pointer.pointee.width = c.width
            frame.pointer.pointee.height = c.height
            frame.pointer.pointee.color_range = c.color_range
            try ffmpegCheck(av_frame_get_buffer(frame.pointer, 0), "allocating a video frame")
            conversionFrame = frame
        }
        tagColour(frame)
        try pixelConverter.convert(pixelBuffer, into: frame)
        return frame
    }

    /// Whether a pixel format is RGB (range does not apply).
    private func isRGB(_ format: AVPixelFormat) -> Bool {
        guard let descriptor = av_pix_fmt_desc_get(format) else { return false }
        return descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0
    }

    /// Sets the encoder's colour description on a frame.
    private func tagColour(_ frame: Frame) {
        let c = openContext.pointee
        frame.pointer.pointee.color_range = c.color_range
        frame.pointer.pointee.color_primaries = c.color_primaries
        frame.pointer.pointee.color_trc = c.color_trc
        frame.pointer.pointee.colorspace = c.colorspace
        frame.pointer.pointee.sample_aspect_ratio = c.sample_aspect_ratio
    }

    /// A frame whose planes are the pixel buffer's, without a copy: a reference-counted FFmpeg
    /// buffer that keeps the pixel buffer alive until FFmpeg lets go of the frame. Nil when the
    /// buffer's planes do not match the format.
    private func wrap(_ pixelBuffer: CVPixelBuffer, format: AVPixelFormat) -> Frame? {
        let planes = pixelBuffer.planes
        guard planes.count == Int(av_pix_fmt_count_planes(format)), planes.count <= 4,
              planes.allSatisfy({ $0.bytesPerRow > 0 && $0.bytesPerRow <= Int(Int32.max) }) else { return nil }
        let retained = Unmanaged.passRetained(pixelBuffer).toOpaque()
        let size = planes[0].bytesPerRow * planes[0].height
        guard let buffer = av_buffer_create(planes[0].baseAddress.assumingMemoryBound(to: UInt8.self), size,
                                            { opaque, _ in
                                                guard let opaque else { return }
                                                Unmanaged<CVBuffer>.fromOpaque(opaque).release()
                                            },
                                            retained, AV_BUFFER_FLAG_READONLY) else {
            Unmanaged<CVBuffer>.fromOpaque(retained).release()
            return nil
        }
        let frame = Frame()
        let f = frame.pointer
        f.pointee.format = format.rawValue
        f.pointee.width = Int32(pixelBuffer.width)
        f.pointee.height = Int32(pixelBuffer.height)
        f.pointee.buf.0 = buffer
        withUnsafeMutableBytes(of: &f.pointee.data) { raw in
            let data = raw.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)
            for (index, plane) in planes.enumerated() { data[index] = plane.baseAddress.assumingMemoryBound(to: UInt8.self) }
        }
        withUnsafeMutableBytes(of: &f.pointee.linesize) { raw in
            let lines = raw.bindMemory(to: Int32.self)
            for (index, plane) in planes.enumerated() { lines[index] = Int32(plane.bytesPerRow) }
        }
        f.pointee.extended_data = Self.dataArray(of: f)
        tagColour(frame)
        return frame
    }

    /// A frame's own `data` array, as `extended_data` must point to for planar data of up to
    /// eight planes.
    private static func dataArray(of f: UnsafeMutablePointer<AVFrame>) -> UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?> {
        (UnsafeMutableRawPointer(f) + MemoryLayout<AVFrame>.offset(of: \AVFrame.data)!)
            .assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self)
    }

    // MARK: Audio

    /// Encodes linear PCM samples (any rate, channel count and CoreAudio LPCM layout; at most
    /// eight non-interleaved channels). Throws when the encoder is video or finished, the
    /// buffer is not linear PCM, or the conversion or codec fails.
    package func encode(pcm sampleBuffer: CMSampleBuffer) throws(EngineError) {
        let operation = "encoding audio"
        guard !isVideo, let audioConverter else {
            throw EngineError(operation: operation, message: "the encoder is a video encoder")
        }
        guard !isFinished else { throw EngineError(operation: operation, message: "the encoder has finished") }
        guard let description = sampleBuffer.formatDescription, let asbd = description.audioStreamBasicDescription,
              asbd.mFormatID == kAudioFormatLinearPCM else {
            throw EngineError(operation: operation, message: "the sample buffer is not linear PCM")
        }
        let count = sampleBuffer.numSamples
        guard count > 0, let block = sampleBuffer.dataBuffer, block.dataLength > 0 else { return }
        let input = try PCMInput(asbd: asbd, count: count, block: block, operation: operation)
        let rate = AVRational(num: 1, den: Int32(asbd.mSampleRate))
        let frame = Frame()
        try input.fill(frame, timestamp: sampleBuffer.presentationTimeStamp.ffmpegTimestamp(in: rate))
        let converted = try withExtendedLifetime(input) { () throws(EngineError) -> CMSampleBuffer? in
            try audioConverter.convert(frame, timeBase: rate)
        }
        if let converted { try queue(converted) }
        try encodeQueuedSamples(flushing: false)
    }

    /// Adds converted samples to the FIFO.
    private func queue(_ sampleBuffer: CMSampleBuffer) throws(EngineError) {
        guard let block = sampleBuffer.dataBuffer else { return }
        if nextAudioTimestamp == nil {
            nextAudioTimestamp = sampleBuffer.presentationTimeStamp.ffmpegTimestamp(in: timeBase)
        }
        fifo?.append(block, count: sampleBuffer.numSamples)
    }

    /// Sends every whole codec frame in the FIFO (and, when flushing, the partial rest).
    private func encodeQueuedSamples(flushing: Bool) throws(EngineError) {
        guard var fifo else { return }
        defer { self.fifo = fifo }
        let c = openContext
        let size = frameSize > 0 ? frameSize : 1024
        while fifo.count >= size || (flushing && fifo.count > 0) {
            let count = min(size, fifo.count)
            let frame = Frame()
            let f = frame.pointer
            f.pointee.nb_samples = Int32(count)
            f.pointee.format = c.pointee.sample_fmt.rawValue
            f.pointee.sample_rate = c.pointee.sample_rate
            try ffmpegCheck(av_channel_layout_copy(&f.pointee.ch_layout, &c.pointee.ch_layout), "setting the channel layout")
            try ffmpegCheck(av_frame_get_buffer(f, 0), "allocating an audio frame")
            fifo.read(count, into: f)
            let timestamp = nextAudioTimestamp ?? 0
            f.pointee.pts = timestamp
            nextAudioTimestamp = timestamp + Int64(count)
            try send(f)
        }
    }

    // MARK: Packets

    /// Sends a frame (nil: the end) and collects the packets that come out.
    private func send(_ frame: UnsafeMutablePointer<AVFrame>?) throws(EngineError) {
        let c = openContext
        while true {
            let status = avcodec_send_frame(c, frame)
            if status == cffmpeg_averror(EAGAIN) {
                try receive()
                continue
            }
            if status == cffmpeg_averror_eof() && frame == nil { break }
            try ffmpegCheck(status, frame == nil ? "finishing the encoding" : "encoding a frame")
            break
        }
        try receive()
    }

    /// Receives every packet the codec has ready.
    private func receive() throws(EngineError) {
        let c = openContext
        while true {
            let packet = Packet()
            let status = avcodec_receive_packet(c, packet.pointer)
            if status == cffmpeg_averror(EAGAIN) || status == cffmpeg_averror_eof() { break }
            try ffmpegCheck(status, "receiving an encoded packet")
            packet.timeBase = timeBase
            waiting.append(packet)
        }
        releaseWaitingPackets(final: false)
    }

    /// Moves packets whose duration is known (all of them when `final`) to `ready`, in order.
    private func releaseWaitingPackets(final: Bool) {
        var released = 0
        for packet in waiting {
            let p = packet.pointer
            if isVideo {
                if let duration = frameDurations.removeValue(forKey: p.pointee.pts) {
                    p.pointee.duration = duration
                } else if final {
                    p.pointee.duration = lastGivenDuration ?? lastDuration ?? defaultFrameDuration
                } else if p.pointee.duration <= 0 {
                    break
                }
            }
            ready.append(packet)
            released += 1
        }
        waiting.removeFirst(released)
    }

    /// One frame at the expected frame rate (30 fps when unknown), in time base units.
    private var defaultFrameDuration: Int64 {
        let rate = openContext.pointee.framerate
        let perSecond = rate.num > 0 && rate.den > 0 ? rate : AVRational(num: 30, den: 1)
        return max(1, av_rescale_q(1, AVRational(num: perSecond.den, den: perSecond.num), timeBase))
    }

    /// The encoded packets ready so far, in decode order, each with its timestamps and
    /// duration in `timeBase` (set as the packet's `timeBase`). Each packet is handed out once.
    package func receivePackets() -> [Packet] {
        defer { ready.removeAll(keepingCapacity: true) }
        return ready
    }

    /// Encodes what the codec and converter still hold; afterwards `receivePackets()` returns
    /// the last packets. Calling it again does nothing.
    package func finish() throws(EngineError) {
        guard !isFinished else { return }
        isFinished = true
        if let audioConverter {
            if let rest = try audioConverter.flush() { try queue(rest) }
            try encodeQueuedSamples(flushing: true)
        }
        try send(nil)
        releaseWaitingPackets(final: true)
    }
}

// MARK: - PCM input

/// Linear PCM from a sample buffer as an FFmpeg frame: the block's bytes used in place when
/// FFmpeg has their layout, otherwise unpacked once (24-bit, signed 8-bit, other byte order).
private final class PCMInput {
    let format: AVSampleFormat
    let channels: Int
    let count: Int
    let rate: Int32
    let planeCount: Int
    /// Bytes of one plane.
    let planeSize: Int
    /// Where the samples are (the block's memory or `storage`).
    let base: UnsafeMutableRawPointer
    /// Owned memory when the block was not contiguous or needed unpacking.
    var storage: UnsafeMutableRawPointer?
    /// The block, kept alive while its memory is used.
    let block: CMBlockBuffer

    init(asbd: AudioStreamBasicDescription, count: Int, block: CMBlockBuffer, operation: String) throws(EngineError) {
        let flags = asbd.mFormatFlags
        let isFloat = flags & kAudioFormatFlagIsFloat != 0
        let isBigEndian = flags & kAudioFormatFlagIsBigEndian != 0
        let isSigned = flags & kAudioFormatFlagIsSignedInteger != 0
        let planar = flags & kAudioFormatFlagIsNonInterleaved != 0
        let bits = Int(asbd.mBitsPerChannel)
        let channels = Int(asbd.mChannelsPerFrame)
        guard channels > 0, channels <= (planar ? 8 : 64), asbd.mSampleRate > 0,
              asbd.mSampleRate == asbd.mSampleRate.rounded(), asbd.mSampleRate <= Double(Int32.max) else {
            throw EngineError(operation: operation, message: "\(channels) channels at \(asbd.mSampleRate) Hz are not supported")
        }
        let bytes = bits / 8
        let supported = isFloat ? [32, 64].contains(bits) : [8, 16, 24, 32].contains(bits)
        guard supported, bits % 8 == 0 else {
            throw EngineError(operation: operation, message: "\(bits)-bit \(isFloat ? "float" : "integer") PCM is not supported")
        }
        let packed: AVSampleFormat = switch (isFloat, bits) {
        case (true, 64): AV_SAMPLE_FMT_DBL
        case (true, _): AV_SAMPLE_FMT_FLT
        case (false, 8): AV_SAMPLE_FMT_U8
        case (false, 16): AV_SAMPLE_FMT_S16
        default: AV_SAMPLE_FMT_S32
        }
        format = planar ? av_get_planar_sample_fmt(packed) : packed
        self.channels = channels
        self.count = count
        rate = Int32(asbd.mSampleRate)
        planeCount = planar ? channels : 1
        let samplesPerPlane = planar ? count : count * channels
        let sourcePlaneSize = samplesPerPlane * bytes
        guard block.dataLength >= sourcePlaneSize * planeCount else {
            throw EngineError(operation: operation, message: "the sample buffer holds fewer bytes than its samples need")
        }
        self.block = block
        let needsUnpacking = bits == 24 || (bits == 8 && isSigned) || (isBigEndian != PCMFormat.hostIsBigEndian && bits > 8)
        let outputBytes = bits == 24 ? 4 : bytes
        planeSize = samplesPerPlane * outputBytes
        var contiguous: UnsafeMutableRawPointer?
        var length = 0
        var pointer: UnsafeMutablePointer<CChar>?
        if CMBlockBufferGetDataPointer(block, atOffset: 0, lengthAtOffsetOut: &length, totalLengthOut: nil,
                                       dataPointerOut: &pointer) == kCMBlockBufferNoErr,
           length >= sourcePlaneSize * planeCount, let pointer {
            contiguous = UnsafeMutableRawPointer(pointer)
        }
        if let contiguous, !needsUnpacking {
            base = contiguous
            return
        }
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(1, planeSize * planeCount), alignment: 16)
        storage = memory
        base = memory
        let source: UnsafeMutableRawPointer
        var copied: UnsafeMutableRawPointer?
        if let contiguous {
            source = contiguous
        } else {
            let copy = UnsafeMutableRawPointer.allocate(byteCount: sourcePlaneSize * planeCount, alignment: 16)
            _ = CMBlockBufferCopyDataBytes(block, atOffset: 0, dataLength: sourcePlaneSize * planeCount, destination: copy)
            copied = copy
            source = copy
        }
        defer { copied?.deallocate() }
        if !needsUnpacking {
            memory.copyMemory(from: source, byteCount: sourcePlaneSize * planeCount)
            return
        }
        let total = samplesPerPlane * planeCount
        let input = source.assumingMemoryBound(to: UInt8.self)
        switch bits {
        case 8:
            let output = memory.assumingMemoryBound(to: UInt8.self)
            for index in 0..<total { output[index] = input[index] ^ 0x80 }
        case 24:
            let output = memory.assumingMemoryBound(to: UInt32.self)
            for index in 0..<total {
                let b = input + 3 * index
                let (high, middle, low) = isBigEndian ? (b[0], b[1], b[2]) : (b[2], b[1], b[0])
                output[index] = UInt32(high) << 24 | UInt32(middle) << 16 | UInt32(low) << 8
            }
        default:
            // Byte order only.
            let output = memory.assumingMemoryBound(to: UInt8.self)
            for index in 0..<total {
                for byte in 0..<bytes { output[index * bytes + byte] = input[index * bytes + bytes - 1 - byte] }
            }
        }
    }

    deinit {
        storage?.deallocate()
    }

    /// Points `frame` at the samples (the frame owns no buffer; this input must outlive it).
    func fill(_ frame: Frame, timestamp: Int64) throws(EngineError) {
        let f = frame.pointer
        f.pointee.format = format.rawValue
        f.pointee.nb_samples = Int32(count)
        f.pointee.sample_rate = rate
        av_channel_layout_default(&f.pointee.ch_layout, Int32(channels))
        f.pointee.pts = timestamp
        withUnsafeMutableBytes(of: &f.pointee.data) { raw in
            let data = raw.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)
            for plane in 0..<planeCount {
                data[plane] = (base + plane * planeSize).assumingMemoryBound(to: UInt8.self)
            }
        }
        f.pointee.linesize.0 = Int32(clamping: planeSize)
        f.pointee.extended_data = (UnsafeMutableRawPointer(f) + MemoryLayout<AVFrame>.offset(of: \AVFrame.data)!)
            .assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self)
    }
}

// MARK: - Sample FIFO

/// Converted samples waiting to be cut into codec frames: one byte queue per plane.
struct SampleFIFO {
    /// Planes (channels when non-interleaved, else one).
    let planeCount: Int
    /// Bytes of one sample frame in one plane.
    let stride: Int
    /// The queued bytes of each plane.
    private var planes: [[UInt8]]
    /// Samples already read from the front of `planes`.
    private var start = 0

    init(format: PCMFormat) {
        planeCount = format.isNonInterleaved ? format.channelCount : 1
        stride = format.bytesPerFrame
        planes = Array(repeating: [], count: planeCount)
    }

    /// Samples queued.
    var count: Int { planes[0].count / stride - start }

    /// Appends `count` samples laid out as `AudioConverter` makes them (planes back to back).
    mutating func append(_ block: CMBlockBuffer, count: Int) {
        let planeBytes = count * stride
        for plane in 0..<planeCount {
            let old = planes[plane].count
            planes[plane].append(contentsOf: repeatElement(0, count: planeBytes))
            planes[plane].withUnsafeMutableBytes { bytes in
                _ = CMBlockBufferCopyDataBytes(block, atOffset: plane * planeBytes, dataLength: planeBytes,
                                               destination: bytes.baseAddress! + old)
            }
        }
    }

    /// Moves the first `count` samples into an allocated frame's planes.
    mutating func read(_ count: Int, into f: UnsafeMutablePointer<AVFrame>) {
        let bytes = count * stride
        let from = start * stride
        let targets = withUnsafeBytes(of: f.pointee.data) { Array($0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)) }
        for plane in 0..<planeCount {
            guard let target = targets[plane] else { continue }
            planes[plane].withUnsafeBytes { source in
                target.update(from: source.baseAddress!.assumingMemoryBound(to: UInt8.self) + from, count: bytes)
            }
        }
        start += count
        // Drop what was read once it is most of the queue.
        if start * stride >= 1 << 16, start * stride * 2 >= planes[0].count {
            for plane in 0..<planeCount { planes[plane].removeFirst(start * stride) }
            start = 0
        }
    }
}
