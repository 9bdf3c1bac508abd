import CFFmpeg

/// A chain of libavfilter's audio filters over interleaved 32-bit float PCM of one rate and
/// channel count: the one place sound is filtered. `init(rate:keepsPitch:sampleRate:channelCount:)`
/// plays faster or slower (`atempo` keeps the pitch, the time-domain stretching Apple's
/// `.timeDomain` and `.spectral` algorithms do; `asetrate` then `aresample` lets the pitch follow
/// the rate, `.varispeed`); `init(chain:sampleRate:channelCount:)` runs any chain (the audio
/// engine's effects: `equalizer`, `rubberband`, …). The output has the input's rate and
/// channel count.
///
/// Not thread safe: one filter serves one thread (a player's sound thread, a render thread).
package final class AudioFilterGraph {
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
    static func description(rate: Double, keepsPitch: Bool, sampleRate: Int) -> String {
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
        return stages.joined(separator: ",")
    }

    /// A filter playing `sampleRate` Hz, `channelCount`-channel float PCM at `rate`.
    package convenience init(rate: Double, keepsPitch: Bool, sampleRate: Int, channelCount: Int) throws(EngineError) {
        precondition(rate > 0 && rate.isFinite, "AudioFilterGraph needs a positive rate")
        try self.init(chain: Self.description(rate: rate, keepsPitch: keepsPitch, sampleRate: sampleRate),
                      sampleRate: sampleRate, channelCount: channelCount)
    }

    /// A graph running `chain` (libavfilter's syntax) over `sampleRate` Hz, `channelCount`-channel float PCM, ending in that
    /// format.
    package init(chain: String, sampleRate: Int, channelCount: Int) throws(EngineError) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        let layoutName = Self.layoutName(channelCount)
        var graph = avfilter_graph_alloc()
        do throws(EngineError) {
            guard let made = graph else { throw EngineError(operation: "making an audio filter graph", message: "out of memory") }
            // Filters run on the caller's thread alone: slice threads would wake for every few
            // milliseconds of sound, and a real-time render thread would wait for them.
            made.pointee.nb_threads = 1
            let format = "aformat=sample_fmts=flt:sample_rates=\(sampleRate):channel_layouts=\(layoutName)"
            (source, sink) = try Self.build(made, chain: chain + "," + format,
                                            source: "sample_rate=\(sampleRate):sample_fmt=flt:channel_layout=\(layoutName):time_base=1/\(sampleRate)")
            self.graph = made
        } catch {
            avfilter_graph_free(&graph)
            throw error
        }
    }

    /// FFmpeg's name of the default layout of `channelCount` channels ("stereo", "5.1", …).
    private static func layoutName(_ channelCount: Int) -> String {
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, Int32(channelCount))
        var name = [CChar](repeating: 0, count: 64)
        av_channel_layout_describe(&layout, &name, name.count)
        av_channel_layout_uninit(&layout)
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
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
        guard let samples else { return try finish(output: output) }
        let bytes = frames * channelCount * 4
        try process(frames: frames, fill: { UnsafeMutableRawPointer($0).copyMemory(from: samples, byteCount: bytes) }, output: output)
    }

    /// Feeds `frames` frames that `fill` writes straight into the filter's input, then hands each
    /// piece the filter gives to `output` (pointer, frame count). The input's memory is reused
    /// from call to call once the filter has let go of it, and neither closure escapes, so a
    /// call allocates nothing of its own (the audio engine's render thread calls it).
    package func process(frames: Int, fill: (UnsafeMutablePointer<Float>) -> Void,
                         output: (UnsafePointer<Float>, Int) -> Void) throws(EngineError) {
        guard frames > 0 else { return try drain(output: output) }
        let f = input.pointer
        if f.pointee.nb_samples != Int32(frames) || f.pointee.data.0 == nil {
            av_frame_unref(f)
            f.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
            f.pointee.sample_rate = Int32(sampleRate)
            f.pointee.nb_samples = Int32(frames)
            av_channel_layout_default(&f.pointee.ch_layout, Int32(channelCount))
            _ = try ffmpegCheck(av_frame_get_buffer(f, 0), "allocating audio to filter")
        } else {
            // A new buffer only while the filter still holds the last one.
            _ = try ffmpegCheck(av_frame_make_writable(f), "allocating audio to filter")
        }
        fill(UnsafeMutableRawPointer(f.pointee.data.0!).assumingMemoryBound(to: Float.self))
        f.pointee.pts = nextPTS
        nextPTS += Int64(frames)
        _ = try ffmpegCheck(av_buffersrc_add_frame_flags(source, f, Int32(AV_BUFFERSRC_FLAG_KEEP_REF)), "filtering audio")
        try drain(output: output)
    }

    /// Ends the sound, then hands what the filter still held to `output`.
    package func finish(output: (UnsafePointer<Float>, Int) -> Void) throws(EngineError) {
        _ = try ffmpegCheck(av_buffersrc_add_frame(source, nil), "ending filtered audio")
        try drain(output: output)
    }

    /// Hands each piece the filter has ready to `output`.
    private func drain(output: (UnsafePointer<Float>, Int) -> Void) throws(EngineError) {
        while true {
            let status = av_buffersink_get_frame(sink, received.pointer)
            if status == cffmpeg_averror(EAGAIN) || status == cffmpeg_averror_eof() { return }
            _ = try ffmpegCheck(status, "filtering audio")
            let r = received.pointer
            output(UnsafeRawPointer(r.pointee.data.0!).assumingMemoryBound(to: Float.self), Int(r.pointee.nb_samples))
            av_frame_unref(r)
        }
    }
}
