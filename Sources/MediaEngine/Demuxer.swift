import CFFmpeg
import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// An open media file, local or fetched over HTTP(S) (a progressive file or an HTTP Live
/// Streaming playlist): FFmpeg's demuxer (`AVFormatContext`) and what it found in the file.
/// Owns the context and closes it exactly once.
package final class Demuxer {
    /// The FFmpeg context, valid until deinit.
    private var context: UnsafeMutablePointer<AVFormatContext>?
    /// Non-zero once `interrupt()` was called: FFmpeg's blocking I/O then gives up.
    private let interruptFlag: UnsafeMutablePointer<Int32>
    /// The connection of a network URL, opened and closed by the demuxer itself.
    private var io: UnsafeMutablePointer<AVIOContext>?
    /// The I/O of a URL with a custom scheme, read from its `ByteSource`.
    private var customIO: ByteSourceIO?
    /// The unpacking filters of an AVI's MPEG-4 Part 2 streams (packed B-frames), by stream.
    private var unpackers: [Int: PackedFrameUnpacker] = [:]
    /// Text subtitle streams turned into 3GPP timed text as they are read.
    private var textConverters: [Int: TextSubtitleConverter] = [:]
    /// For each stream, how many frames its decoder holds back (FFmpeg's `video_delay`: 0 but
    /// for video with B-frames), and the last decode time handed out: Matroska and other
    /// containers that store presentation times only leave a stream's first packets without a
    /// decode time, which `fillDecodeTime` derives.
    private var frameDelays: [Int64] = []
    private var lastDecodeTimes: [Int64] = []
    /// Whether the end of the file was handed to the unpackers.
    private var unpackersDrained = false

    /// The file that was opened.
    package let url: URL
    /// The container's short names as FFmpeg reports them, such as "mov,mp4,m4a,3gp,3g2,mj2".
    package let formatName: String
    /// The container's duration, or invalid when the container does not state one.
    package let duration: CMTime
    /// When the container's duration starts: its earliest stream's start, or invalid when
    /// unknown. Zero for an HTTP Live Stream (see `timestampOffset`).
    package let startTime: CMTime
    /// What is taken off every timestamp read, in `AV_TIME_BASE` units: an HTTP Live Stream's
    /// first time (segments are stamped with a running clock that starts anywhere, an MPEG-TS
    /// one at 1.4 s or more), so that the stream's timeline starts at zero as Apple's players
    /// show it; zero for everything else.
    private let timestampOffset: Int64
    /// The streams (tracks) of the file, in file order.
    package let streams: [StreamDescription]
    /// The programs of the file: for an HTTP Live Stream, its variants, each with the bit rate
    /// its playlist states (0 when it states none) and the indices of its streams.
    package let programs: [(bitRate: Int, streams: [Int])]
    /// The container's metadata tags as FFmpeg reports them (key, value), in file order.
    package let metadata: [(key: String, value: String)]
    /// The file's chapters, in order.
    package let chapters: [DemuxedChapter]
    /// Whether the streams' durations are what the container's index of samples states
    /// (QuickTime/MP4 sample tables, AVI's frame counts), rather than FFmpeg's estimate from the
    /// timestamps at the file's end or from the bit rate, or a length a header states without
    /// an index (Ogg's last granule, WAV's data size, Matroska's duration): only an index says
    /// how much a file should hold, and a file that ends before it was cut short. A stated
    /// length that disagrees with what decodes (an Opus file whose last page claims more) is
    /// not missing data: ffmpeg and tagging libraries take what decodes.
    package let statesDurations: Bool

    /// Opens `url` (a file URL, an `http`/`https` URL read with `network`, or a URL of a custom
    /// scheme `network` has a byte source for) and reads enough of it to describe every stream;
    /// throws `EngineError` when the file is missing, unreadable or not media, or the server
    /// or the byte source fails or stalls.
    package init(url: URL, network: NetworkOptions = .standard) throws(EngineError) {
        _ = FFmpegLog.install
        let isNetwork = NetworkOptions.isNetworkURL(url)
        let custom = try network.customSource(for: url).map { source throws(EngineError) in
            try ByteSourceIO(source: source, operation: "opening \(url.openedName)")
        }
        guard url.isFileURL || isNetwork || custom != nil else {
            throw EngineError(operation: "opening \(url)", message: "only file, http and https URLs can be opened")
        }
        self.url = url
        customIO = custom
        interruptFlag = .allocate(capacity: 1)
        interruptFlag.initialize(to: 0)
        guard let allocated = avformat_alloc_context() else {
            interruptFlag.deallocate()
            throw EngineError(operation: "opening \(url)", message: "out of memory")
        }
        var interrupt = cffmpeg_interrupt_callback(interruptFlag)
        allocated.pointee.interrupt_callback = interrupt
        // Packets the container leaves without a presentation time (AVI, whose index has only
        // decode order; MPEG program streams, which stamp one frame per PES packet) get the one
        // FFmpeg derives (`-fflags +genpts`): a reference frame's is the decode time of the
        // next reference frame, the last one's its decode time plus its duration.
        allocated.pointee.flags |= AVFMT_FLAG_GENPTS
        var context: UnsafeMutablePointer<AVFormatContext>? = allocated
        if isNetwork {
            // The connection is opened here, not by avformat_open_input, so that its I/O error
            // (a timeout, a dropped connection) is still there to read when the demuxer only
            // says the data ended or made no sense.
            var options = network.dictionary()
            var io: UnsafeMutablePointer<AVIOContext>?
            let status = avio_open2(&io, url.absoluteString, AVIO_FLAG_READ, &interrupt, &options)
            av_dict_free(&options)
            guard status >= 0, let io else {
                avformat_free_context(allocated)
                interruptFlag.deallocate()
                var error = EngineError(ffmpegCode: status < 0 ? status : -ENOMEM, operation: "opening \(url.openedName)", opensFile: true)
                error.isNetwork = true
                throw error
            }
            allocated.pointee.pb = io
            allocated.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
            self.io = io
        } else {
            io = nil
            if let custom {
                allocated.pointee.pb = custom.context
                allocated.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
            }
        }
        var options = isNetwork ? network.dictionary() : nil
        let status = avformat_open_input(&context, url.isFileURL ? url.path : url.absoluteString, nil, &options)
        av_dict_free(&options)
        guard status >= 0, let opened = context else {
            // avformat_open_input frees the context it was given when it fails.
            let ioError = io?.pointee.error ?? 0
            avio_closep(&self.io)
            interruptFlag.deallocate()
            if let failure = custom?.failure { throw failure }
            var error = EngineError(ffmpegCode: ioError < 0 ? ioError : (status < 0 ? status : -ENOMEM), operation: "opening \(url.openedName)",
                                    opensFile: true)
            error.isNetwork = isNetwork
            throw error
        }
        self.context = opened
        do {
            try Self.check(avformat_find_stream_info(opened, nil), io: io, "reading stream information of \(url.openedName)")
        } catch {
            avformat_close_input(&self.context)
            avio_closep(&self.io)
            interruptFlag.deallocate()
            throw custom?.failure ?? error
        }
        formatName = opened.pointee.iformat.map { String(cString: $0.pointee.name) } ?? "unknown"
        let containerDuration = opened.pointee.duration
        duration = containerDuration > 0
            ? CMTime(value: containerDuration, timescale: cffmpeg_time_base())
            : .invalid
        let isHTTPLiveStream = formatName == "hls"
        let start = opened.pointee.start_time
        timestampOffset = isHTTPLiveStream && start != cffmpeg_nopts_value() ? start : 0
        startTime = start != cffmpeg_nopts_value()
            ? CMTime(value: start - timestampOffset, timescale: cffmpeg_time_base()) : .invalid
        metadata = StreamDescription.tags(opened.pointee.metadata)
        chapters = DemuxedChapter.chapters(of: opened, offset: timestampOffset)
        programs = (0..<Int(opened.pointee.nb_programs)).compactMap { index in
            guard let program = opened.pointee.programs[index] else { return nil }
            let bitRate = StreamDescription.tags(program.pointee.metadata).first { $0.key == "variant_bitrate" }.flatMap { Int($0.value) } ?? 0
            return (bitRate, (0..<Int(program.pointee.nb_stream_indexes)).map { Int(program.pointee.stream_index[$0]) })
        }
        let names = formatName.split(separator: ",")
        statesDurations = opened.pointee.duration_estimation_method == AVFMT_DURATION_FROM_STREAM
            && (names.contains("mov") || names.contains("mp4") || formatName == "avi")
        let offset = CMTime(value: timestampOffset, timescale: cffmpeg_time_base())
        if formatName == "avi" {
            for index in 0..<Int(opened.pointee.nb_streams) {
                guard let stream = opened.pointee.streams[index], stream.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_MPEG4 else { continue }
                unpackers[index] = PackedFrameUnpacker(stream: stream)
            }
        }
        streams = (0..<Int(opened.pointee.nb_streams)).compactMap { index in
            opened.pointee.streams[index].map(StreamDescription.init(stream:)).map { stream in
                var shifted = stream
                if shifted.startTime.isNumeric { shifted.startTime = shifted.startTime - offset }
                return shifted
            }
        }
        frameDelays = (0..<Int(opened.pointee.nb_streams)).map { index in
            opened.pointee.streams[index].map { Int64($0.pointee.codecpar.pointee.video_delay) } ?? 0
        }
        lastDecodeTimes = frameDelays.map { _ in cffmpeg_nopts_value() }
        for index in 0..<Int(opened.pointee.nb_streams) {
            if let stream = opened.pointee.streams[index], let converter = TextSubtitleConverter(stream: stream) {
                textConverters[index] = converter
            }
        }
    }

    deinit {
        customIO?.source.cancel()
        avformat_close_input(&context)
        avio_closep(&io)
        interruptFlag.deallocate()
    }

    /// Makes a read, seek or playlist reload blocked on the network or a byte source (now or
    /// later) give up with `AVERROR_EXIT`; the demuxer reads nothing more. Safe from any thread.
    package func interrupt() {
        cffmpeg_set_interrupt(interruptFlag)
        customIO?.source.cancel()
    }

    /// Whether the container may leave packets without a presentation time, so that FFmpeg
    /// derives theirs while reading (`AVFMT_FLAG_GENPTS`) and the streams' start and end times
    /// it states (from the first and last stamped packets) are off by the frames left
    /// unstamped: an MPEG program or elementary stream (one stamp per PES packet, which may
    /// hold several frames), or an AVI with B-frames (its index has only decode order).
    package var leavesPacketsUnstamped: Bool {
        switch formatName {
        case "mpeg", "mpegvideo": return true
        case "avi": return streams.contains(where: \.requiresFrameReordering)
        default: return false
        }
    }

    /// Whether the file is an HTTP Live Streaming playlist.
    package var isHTTPLiveStream: Bool { formatName == "hls" }

    /// Reads only the packets of `indices` from now on: FFmpeg skips the other streams, and the
    /// HTTP Live Streaming demuxer stops fetching the segments of variants none of whose
    /// streams are read.
    package func readOnly(streams indices: Set<Int>) {
        for index in streams.indices {
            stream(index).pointee.discard = indices.contains(index) ? AVDISCARD_DEFAULT : AVDISCARD_ALL
        }
    }

    /// The open context; valid for the demuxer's lifetime.
    private var openContext: UnsafeMutablePointer<AVFormatContext> {
        guard let context else { preconditionFailure("Demuxer used after its context was closed") }
        return context
    }

    /// The FFmpeg stream at `index`.
    private func stream(_ index: Int) -> UnsafeMutablePointer<AVStream> {
        precondition(index >= 0 && index < streams.count, "stream index \(index) out of range")
        guard let stream = openContext.pointee.streams[index] else { preconditionFailure("FFmpeg stream \(index) missing") }
        return stream
    }

    /// Opens a decoder for stream `index`.
    package func makeDecoder(forStream index: Int) throws(EngineError) -> Decoder {
        let stream = stream(index)
        return try Decoder(parameters: stream.pointee.codecpar, timeBase: stream.pointee.time_base)
    }

    /// The codec parameters of stream `index` (codec, size, sample format, extradata), valid for
    /// the demuxer's lifetime: for a text subtitle stream turned into 3GPP timed text, those of
    /// what it hands out (`TextSubtitleConverter`).
    package func codecParameters(ofStream index: Int) -> UnsafePointer<AVCodecParameters> {
        textConverters[index].map { UnsafePointer($0.parameters) } ?? UnsafePointer(stream(index).pointee.codecpar)
    }

    /// The time base of stream `index`'s timestamps.
    package func timeBase(ofStream index: Int) -> AVRational {
        stream(index).pointee.time_base
    }

    /// The next packet of any stream in file order, or nil at the end of the file. Packets of
    /// streams that appeared after the file was opened (MPEG-TS and other formats without a
    /// full header add them as they come) are skipped: no track describes them.
    package func readPacket() throws(EngineError) -> Packet? {
        while true {
            // What an unpacking filter has ready goes first.
            for (index, unpacker) in unpackers {
                if let unpacked = unpacker.receive() {
                    unpacked.pointer.pointee.stream_index = Int32(index)
                    unpacked.timeBase = timeBase(ofStream: index)
                    return unpacked
                }
            }
            var packet = Packet()
            let status = av_read_frame(openContext, packet.pointer)
            if status == cffmpeg_averror_eof() {
                // A demuxer may meet a connection that failed (dropped, timed out) as the end of
                // its data: the connection's own error says otherwise.
                if let io, io.pointee.error < 0 { try check(io.pointee.error, "reading \(url.openedName)") }
                if let failure = customIO?.failure { throw failure }
                if !unpackers.isEmpty, !unpackersDrained {
                    unpackersDrained = true
                    for unpacker in unpackers.values { unpacker.send(nil) }
                    continue
                }
                return nil
            }
            try check(status, "reading \(url.openedName)")
            guard packet.streamIndex >= 0, packet.streamIndex < streams.count else { continue }
            if let unpacker = unpackers[packet.streamIndex] {
                unpacker.send(packet)
                continue
            }
            packet.timeBase = timeBase(ofStream: packet.streamIndex)
            if let converter = textConverters[packet.streamIndex] { packet = converter.convert(packet) }
            if frameDelays[packet.streamIndex] > 0 { fillDecodeTime(packet) }
            if timestampOffset != 0 {
                let shift = av_rescale_q(timestampOffset, AVRational(num: 1, den: cffmpeg_time_base()), packet.timeBase)
                if packet.pointer.pointee.pts != cffmpeg_nopts_value() { packet.pointer.pointee.pts -= shift }
                if packet.pointer.pointee.dts != cffmpeg_nopts_value() { packet.pointer.pointee.dts -= shift }
            }
            return packet
        }
    }

    /// Gives a packet of a stream with B-frames that has no decode time the one `ffmpeg` gives it
    /// when it copies such a stream: the previous packet's plus a frame, or, for the stream's
    /// first packet, its presentation time less a frame for each frame the decoder holds back
    /// (so that decode times increase and never pass presentation times, as MP4 needs).
    private func fillDecodeTime(_ packet: Packet) {
        let index = packet.streamIndex
        let nopts = cffmpeg_nopts_value()
        defer { lastDecodeTimes[index] = packet.pointer.pointee.dts }
        guard packet.pointer.pointee.dts == nopts, packet.pointer.pointee.pts != nopts else { return }
        let stream = stream(index)
        var step = packet.pointer.pointee.duration
        if step <= 0, stream.pointee.avg_frame_rate.num > 0, stream.pointee.avg_frame_rate.den > 0 {
            step = av_rescale_q(1, av_inv_q(stream.pointee.avg_frame_rate), stream.pointee.time_base)
        }
        guard step > 0 else { return }
        let last = lastDecodeTimes[index]
        packet.pointer.pointee.dts = last != nopts ? last + step : packet.pointer.pointee.pts - frameDelays[index] * step
    }

    /// Moves reading to the last key frame at or before `time` in stream `index`, so that
    /// decoding from there reaches `time`.
    package func seek(to time: CMTime, inStream index: Int) throws(EngineError) {
        let timestamp = (time + CMTime(value: timestampOffset, timescale: cffmpeg_time_base())).ffmpegTimestamp(in: timeBase(ofStream: index))
        try check(av_seek_frame(openContext, Int32(index), timestamp, AVSEEK_FLAG_BACKWARD), "seeking \(url.openedName) to \(time.seconds) s")
        for unpacker in unpackers.values { unpacker.flush() }
        for converter in textConverters.values { converter.flush() }
        lastDecodeTimes = frameDelays.map { _ in cffmpeg_nopts_value() }
        unpackersDrained = false
    }

    /// `ffmpegCheck`, for a network URL with the connection's own error when there is one (the
    /// demuxer may report a timed-out read as the end of the data) and marked as the network's.
    private func check(_ status: Int32, _ operation: @autoclosure () -> String) throws(EngineError) {
        if status < 0, let failure = customIO?.failure { throw failure }
        try Self.check(status, io: io, operation())
    }

    /// `check` with the connection `io` (nil for a local file).
    private static func check(_ status: Int32, io: UnsafeMutablePointer<AVIOContext>?, _ operation: @autoclosure () -> String) throws(EngineError) {
        guard status < 0 else { return }
        guard let io else { try ffmpegCheck(status, operation()) ; return }
        var error = EngineError(ffmpegCode: io.pointee.error < 0 ? io.pointee.error : status, operation: operation())
        error.isNetwork = true
        throw error
    }
}

extension URL {
    /// How an error message names the URL: a file's path, or the whole network URL.
    var openedName: String { isFileURL ? path : absoluteString }
}
