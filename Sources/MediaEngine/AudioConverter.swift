import CFFmpeg
import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// The one place audio samples change format, channel count or rate (libswresample): decoded
/// frames into the linear PCM an asset reader's output settings ask for, as `CMSampleBuffer`s,
/// and buffers of PCM into buffers of PCM for `AVAudioConverter` (`convert(_:count:format:into:capacity:)`).
///
/// The resampler is made on the first frame and reused; it is rebuilt only when the input's
/// sample format, rate or channel layout changes (the old one is drained into that call's
/// output first, so no sample is lost). Output time is continuous and exact: output sample `k`
/// (counted from the first frame after init or `reset()`) is at `t0 + k / outputRate`, where
/// `t0` is the first frame's timestamp rounded to the output rate. Gaps in the input timestamps
/// are not reproduced. The total count, after `flush()`, is what libswresample produces: the
/// input count scaled by the rate ratio (as `ffmpeg -ar` gives). With a time range to keep,
/// samples outside it are cut off, to the exact sample at both ends (as Apple's reader trims
/// decoded audio to its `timeRange`).
///
/// Not thread safe: one converter serves one track output on one queue.
package final class AudioConverter {
    /// The format of every sample buffer produced.
    package let output: PCMFormat

    /// libswresample's context, made on the first frame.
    private var context: OpaquePointer?
    /// The input sample format (`AVSampleFormat` raw value) `context` was made for.
    private var inputFormat: Int32 = -1
    /// The input sample rate `context` was made for.
    private var inputRate: Int32 = 0
    /// The input channel layout `context` was made for (owned; uninitialised in deinit).
    private var inputLayout = AVChannelLayout()
    /// The output-rate position of the next output sample, nil until the first frame.
    private var nextSample: Int64?
    /// Plane pointers handed to libswresample (one per channel), allocated once.
    private let planePointers: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>
    /// Staging for formats finished outside the output block (24-bit), grown as needed.
    private var scratch: UnsafeMutableRawPointer?
    /// The size of `scratch` in bytes.
    private var scratchSize = 0
    /// The output format description, shared by every buffer.
    private var cachedFormatDescription: CMFormatDescription?

    /// The output-rate positions of the samples kept (all when nil).
    private let kept: Range<Int64>?

    /// How the resampler mixes and filters, beyond the formats (see `Mixing`).
    package var mixing = Mixing() {
        didSet { if mixing != oldValue { swr_free(&context) } }
    }

    /// How channels are mixed and how long the resampling filter is. The defaults are
    /// libswresample's (and `ffmpeg`'s): a channel count change mixes by the standard matrix,
    /// and the filter is 32 taps long.
    package struct Mixing: Equatable, Sendable {
        /// The input channel each output channel takes (-1: silence); nil mixes or takes the
        /// first channels as `downmix` says.
        package var channelMap: [Int]?
        /// Whether fewer output channels than input ones are a mix of them (else the first ones).
        package var downmix = true
        /// libswresample's filter length (`filter_size`): longer is cleaner and slower.
        package var filterSize: Int32 = 32
        /// Whether a mix is scaled so that no output sample can exceed the inputs' peak (stereo
        /// to mono: half of each); libswresample leaves float output unscaled (0.707 of each).
        package var normalizesMix = false
        /// Whether integer output is dithered (triangular).
        package var dithers = false

        /// The defaults.
        package init() {}
    }

    /// A converter producing `output`, keeping only the samples inside `range` (all of them for
    /// an invalid range; an open end keeps everything after the start). An output format
    /// `PCMFormat.validate()` rejects makes every `convert` throw.
    package init(output: PCMFormat, keeping range: CMTimeRange = .invalid) {
        self.output = output
        let rate = Double(output.integerSampleRate)
        if range.isValid, range.start.isNumeric {
            let lower = Int64((range.start.seconds * rate).rounded())
            let upper = range.end.isNumeric ? Int64((range.end.seconds * rate).rounded()) : Int64.max
            kept = lower..<max(lower, upper)
        } else {
            kept = nil
        }
        planePointers = .allocate(capacity: max(1, output.channelCount))
        planePointers.initialize(repeating: nil, count: max(1, output.channelCount))
    }

    deinit {
        swr_free(&context)
        av_channel_layout_uninit(&inputLayout)
        planePointers.deallocate()
        scratch?.deallocate()
    }

    /// The format description of the produced sample buffers: linear PCM with the output's
    /// stream description and, for 1, 2, 6 or 8 channels, a channel layout in FFmpeg's order.
    package var formatDescription: CMFormatDescription {
        if let cachedFormatDescription { return cachedFormatDescription }
        let description = CMFormatDescription(mediaType: kCMMediaType_Audio, mediaSubType: kAudioFormatLinearPCM,
                                              audioStreamBasicDescription: output.audioStreamBasicDescription,
                                              channelLayoutTag: output.channelLayoutTag)
        cachedFormatDescription = description
        return description
    }

    /// Converts one decoded audio frame, whose timestamps count `timeBase` units. Returns nil
    /// when the resampler keeps all of this frame's samples for now (its filter delay). Throws
    /// when the output format is one `PCMFormat.validate()` rejects or libswresample fails.
    package func convert(_ frame: Frame, timeBase: AVRational) throws(EngineError) -> CMSampleBuffer? {
        let f = frame.pointer
        guard f.pointee.nb_samples > 0 else { return nil }
        var previous: OpaquePointer?
        if context == nil || needsRebuild(for: f) {
            previous = context
            context = nil
            do {
                try build(for: f)
            } catch {
                swr_free(&previous)
                throw error
            }
        }
        defer { swr_free(&previous) }
        if nextSample == nil {
            let pts = f.pointee.pts != cffmpeg_nopts_value() ? f.pointee.pts : f.pointee.best_effort_timestamp
            nextSample = pts == cffmpeg_nopts_value() || timeBase.num <= 0 || timeBase.den <= 0
                ? 0
                : av_rescale_q(pts, timeBase, AVRational(num: 1, den: output.integerSampleRate))
        }
        let drainBound = previous.map { Int(swr_get_out_samples($0, 0)) } ?? 0
        let convertBound = Int(swr_get_out_samples(context, f.pointee.nb_samples))
        return try produce(capacity: max(0, drainBound) + max(0, convertBound)) { (planes, room) throws(EngineError) in
            var produced = 0
            if let previous, drainBound > 0 {
                produced = Int(try ffmpegCheck(swr_convert(previous, planes(0), Int32(room), nil, 0),
                                               "draining the previous audio resampler"))
            }
            let input = UnsafeMutableRawPointer(f.pointee.extended_data)?
                .assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
            produced += Int(try ffmpegCheck(
                swr_convert(context, planes(produced), Int32(room - produced), input, f.pointee.nb_samples),
                "resampling audio"))
            return produced
        }
    }

    /// The samples still inside the resampler at the end of the input (its filter delay), or
    /// nil when there are none.
    package func flush() throws(EngineError) -> CMSampleBuffer? {
        guard let context, nextSample != nil else { return nil }
        let bound = Int(swr_get_out_samples(context, 0))
        guard bound > 0 else { return nil }
        return try produce(capacity: bound) { (planes, room) throws(EngineError) in
            Int(try ffmpegCheck(swr_convert(context, planes(0), Int32(room), nil, 0), "draining the audio resampler"))
        }
    }

    /// Converts `count` frames of `format` at `input` (a pointer a channel for a planar format,
    /// one for an interleaved one) into `planes` (the same, in the output format) with room for
    /// `capacity` frames, and returns how many frames were written. Give no more input than the
    /// room takes (`inputFrames(forRoom:)`): libswresample would keep the rest. A nil input
    /// drains what the resampler holds (its filter delay), at the end.
    package func convert(_ input: UnsafePointer<UnsafePointer<UInt8>?>?, count: Int, format: PCMFormat,
                         into planes: UnsafePointer<UnsafeMutablePointer<UInt8>?>, capacity: Int) throws(EngineError) -> Int {
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, Int32(format.channelCount))
        defer { av_channel_layout_uninit(&layout) }
        let sampleFormat = try format.avSampleFormat
        if context == nil || sampleFormat.rawValue != inputFormat || format.integerSampleRate != inputRate
            || av_channel_layout_compare(&layout, &inputLayout) != 0 {
            swr_free(&context)
            try build(format: sampleFormat.rawValue, rate: format.integerSampleRate, layout: layout)
        }
        guard capacity > 0 else { return 0 }
        let mutablePlanes = UnsafeMutablePointer(mutating: planes)
        return Int(try ffmpegCheck(swr_convert(context, mutablePlanes, Int32(capacity), input.map(UnsafeMutablePointer.init(mutating:)),
                                               Int32(input == nil ? 0 : count)),
                                   input == nil ? "draining the audio resampler" : "resampling audio"))
    }

    /// How many input frames at most fill `room` output frames after what the resampler holds.
    package func inputFrames(forRoom room: Int, inputRate: Double) -> Int {
        let held = context.map { Int(swr_get_delay($0, Int64(output.integerSampleRate))) } ?? 0
        let frames = Double(max(0, room - held)) * inputRate / output.sampleRate
        return max(0, Int(frames.rounded(.down)) - 1)
    }

    /// How many output frames the resampler holds back at the start (its filter delay): what
    /// comes out first is this late.
    package var delayFrames: Int {
        context.map { Int(swr_get_delay($0, Int64(output.integerSampleRate))) } ?? 0
    }

    /// Forgets buffered samples and the timeline, for a seek: the next frame starts a new one.
    package func reset() {
        swr_free(&context)
        nextSample = nil
    }

    // MARK: Resampler

    /// Whether the frame's layout differs from the one the resampler was made for.
    private func needsRebuild(for f: UnsafeMutablePointer<AVFrame>) -> Bool {
        if f.pointee.format != inputFormat || f.pointee.sample_rate != inputRate { return true }
        var layout = Self.layout(of: f)
        defer { av_channel_layout_uninit(&layout) }
        return av_channel_layout_compare(&layout, &inputLayout) != 0
    }

    /// The frame's channel layout, FFmpeg's default order for its channel count when unset.
    private static func layout(of f: UnsafeMutablePointer<AVFrame>) -> AVChannelLayout {
        var layout = AVChannelLayout()
        if f.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || f.pointee.ch_layout.nb_channels <= 0 {
            av_channel_layout_default(&layout, max(1, f.pointee.ch_layout.nb_channels))
        } else {
            _ = av_channel_layout_copy(&layout, &f.pointee.ch_layout)
        }
        return layout
    }

    /// Makes the resampler for the frame's layout.
    private func build(for f: UnsafeMutablePointer<AVFrame>) throws(EngineError) {
        var layout = Self.layout(of: f)
        defer { av_channel_layout_uninit(&layout) }
        try build(format: f.pointee.format, rate: f.pointee.sample_rate, layout: layout)
    }

    /// Makes the resampler for input of `format` (an `AVSampleFormat` raw value), `rate` and
    /// `layout` (copied).
    private func build(format: Int32, rate: Int32, layout: AVChannelLayout) throws(EngineError) {
        let outputFormat = try output.avSampleFormat
        av_channel_layout_uninit(&inputLayout)
        var source = layout
        _ = av_channel_layout_copy(&inputLayout, &source)
        inputFormat = format
        inputRate = rate
        var outputLayout = AVChannelLayout()
        av_channel_layout_default(&outputLayout, Int32(output.channelCount))
        defer { av_channel_layout_uninit(&outputLayout) }
        let operation = "setting up the audio resampler"
        try ffmpegCheck(swr_alloc_set_opts2(&context, &outputLayout, outputFormat, output.integerSampleRate,
                                            &inputLayout, AVSampleFormat(rawValue: inputFormat), inputRate, 0, nil),
                        operation)
        av_opt_set_int(UnsafeMutableRawPointer(context), "filter_size", Int64(mixing.filterSize), 0)
        if mixing.normalizesMix { av_opt_set_double(UnsafeMutableRawPointer(context), "rematrix_maxval", 1.0, 0) }
        if mixing.dithers { av_opt_set(UnsafeMutableRawPointer(context), "dither_method", "triangular", 0) }
        let inputChannels = Int(inputLayout.nb_channels)
        let map = mixing.channelMap ?? (mixing.downmix || output.channelCount > inputChannels ? nil : Array(0..<output.channelCount))
        if let map {
            // A map is a mixing matrix of ones: output channel `o` is input channel `map[o]`.
            var matrix = [Double](repeating: 0, count: output.channelCount * inputChannels)
            for (index, channel) in map.prefix(output.channelCount).enumerated() where channel >= 0 && channel < inputChannels {
                matrix[index * inputChannels + channel] = 1
            }
            try ffmpegCheck(swr_set_matrix(context, matrix, Int32(inputChannels)), operation)
        }
        let status = swr_init(context)
        if status < 0 {
            swr_free(&context)
            throw EngineError(ffmpegCode: status, operation: operation)
        }
    }

    // MARK: Output

    /// Runs `fill` on planes with room for `capacity` samples, finishes the samples in the
    /// output layout and wraps them in a sample buffer; nil when nothing came out. `fill` gets
    /// a function giving the plane pointers at a sample offset, and the room, and returns the
    /// number of samples written.
    private func produce(capacity: Int,
                         fill: ((Int) -> UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, Int) throws(EngineError) -> Int)
        throws(EngineError) -> CMSampleBuffer? {
        guard capacity > 0, let start = nextSample else { return nil }
        let format = output
        let repacking = format.repacking
        let planeCount = format.isNonInterleaved ? format.channelCount : 1
        // Bytes per sample frame in one plane, as libswresample writes them and as delivered.
        let stagedSample = repacking.contains(.pack24) ? 4 : format.bytesPerSample
        let stagedStride = format.isNonInterleaved ? stagedSample : stagedSample * format.channelCount
        let finalStride = format.bytesPerFrame
        let stagedPlaneSize = capacity * stagedStride

        // Samples go straight into the block buffer's memory unless they need packing.
        let blockCapacity = capacity * finalStride * planeCount
        let block = UnsafeMutableRawPointer.allocate(byteCount: blockCapacity, alignment: 16)
        var ownsBlock = true
        defer { if ownsBlock { block.deallocate() } }
        let staging: UnsafeMutableRawPointer
        if repacking.contains(.pack24) {
            staging = scratchSpace(stagedPlaneSize * planeCount)
        } else {
            staging = block
        }
        let planes = planePointers
        let count = try fill({ offset in
            for plane in 0..<planeCount {
                planes[plane] = (staging + plane * stagedPlaneSize + offset * stagedStride)
                    .assumingMemoryBound(to: UInt8.self)
            }
            return planes
        }, capacity)
        guard count > 0 else { return nil }
        nextSample = start + Int64(count)
        // The samples kept: `skip` of them dropped before, `kept` after those.
        let produced = start..<(start + Int64(count))
        let window = self.kept.map { produced.clamped(to: $0) } ?? produced
        guard !window.isEmpty else { return nil }
        let skip = Int(window.lowerBound - start), keptCount = window.count

        // Lay the planes out back to back for the kept samples, in the final sample layout.
        let finalPlaneSize = keptCount * finalStride
        for plane in 0..<planeCount {
            let source = staging + plane * stagedPlaneSize + skip * stagedStride
            let destination = block + plane * finalPlaneSize
            if repacking.contains(.pack24) {
                Self.pack24(source, into: destination, samples: keptCount * stagedStride / 4,
                            bigEndian: format.isBigEndian)
            } else if source != destination {
                memmove(destination, source, finalPlaneSize)
            }
        }
        let length = finalPlaneSize * planeCount
        if repacking.contains(.signed8) {
            let bytes = block.assumingMemoryBound(to: UInt8.self)
            for index in 0..<length { bytes[index] ^= 0x80 }
        }
        if repacking.contains(.byteSwap) && !repacking.contains(.pack24) {
            Self.swapBytes(block, length: length, sampleSize: format.bytesPerSample)
        }

        ownsBlock = false
        let blockBuffer = CMBlockBuffer(wrapping: block, length: length, release: { block.deallocate() })
        let rate = format.integerSampleRate
        var timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: rate),
                                        presentationTimeStamp: CMTime(value: window.lowerBound, timescale: rate),
                                        decodeTimeStamp: .invalid)
        var size = finalStride * planeCount
        var sampleBuffer: CMSampleBuffer?
        let status = CMSampleBufferCreateReady(
            allocator: nil, dataBuffer: blockBuffer, formatDescription: formatDescription, sampleCount: keptCount,
            sampleTimingEntryCount: 1, sampleTimingArray: &timing, sampleSizeEntryCount: 1,
            sampleSizeArray: &size, sampleBufferOut: &sampleBuffer)
        guard status == noErr, let sampleBuffer else {
            throw EngineError(operation: "making an audio sample buffer", message: "CoreMedia status \(status)")
        }
        return sampleBuffer
    }

    /// The scratch memory, grown to at least `size` bytes.
    private func scratchSpace(_ size: Int) -> UnsafeMutableRawPointer {
        if let scratch, scratchSize >= size { return scratch }
        scratch?.deallocate()
        let grown = max(size, scratchSize * 2)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 16)
        scratch = memory
        scratchSize = grown
        return memory
    }

    /// Packs native 32-bit samples to their top 24 bits, 3 bytes each, in the given order.
    private static func pack24(_ source: UnsafeMutableRawPointer, into destination: UnsafeMutableRawPointer,
                               samples: Int, bigEndian: Bool) {
        let input = source.assumingMemoryBound(to: Int32.self)
        let out = destination.assumingMemoryBound(to: UInt8.self)
        for index in 0..<samples {
            let value = UInt32(bitPattern: input[index])
            let high = UInt8(truncatingIfNeeded: value >> 24)
            let middle = UInt8(truncatingIfNeeded: value >> 16)
            let low = UInt8(truncatingIfNeeded: value >> 8)
            if bigEndian {
                out[3 * index] = high; out[3 * index + 1] = middle; out[3 * index + 2] = low
            } else {
                out[3 * index] = low; out[3 * index + 1] = middle; out[3 * index + 2] = high
            }
        }
    }

    /// Reverses the bytes of every `sampleSize`-byte sample in place.
    private static func swapBytes(_ memory: UnsafeMutableRawPointer, length: Int, sampleSize: Int) {
        switch sampleSize {
        case 2:
            let samples = memory.assumingMemoryBound(to: UInt16.self)
            for index in 0..<(length / 2) { samples[index] = samples[index].byteSwapped }
        case 4:
            let samples = memory.assumingMemoryBound(to: UInt32.self)
            for index in 0..<(length / 4) { samples[index] = samples[index].byteSwapped }
        case 8:
            let samples = memory.assumingMemoryBound(to: UInt64.self)
            for index in 0..<(length / 8) { samples[index] = samples[index].byteSwapped }
        default:
            break
        }
    }
}
