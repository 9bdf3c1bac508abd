import CFFmpeg
import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// A media file being written: FFmpeg's muxer (`AVFormatContext` and its `AVIOContext`), owned
/// and closed exactly once. The one muxer behind `AVAssetWriter`, `AVCaptureMovieFileOutput`
/// and `AVAssetExportSession`.
///
/// Add every track, then write packets (from an `Encoder`) or compressed sample buffers
/// (passthrough) in any order across tracks: FFmpeg interleaves them by time. The header is
/// written by `start()` or the first write; `finish()` writes the trailer and closes the file;
/// `cancel()` closes and deletes it. An I/O failure (a full disk, a removed device) throws
/// `EngineError` from the write or from `finish()`; the file is then left as it is, for
/// `cancel()` to remove.
///
/// Not thread safe: the writer serialises its inputs' calls.
package final class Muxer {
    /// File-wide options.
    package struct Options: Sendable {
        /// Whether the movie header goes before the sample data (`shouldOptimizeForNetworkUse`,
        /// FFmpeg's `faststart`: the file is rewritten once at the end). Ignored when
        /// fragmenting, whose header is always first.
        package var fastStart: Bool
        /// When set, the file is written as a fragmented movie: the movie header with the first
        /// fragment, then a fragment (`moof` + `mdat`) at least every interval of track time, each
        /// flushed to the file as soon as it is complete, so that a process killed mid-file
        /// leaves a movie readable up to its last fragment. Nil: one movie header at the end.
        package var movieFragmentInterval: CMTime?
        /// The file's metadata tags (FFmpeg keys: "title", "artist", "comment", "date",
        /// "location", …), in order.
        package var metadata: [(key: String, value: String)]
        /// Whether the tags are written as QuickTime metadata, each under its own name as an
        /// `mdta` key ("com.apple.quicktime.location.ISO6709"), rather than as the user-data
        /// atoms FFmpeg knows ("location" as `©xyz`): FFmpeg's `use_metadata_tags`.
        package var usesMetadataKeys: Bool
        /// Cover art, each picture as stored (PNG or JPEG): written as attached pictures where
        /// the container carries them (MP4 and M4A as `covr`, MP3 as ID3 `APIC`; see
        /// `carriesAttachedPictures(fileType:)`), left out elsewhere.
        package var attachedPictures: [Data]

        /// Options with nothing set.
        package init(fastStart: Bool = false, movieFragmentInterval: CMTime? = nil,
                     metadata: [(key: String, value: String)] = [], usesMetadataKeys: Bool = false,
                     attachedPictures: [Data] = []) {
            self.fastStart = fastStart
            self.movieFragmentInterval = movieFragmentInterval
            self.metadata = metadata
            self.usesMetadataKeys = usesMetadataKeys
            self.attachedPictures = attachedPictures
        }
    }

    /// Where the muxer is in its life.
    private enum State {
        case addingTracks, writing, failed, closed
    }

    /// The file being written; a `segments:` URL for a muxer writing segments in memory.
    package let url: URL
    /// FFmpeg's muxer name ("mov", "mp4", "ipod", …).
    package let fileType: String
    /// The options the file was opened with.
    package let options: Options

    /// The FFmpeg context, nil once closed.
    private var context: UnsafeMutablePointer<AVFormatContext>?
    /// The tracks, by index.
    private var tracks: [MuxerTrack] = []
    /// The life stage.
    private var state = State.addingTracks
    /// Whether this muxer created the file (and so may delete it).
    private let createdFile: Bool
    /// Bytes of the packets handed to FFmpeg's interleaver so far.
    private var packetBytes: Int64 = 0
    /// The file's size right after its header.
    private var headerBytes: Int64 = 0
    /// The packet `write(sampleBuffer:track:timeOffset:)` fills and hands to the interleaver,
    /// reused (blank between writes) rather than allocated per sample.
    private let samplePacket = Packet()
    /// Where the bytes go and when segments are cut, for a muxer writing segments in memory.
    private let segments: MuxerSegments?

    /// Whether FFmpeg's muxer for `fileType` writes attached pictures (cover art): MP4, M4A
    /// and MP3 do; its QuickTime muxer drops them.
    package static func carriesAttachedPictures(fileType: String) -> Bool {
        ["mp4", "ipod", "mp3"].contains(fileType)
    }

    /// Whether encoders for `fileType` must put their configuration in the codec parameters
    /// (`Encoder(settings:globalHeader:)`'s flag): true for MP4, QuickTime and Matroska.
    package static func needsGlobalHeader(fileType: String) -> Bool {
        guard let format = av_guess_format(fileType, nil, nil) else { return true }
        return format.pointee.flags & AVFMT_GLOBALHEADER != 0
    }

    /// Whether a `fileType` file can hold samples described by `formatDescription` as they are
    /// (a passthrough track): the engine knows the codec and FFmpeg's muxer stores it.
    package static func canStore(_ formatDescription: CMFormatDescription, fileType: String) -> Bool {
        var parameters = avcodec_parameters_alloc()
        defer { avcodec_parameters_free(&parameters) }
        guard let format = av_guess_format(fileType, nil, nil), let parameters,
              (try? MuxerTrack.fill(parameters, from: formatDescription)) != nil else { return false }
        let codec = parameters.pointee.codec_id
        // MP4's VP9 sample entry needs the stream's profile, bit depth and chroma layout (vpcC),
        // which a format description does not carry yet: FFmpeg would write an empty record.
        if codec == AV_CODEC_ID_VP9 { return false }
        // The QuickTime muxer shares MP4's tag table but refuses these when it writes the header.
        if fileType == "mov", [AV_CODEC_ID_VP8, AV_CODEC_ID_VP9, AV_CODEC_ID_AV1, AV_CODEC_ID_OPUS, AV_CODEC_ID_FLAC,
                               AV_CODEC_ID_TRUEHD].contains(codec) {
            return false
        }
        // FFmpeg 5.1 calls FLAC in MP4 experimental and refuses it when it writes the header.
        if fileType == "mp4" || fileType == "ipod", codec == AV_CODEC_ID_FLAC { return false }
        return avformat_query_codec(format, codec, FF_COMPLIANCE_NORMAL) == 1
    }

    /// Opens `url` for writing as FFmpeg's `fileType` muxer. Refuses an existing file (Apple's
    /// writers never overwrite): a path where anything but a character device (such as
    /// `/dev/null`) exists throws `EEXIST`. Throws also for a non-file URL, an unknown
    /// muxer, or a file that cannot be created.
    package init(url: URL, fileType: String, options: Options = Options()) throws(EngineError) {
        _ = FFmpegLog.install
        let path = url.path
        let operation = "creating \(path)"
        guard url.isFileURL else { throw EngineError(operation: operation, message: "only file URLs can be written") }
        self.url = url
        self.fileType = fileType
        self.options = options
        segments = nil
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFCHR else {
                throw EngineError(ffmpegCode: cffmpeg_averror(EEXIST), operation: operation)
            }
            createdFile = false
        } else {
            // Created here, exclusively, so that nothing appearing in between is overwritten.
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw EngineError(ffmpegCode: cffmpeg_averror(errno), operation: operation, opensFile: true) }
            close(descriptor)
            createdFile = true
        }
        var context: UnsafeMutablePointer<AVFormatContext>?
        var status = avformat_alloc_output_context2(&context, nil, fileType, path)
        if status >= 0, let context {
            status = avio_open(&context.pointee.pb, path, AVIO_FLAG_WRITE)
            if status < 0 { avformat_free_context(context) }
        }
        guard status >= 0, let context else {
            if createdFile { unlink(path) }
            throw EngineError(ffmpegCode: status < 0 ? status : cffmpeg_averror(EINVAL),
                              operation: "opening \(path) as \(fileType)", opensFile: true)
        }
        self.context = context
        for (key, value) in options.metadata {
            av_dict_set(&context.pointee.metadata, key, value, 0)
        }
    }

    /// Makes a muxer that writes `fileType` (fragmented MP4) into memory rather than a file,
    /// as segments: the movie header once (the initialization segment), then one fragment
    /// (`moof` + `mdat`) per segment, each handed to `handler` as soon as it is cut (see `cut`),
    /// with what each track holds in it. Throws for an unknown muxer.
    package init(segmentsOf fileType: String, options: Options = Options(), cut: MuxerSegments.Cut,
                 handler: @escaping MuxerSegments.Handler) throws(EngineError) {
        _ = FFmpegLog.install
        url = URL(string: "segments:")!
        self.fileType = fileType
        self.options = options
        createdFile = false
        let segments = MuxerSegments(cut: cut, handler: handler)
        self.segments = segments
        var context: UnsafeMutablePointer<AVFormatContext>?
        let status = avformat_alloc_output_context2(&context, nil, fileType, nil)
        let size: Int32 = 64 * 1024
        guard status >= 0, let context, let buffer = av_malloc(Int(size)) else {
            avformat_free_context(context)
            throw EngineError(ffmpegCode: status < 0 ? status : cffmpeg_averror(ENOMEM), operation: "making segments of \(fileType)")
        }
        let write: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = { opaque, bytes, count in
            guard let opaque, let bytes else { return count }
            Unmanaged<MuxerSegments>.fromOpaque(opaque).takeUnretainedValue().receive(bytes, count: Int(count))
            return count
        }
        guard let io = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), size, 1,
                                          Unmanaged.passUnretained(segments).toOpaque(), nil, write, nil) else {
            av_free(buffer)
            avformat_free_context(context)
            throw EngineError(ffmpegCode: cffmpeg_averror(ENOMEM), operation: "making segments of \(fileType)")
        }
        context.pointee.pb = io
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        self.context = context
        for (key, value) in options.metadata {
            av_dict_set(&context.pointee.metadata, key, value, 0)
        }
    }

    deinit {
        // Neither finished nor cancelled: close what was written, leave the file.
        closeContext()
    }

    /// Closes the file (or the memory output of segments) and frees the context; returns the
    /// close status.
    @discardableResult
    private func closeContext() -> Int32 {
        guard let context else { return 0 }
        var status: Int32 = 0
        if segments != nil, let pb = context.pointee.pb {
            avio_flush(pb)
            status = pb.pointee.error
            av_freep(&context.pointee.pb.pointee.buffer)
            avio_context_free(&context.pointee.pb)
        } else if context.pointee.pb != nil {
            status = avio_closep(&context.pointee.pb)
        }
        avformat_free_context(context)
        self.context = nil
        return status
    }

    /// The open context while tracks may still be added.
    private func contextForAdding() throws(EngineError) -> UnsafeMutablePointer<AVFormatContext> {
        guard state == .addingTracks, let context else {
            throw EngineError(operation: "adding a track to \(url.path)", message: "writing has already started")
        }
        return context
    }

    /// A new stream with the track options applied.
    private func newStream(_ options: MuxerTrackOptions, timeBase: AVRational) throws(EngineError)
        -> UnsafeMutablePointer<AVStream> {
        let context = try contextForAdding()
        guard let stream = avformat_new_stream(context, nil) else {
            throw EngineError(ffmpegCode: cffmpeg_averror(ENOMEM), operation: "adding a track to \(url.path)")
        }
        if let scale = options.timeScale, scale > 0 {
            stream.pointee.time_base = AVRational(num: 1, den: scale)
        } else {
            stream.pointee.time_base = timeBase
        }
        if let language = options.languageCode {
            av_dict_set(&stream.pointee.metadata, "language", language, 0)
        }
        for (key, value) in options.metadata {
            av_dict_set(&stream.pointee.metadata, key, value, 0)
        }
        if let transform = options.transform, !transform.isIdentity {
            let matrix = MuxerTrackOptions.displayMatrix(transform)
            guard let side = av_stream_new_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, 9 * MemoryLayout<Int32>.size) else {
                throw EngineError(ffmpegCode: cffmpeg_averror(ENOMEM), operation: "setting a track's transform")
            }
            UnsafeMutableRawPointer(side).withMemoryRebound(to: Int32.self, capacity: 9) { target in
                for index in 0..<9 { target[index] = matrix[index] }
            }
        }
        return stream
    }

    /// Adds a track for an encoder's packets and returns its index. The encoder must have been
    /// opened with `globalHeader` when `needsGlobalHeader(fileType:)` says so. HEVC is tagged
    /// 'hvc1'. Throws once writing has started.
    @discardableResult
    package func addTrack(from encoder: Encoder, options: MuxerTrackOptions = MuxerTrackOptions()) throws(EngineError) -> Int {
        let stream = try newStream(options, timeBase: encoder.timeBase)
        try ffmpegCheck(avcodec_parameters_copy(stream.pointee.codecpar, encoder.codecParameters),
                        "adding a track to \(url.path)")
        if stream.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_HEVC {
            stream.pointee.codecpar.pointee.codec_tag = MuxerTrack.tag(FourCharCode(fourCC: "hvc1"))
        }
        tracks.append(MuxerTrack(stream: stream, isLinearPCM: false, bytesPerPCMFrame: 0))
        return tracks.count - 1
    }

    /// Adds a track for already-compressed sample buffers described by `formatDescription`
    /// (codec, dimensions or stream description, configuration record as `codecPrivateData`)
    /// and returns its index. `timeScale` is the track's time scale unless the options give
    /// one. Throws for a codec the engine cannot store, or once writing has started.
    @discardableResult
    package func addTrack(passthrough formatDescription: CMFormatDescription, timeScale: Int32,
                          options: MuxerTrackOptions = MuxerTrackOptions()) throws(EngineError) -> Int {
        guard timeScale > 0 else {
            throw EngineError(operation: "adding a passthrough track", message: "the time scale \(timeScale) is not positive")
        }
        let stream = try newStream(options, timeBase: AVRational(num: 1, den: timeScale))
        let (isLinearPCM, bytesPerFrame) = try MuxerTrack.fill(stream.pointee.codecpar, from: formatDescription)
        tracks.append(MuxerTrack(stream: stream, isLinearPCM: isLinearPCM, bytesPerPCMFrame: bytesPerFrame))
        return tracks.count - 1
    }

    /// Writes the file header: no tracks can be added afterwards. Called by the first write
    /// when not called before. Throws when the container refuses a track's codec (such as
    /// ProRes in MP4) or the file cannot be written.
    package func start() throws(EngineError) {
        switch state {
        case .writing: return
        case .failed, .closed:
            throw EngineError(operation: "writing \(url.path)", message: "the file is \(state == .closed ? "closed" : "failed")")
        case .addingTracks: break
        }
        guard let context else { return }
        var dictionary: OpaquePointer?
        defer { av_dict_free(&dictionary) }
        if options.usesMetadataKeys { av_dict_set(&dictionary, "movflags", "+use_metadata_tags", AV_DICT_APPEND) }
        if segments != nil {
            // Fragments cut on request only; the movie header with the first one, so that edit
            // lists keep every time exact (split off as the initialization segment); no index
            // at the end.
            av_dict_set(&dictionary, "movflags", "+frag_custom+delay_moov+default_base_moof+skip_trailer", AV_DICT_APPEND)
            segments?.keyTrack = tracks.firstIndex { $0.stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO }
        } else if let interval = options.movieFragmentInterval, interval.isNumeric, interval > .zero {
            // The movie header waits for the first fragment (`delay_moov`) rather than being
            // written empty: FFmpeg then keeps edit lists (encoder delay, AAC priming, a track
            // starting later than another) instead of shifting every track's times.
            av_dict_set(&dictionary, "movflags", "+delay_moov+default_base_moof", AV_DICT_APPEND)
            let microseconds = max(1, interval.ffmpegTimestamp(in: AVRational(num: 1, den: 1_000_000)))
            av_dict_set(&dictionary, "frag_duration", String(microseconds), 0)
        } else if options.fastStart {
            av_dict_set(&dictionary, "movflags", "+faststart", AV_DICT_APPEND)
        }
        // FFmpeg names itself in the file ("Lavf…": the "encoder" tag, and MP4's `©too`), which
        // Apple's writer does not: bit-exact output leaves it out. Software the caller names
        // replaces it instead (FFmpeg overwrites the tag as it writes the header, so it is set
        // again after; a movie's tags are written with its movie header, at the end or with
        // the first fragment).
        let software = options.metadata.last { $0.key == "encoder" }?.value
        if software == nil { context.pointee.flags |= AVFMT_FLAG_BITEXACT }
        let pictures = segments == nil && Self.carriesAttachedPictures(fileType: fileType)
            ? options.attachedPictures.compactMap { data in
                PictureFormat(of: data).flatMap { format in PictureFormat.size(of: data).map { (data, format, $0) } }
            } : []
        var pictureStreams: [Int32] = []
        for (_, format, size) in pictures {
            guard let stream = avformat_new_stream(context, nil) else {
                state = .failed
                throw EngineError(ffmpegCode: cffmpeg_averror(ENOMEM), operation: "adding the cover art of \(url.path)")
            }
            stream.pointee.codecpar.pointee.codec_type = AVMEDIA_TYPE_VIDEO
            stream.pointee.codecpar.pointee.codec_id = format.codecID
            stream.pointee.codecpar.pointee.width = size.width
            stream.pointee.codecpar.pointee.height = size.height
            stream.pointee.disposition = AV_DISPOSITION_ATTACHED_PIC
            stream.pointee.time_base = AVRational(num: 1, den: 90000)
            pictureStreams.append(stream.pointee.index)
        }
        let status = avformat_write_header(context, &dictionary)
        if status < 0 {
            state = .failed
            throw EngineError(ffmpegCode: status, operation: "writing the header of \(url.path)")
        }
        // Each picture is the one packet of its stream, written at once (the MP3 muxer holds
        // the sound back until it has them).
        for ((picture, _, _), index) in zip(pictures, pictureStreams) {
            let packet = Packet()
            guard av_new_packet(packet.pointer, Int32(picture.count)) >= 0 else { continue }
            picture.copyBytes(to: packet.pointer.pointee.data, count: picture.count)
            packet.pointer.pointee.stream_index = index
            packet.pointer.pointee.flags |= AV_PKT_FLAG_KEY
            packet.pointer.pointee.pts = 0
            packet.pointer.pointee.dts = 0
            let written = av_write_frame(context, packet.pointer)
            if written < 0 {
                state = .failed
                throw EngineError(ffmpegCode: written, operation: "writing the cover art of \(url.path)")
            }
        }
        if let software {
            av_dict_set(&context.pointee.metadata, "encoder", software, 0)
            av_dict_set(&context.pointee.metadata, "encoding_tool", software, 0)
        }
        headerBytes = context.pointee.pb.map { avio_tell($0) } ?? 0
        state = .writing
    }

    /// The size the file has so far, counting the samples FFmpeg still holds (for an
    /// unfinished fragment, or for interleaving) as written: bytes on disk grow by whole
    /// fragments, this grows with every packet. Excludes the movie header a trailer adds.
    package var estimatedSize: Int64 {
        let written = context?.pointee.pb.map { avio_tell($0) } ?? 0
        return max(written, headerBytes + packetBytes)
    }

    /// Bytes held by FFmpeg (an unfinished fragment, packets waiting for interleaving) that
    /// the file does not have yet: what finishing it will still write, besides the trailer.
    package var unwrittenBytes: Int64 {
        let written = context?.pointee.pb.map { avio_tell($0) } ?? 0
        return max(0, headerBytes + packetBytes - written)
    }

    /// The context, checked for writing and with the header written.
    private func contextForWriting(track: Int) throws(EngineError) -> UnsafeMutablePointer<AVFormatContext> {
        guard track >= 0, track < tracks.count else {
            throw EngineError(operation: "writing \(url.path)", message: "there is no track \(track)")
        }
        try start()
        guard let context else { throw EngineError(operation: "writing \(url.path)", message: "the file is closed") }
        return context
    }

    /// Hands a packet to FFmpeg's interleaver and, for fragmented files, flushes complete
    /// fragments to the file. Marks the muxer failed on error.
    private func interleave(_ packet: UnsafeMutablePointer<AVPacket>, context: UnsafeMutablePointer<AVFormatContext>)
        throws(EngineError) {
        packetBytes += Int64(packet.pointee.size)
        if let segments {
            return try writeToSegment(packet, segments: segments, context: context)
        }
        var status = av_interleaved_write_frame(context, packet)
        if status >= 0, options.movieFragmentInterval != nil, let pb = context.pointee.pb {
            avio_flush(pb)
            status = pb.pointee.error
        }
        if status < 0 {
            state = .failed
            throw EngineError(ffmpegCode: status, operation: "writing \(url.path)")
        }
    }

    /// Writes a packet into the segment under way, cutting one before it first when it is due.
    /// Each track's packets go to FFmpeg in decode order as they come: a fragment holds each
    /// track's samples apart, so nothing needs interleaving.
    private func writeToSegment(_ packet: UnsafeMutablePointer<AVPacket>, segments: MuxerSegments,
                                context: UnsafeMutablePointer<AVFormatContext>) throws(EngineError) {
        let track = Int(packet.pointee.stream_index)
        let timeBase = tracks[track].stream.pointee.time_base
        let time = CMTime(ffmpegTimestamp: packet.pointee.pts, timeBase: timeBase)
        let isSync = packet.pointee.flags & AV_PKT_FLAG_KEY != 0
        if segments.cutsBefore(track: track, presentationTime: time, isSync: isSync) { try flushSegment() }
        segments.note(track: track, presentationTime: time, duration: CMTime(ffmpegTimestamp: packet.pointee.duration, timeBase: timeBase),
                      size: Int(packet.pointee.size), isSync: isSync)
        let status = av_write_frame(context, packet)
        if status < 0 {
            state = .failed
            throw EngineError(ffmpegCode: status, operation: "writing a segment")
        }
    }

    /// Ends the segment under way and hands it on (with the initialization segment before the
    /// first one); nothing when no sample was written since the last. For a muxer writing
    /// segments only.
    package func flushSegment() throws(EngineError) {
        guard let segments, state == .writing, let context else { return }
        func flush() throws(EngineError) {
            var status = av_write_frame(context, nil)
            if status >= 0, let pb = context.pointee.pb {
                avio_flush(pb)
                status = pb.pointee.error
            }
            if status < 0 {
                state = .failed
                throw EngineError(ffmpegCode: status, operation: "writing a segment")
            }
        }
        try flush()
        if !segments.initializationSent {
            // FFmpeg's first flush writes the movie header only (`delay_moov`); the next, the
            // first fragment.
            segments.deliverInitialization()
            try flush()
        }
        segments.deliver()
    }

    /// The origin of a muxer's segment intervals (`MuxerSegments.Cut.every`), in the times
    /// written; settable until writing starts.
    package func setSegmentOrigin(_ origin: CMTime) {
        guard let segments, case .every(let interval, _) = segments.cut else { return }
        segments.cut = .every(interval, origin: origin)
    }

    /// Which of the segment intervals a sample shown at `time` (in the times written) falls in;
    /// nil unless segments are cut every interval. An encoder makes the first picture of each
    /// interval a key frame, so that segments are cut where they are due.
    package func segmentInterval(at time: CMTime) -> Int64? {
        segments?.intervalIndex(of: time)
    }

    /// Writes an encoded packet to `track`, its timestamps converted from the packet's
    /// `timeBase`. Consumes the packet (it is empty afterwards). Throws for timestamps the
    /// container refuses (decode times not increasing) and I/O errors.
    package func write(_ packet: Packet, track: Int) throws(EngineError) {
        let context = try contextForWriting(track: track)
        let stream = tracks[track].stream
        let p = packet.pointer
        p.pointee.stream_index = stream.pointee.index
        av_packet_rescale_ts(p, packet.timeBase, stream.pointee.time_base)
        packet.timeBase = stream.pointee.time_base
        try interleave(p, context: context)
    }

    /// Writes the samples of a compressed sample buffer to a passthrough `track`: each sample
    /// becomes a packet whose bytes are copied once out of the data buffer (or, for a sample
    /// buffer made from a demuxed packet, share that packet's data), with the sample's
    /// times and a key-frame flag unless the sample carries `kCMSampleAttachmentKey_NotSync`.
    /// A linear PCM buffer is written as one packet. `timeOffset` is subtracted from every time
    /// (a writer session that does not start at zero). Throws for a buffer without data or
    /// timing, and as `write(_:track:)` does.
    package func write(sampleBuffer: CMSampleBuffer, track: Int, timeOffset: CMTime = .zero) throws(EngineError) {
        let context = try contextForWriting(track: track)
        let info = tracks[track]
        let count = sampleBuffer.numSamples
        guard count > 0, let block = sampleBuffer.dataBuffer, case let length = block.dataLength, length > 0 else {
            throw EngineError(operation: writingOperation, message: "the sample buffer holds no data")
        }
        guard let timings = try? sampleBuffer.sampleTimingInfos(), let first = timings.first,
              first.presentationTimeStamp.isNumeric else {
            throw EngineError(operation: writingOperation, message: "the sample buffer has no presentation time")
        }
        if info.isLinearPCM || count == 1 {
            // One packet (the common case: a demuxed or encoded sample), without per-sample lists.
            let size = info.isLinearPCM ? length : sampleBuffer.sampleSize(at: 0)
            try writePiece(of: block, length: length, offset: 0, size: size > 0 ? size : length, timing: first,
                           samples: info.isLinearPCM ? count : 1, isSync: sampleBuffer.isSyncSample(at: 0),
                           mayShare: true, info: info, timeOffset: timeOffset, context: context)
            return
        }
        var offset = 0
        for index in 0..<count {
            let size = sampleBuffer.sampleSize(at: index)
            var timing = first
            if timings.count == count {
                timing = timings[index]
            } else if index > 0, first.duration.isNumeric {
                let shift = CMTimeMultiply(first.duration, multiplier: Int32(index))
                timing.presentationTimeStamp = first.presentationTimeStamp + shift
                if first.decodeTimeStamp.isNumeric { timing.decodeTimeStamp = first.decodeTimeStamp + shift }
            }
            try writePiece(of: block, length: length, offset: offset, size: size > 0 ? size : length - offset, timing: timing, samples: 1,
                           isSync: sampleBuffer.isSyncSample(at: index), mayShare: false, info: info,
                           timeOffset: timeOffset, context: context)
            offset += size
        }
    }

    /// What a failed sample-buffer write was doing; built only for an error (a path string per
    /// sample costs as much as muxing the sample).
    private var writingOperation: String { "writing a sample buffer to \(url.path)" }

    /// Writes `size` bytes of `block` (`length` bytes long) from `offset` as one packet holding
    /// `samples` samples that start at `timing`: sharing a demuxed packet's data when
    /// `mayShare` and the range is the whole packet, copying it otherwise.
    private func writePiece(of block: CMBlockBuffer, length: Int, offset: Int, size: Int, timing: CMSampleTimingInfo, samples: Int,
                            isSync: Bool, mayShare: Bool, info: MuxerTrack, timeOffset: CMTime,
                            context: UnsafeMutablePointer<AVFormatContext>) throws(EngineError) {
        guard size > 0, offset + size <= length else {
            throw EngineError(operation: writingOperation, message: "the sample sizes do not fit the data")
        }
        let timeBase = info.stream.pointee.time_base
        // One packet for every write: the interleaver takes its reference and leaves it blank.
        let p = samplePacket.pointer
        defer { av_packet_unref(p) }
        if mayShare, let source = block.memoryOwner as? Packet, source.pointer.pointee.buf != nil,
           offset == 0, size == source.size {
            // A demuxed packet: share its reference-counted data instead of copying it.
            try ffmpegCheck(av_packet_ref(p, source.pointer), writingOperation)
            // Keep the data and side data; the times, flags and position are set below.
            p.pointee.flags = 0
            p.pointee.duration = 0
            p.pointee.pos = -1
        } else {
            try ffmpegCheck(av_new_packet(p, Int32(size)), writingOperation)
            let copied = CMBlockBufferCopyDataBytes(block, atOffset: offset, dataLength: size,
                                                    destination: UnsafeMutableRawPointer(p.pointee.data))
            guard copied == kCMBlockBufferNoErr else {
                throw EngineError(operation: writingOperation, message: "CoreMedia status \(copied) reading the sample data")
            }
        }
        var timing = timing
        if timeOffset != .zero {
            timing.presentationTimeStamp = timing.presentationTimeStamp - timeOffset
            if timing.decodeTimeStamp.isNumeric { timing.decodeTimeStamp = timing.decodeTimeStamp - timeOffset }
        }
        p.pointee.pts = timing.presentationTimeStamp.ffmpegTimestamp(in: timeBase)
        p.pointee.dts = timing.decodeTimeStamp.isNumeric ? timing.decodeTimeStamp.ffmpegTimestamp(in: timeBase) : p.pointee.pts
        if timing.duration.isNumeric, timing.duration > .zero {
            let duration = samples > 1 ? CMTimeMultiply(timing.duration, multiplier: Int32(samples)) : timing.duration
            p.pointee.duration = duration.ffmpegTimestamp(in: timeBase)
        }
        if isSync { p.pointee.flags |= AV_PKT_FLAG_KEY }
        p.pointee.stream_index = info.stream.pointee.index
        try interleave(p, context: context)
    }

    /// Sets the file's chapters, titles over ranges of the file's time, written with the
    /// trailer: a QuickTime or MP4 file gets a QuickTime chapter track that every other track
    /// refers to (`tref` `chap`), as Apple's writer makes it (and an MP4 the Nero `chpl` list
    /// too). Replaces chapters set before; call it before `finish()`.
    package func setChapters(_ chapters: [(title: String, range: CMTimeRange)]) throws(EngineError) {
        guard let context else { throw EngineError(operation: "setting chapters", message: "the file is closed") }
        let timeBase = AVRational(num: 1, den: 1_000_000)
        let list = av_calloc(chapters.count, MemoryLayout<UnsafeMutablePointer<AVChapter>?>.stride)?
            .assumingMemoryBound(to: UnsafeMutablePointer<AVChapter>?.self)
        guard let list else { throw EngineError(ffmpegCode: cffmpeg_averror(ENOMEM), operation: "setting chapters") }
        for (index, chapter) in chapters.enumerated() {
            guard let made = av_mallocz(MemoryLayout<AVChapter>.size)?.assumingMemoryBound(to: AVChapter.self) else {
                throw EngineError(ffmpegCode: cffmpeg_averror(ENOMEM), operation: "setting chapters")
            }
            made.pointee.id = Int64(index + 1)
            made.pointee.time_base = timeBase
            made.pointee.start = chapter.range.start.ffmpegTimestamp(in: timeBase)
            made.pointee.end = chapter.range.end.ffmpegTimestamp(in: timeBase)
            av_dict_set(&made.pointee.metadata, "title", chapter.title, 0)
            list[index] = made
        }
        removeChapters(of: context)
        context.pointee.chapters = list
        context.pointee.nb_chapters = UInt32(chapters.count)
    }

    /// Frees a context's chapters.
    private func removeChapters(of context: UnsafeMutablePointer<AVFormatContext>) {
        for index in 0..<Int(context.pointee.nb_chapters) {
            guard let chapter = context.pointee.chapters[index] else { continue }
            av_dict_free(&chapter.pointee.metadata)
            av_free(chapter)
        }
        av_freep(&context.pointee.chapters)
        context.pointee.nb_chapters = 0
    }

    /// Writes the buffered packets and the trailer (the movie header, unless fragmented) and
    /// closes the file. Throws for I/O errors (the file stays, for `cancel()` to remove).
    package func finish() throws(EngineError) {
        if state == .addingTracks { try start() }
        guard state == .writing, let context else {
            throw EngineError(operation: "finishing \(url.path)", message: "the file is \(state == .closed ? "closed" : "failed")")
        }
        if segments != nil { try flushSegment() }
        let trailer = av_write_trailer(context)
        let close = closeContext()
        state = trailer < 0 || close < 0 ? .failed : .closed
        if trailer < 0 { throw EngineError(ffmpegCode: trailer, operation: "finishing \(url.path)") }
        if close < 0 { throw EngineError(ffmpegCode: close, operation: "closing \(url.path)") }
    }

    /// Stops writing, closes the file and deletes it (when this muxer created it). Does nothing
    /// after a successful `finish()`.
    package func cancel() {
        guard state != .closed else { return }
        closeContext()
        state = .closed
        if createdFile { unlink(url.path) }
    }
}
