import CFFmpeg

/// Plays interleaved float PCM faster or slower (libavfilter): `atempo` keeps the pitch (the
/// time-domain stretching Apple's `.timeDomain` and `.spectral` algorithms do), `asetrate` then
/// `aresample` lets the pitch follow the rate (`.varispeed`). The output has the input's rate
/// and channel count, about `frames / rate` frames for `frames` in.
///
/// Not thread safe: one filter serves one player's sound thread.
package final class AudioRateFilter {
    /// The rate: 2 plays twice as fast.
    package let rate: Double
    private let sampleRate: Int
    private let channelCount: Int
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>
    private let received = Frame()
    /// The input frame, refilled for each piece.
    private let input = Frame()
    private var nextPTS: Int64 = 0

    /// The filter description for `rate`: atempo takes 0.5 to 100 at once, so slower rates are
    /// a chain of halvings.
    static func description(rate: Double, keepsPitch: Bool, sampleRate: Int, channelLayout: String) -> String {
        var stages: [String] = []
        if keepsPitch {
            var rest = rate
            while rest < 0.5 {
                stages.append("atempo=0.5")
                rest /= 0.5
            }
            stages.append("atempo=\(rest)")
        } else {
            stages.append("asetrate=\(Int((Double(sampleRate) * rate).rounded()))")
            stages.append("aresample=\(sampleRate)")
        }
        stages.append("aformat=sample_fmts=flt:sample_rates=\(sampleRate):channel_layouts=\(channelLayout)")
        return stages.joined(separator: ",")
    }

    /// A filter playing `sampleRate` Hz, `channelCount`-channel float PCM at `rate`.
    package init(rate: Double, keepsPitch: Bool, sampleRate: Int, channelCount: Int) throws(EngineError) {
        precondition(rate > 0 && rate.isFinite, "AudioRateFilter needs a positive rate")
        self.rate = rate
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, Int32(channelCount))
        var name = [CChar](repeating: 0, count: 64)
        av_channel_layout_describe(&layout, &name, name.count)
        av_channel_layout_uninit(&layout)
        let layoutName = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var graph = avfilter_graph_alloc()
        do throws(EngineError) {
            guard let made = graph else { throw EngineError(operation: "making an audio filter graph", message: "out of memory") }
            let chain = Self.description(rate: rate, keepsPitch: keepsPitch, sampleRate: sampleRate, channelLayout: layoutName)
            (source, sink) = try Self.build(made, chain: chain,
                                            source: "sample_rate=\(sampleRate):sample_fmt=flt:channel_layout=\(layoutName):time_base=1/\(sampleRate)")
            self.graph = made
        } catch {
            avfilter_graph_free(&graph)
            throw error
        }
    }

    deinit { avfilter_graph_free(&graph) }

    /// Links abuffer → `chain` → abuffersink in `graph`.
    private static func build(_ graph: UnsafeMutablePointer<AVFilterGraph>, chain: String, source arguments: String) throws(EngineError)
        -> (UnsafeMutablePointer<AVFilterContext>, UnsafeMutablePointer<AVFilterContext>) {
        var source: UnsafeMutablePointer<AVFilterContext>?
        var sink: UnsafeMutablePointer<AVFilterContext>?
        _ = try ffmpegCheck(avfilter_graph_create_filter(&source, avfilter_get_by_name("abuffer"), "in", arguments, nil, graph), "making abuffer")
        _ = try ffmpegCheck(avfilter_graph_create_filter(&sink, avfilter_get_by_name("abuffersink"), "out", nil, nil, graph), "making abuffersink")
        // The chain's open ends, named as the parser expects; it takes them and leaves what it
        // did not link, which is freed here.
        var outputs = avfilter_inout_alloc()
        var inputs = avfilter_inout_alloc()
        defer {
            avfilter_inout_free(&inputs)
            avfilter_inout_free(&outputs)
        }
        guard let source, let sink, let openOutput = outputs, let openInput = inputs else {
            throw EngineError(operation: "making an audio filter graph", message: "out of memory")
        }
        openOutput.pointee.name = av_strdup("in")
        openOutput.pointee.filter_ctx = source
        openInput.pointee.name = av_strdup("out")
        openInput.pointee.filter_ctx = sink
        _ = try ffmpegCheck(avfilter_graph_parse_ptr(graph, chain, &inputs, &outputs, nil), "parsing \(chain)")
        _ = try ffmpegCheck(avfilter_graph_config(graph, nil), "configuring \(chain)")
        return (source, sink)
    }

    /// Feeds `frames` frames at `samples` (nil: the end of the sound), then hands each piece
    /// the filter gives to `output` (pointer, frame count).
    package func process(_ samples: UnsafePointer<Float>?, frames: Int, output: (UnsafePointer<Float>, Int) -> Void) throws(EngineError) {
        let bytes = frames * channelCount * 4
        try process(frames: samples == nil ? 0 : frames,
                    fill: samples.map { samples in { UnsafeMutableRawPointer($0).copyMemory(from: samples, byteCount: bytes) } },
                    output: output)
    }

    /// Feeds `frames` frames that `fill` writes straight into the filter's input (nil: the end of
    /// the sound), then hands each piece the filter gives to `output` (pointer, frame count).
    /// The input's memory is reused from call to call once the filter has let go of it.
    package func process(frames: Int, fill: ((UnsafeMutablePointer<Float>) -> Void)?,
                         output: (UnsafePointer<Float>, Int) -> Void) throws(EngineError) {
        if let fill, frames > 0 {
            let f = input.pointer
            if f.pointee.nb_samples != Int32(frames) || f.pointee.data.0 == nil {
                av_frame_unref(f)
                f.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
                f.pointee.sample_rate = Int32(sampleRate)
                f.pointee.nb_samples = Int32(frames)
                av_channel_layout_default(&f.pointee.ch_layout, Int32(channelCount))
                _ = try ffmpegCheck(av_frame_get_buffer(f, 0), "allocating audio to stretch")
            } else {
                // A new buffer only while the filter still holds the last one.
                _ = try ffmpegCheck(av_frame_make_writable(f), "allocating audio to stretch")
            }
            fill(UnsafeMutableRawPointer(f.pointee.data.0!).assumingMemoryBound(to: Float.self))
            f.pointee.pts = nextPTS
            nextPTS += Int64(frames)
            _ = try ffmpegCheck(av_buffersrc_add_frame_flags(source, f, Int32(AV_BUFFERSRC_FLAG_KEEP_REF)), "stretching audio")
        } else {
            _ = try ffmpegCheck(av_buffersrc_add_frame(source, nil), "ending stretched audio")
        }
        while true {
            let status = av_buffersink_get_frame(sink, received.pointer)
            if status == cffmpeg_averror(EAGAIN) || status == cffmpeg_averror_eof() { return }
            _ = try ffmpegCheck(status, "stretching audio")
            let r = received.pointer
            output(UnsafeRawPointer(r.pointee.data.0!).assumingMemoryBound(to: Float.self), Int(r.pointee.nb_samples))
            av_frame_unref(r)
        }
    }
}
