import Foundation
import MediaEngine
import OpenCoreMedia
import OpenCoreVideo

/// Everything an asset knows once loaded: read once from the file by the demuxer, then
/// immutable. Tracks, durations and metadata of `AVAsset` and `AVAssetTrack` all come from here.
struct AssetContents: @unchecked Sendable {
    /// The file; nil for a composition, whose tracks read their segments' files.
    let url: URL?
    /// The longest track's end (or the container's duration when no track states one).
    var duration: CMTime
    /// The tracks, in file order.
    var tracks: [TrackContents]
    /// The asset's metadata items, in every key space the file has.
    var metadata: [AVMetadataItem]
    /// The asset's metadata items in the common key space.
    var commonMetadata: [AVMetadataItem]
    /// The file's chapters, and their titles' language (ISO 639-2/T; "und" when unknown): a
    /// QuickTime chapter track's language, else undetermined.
    let chapters: [DemuxedChapter]
    let chapterLanguage: String
    /// Whether durations and times were measured from every sample rather than read from headers.
    let providesPreciseDurationAndTiming: Bool
    /// The container's FFmpeg name(s).
    let formatName: String
    /// The demuxer that read all this, for the asset's first reader.
    let spares: ReadingSpares
    /// How the file is fetched when `url` is a network URL.
    let network: NetworkOptions
    /// An HTTP Live Stream's variants (none for other files): the bit rate each states and
    /// the indices of its tracks, highest bit rate first.
    let variants: [(bitRate: Int, tracks: [Int])]

    /// Reads `url` (a network URL with `network`). With `precise` (or when the headers leave a
    /// stream's duration unknown, or the container leaves packets unstamped) every packet of a
    /// local file is scanned for exact start and end times; nothing is decoded. A network file is never scanned (that would download it
    /// whole): a stream without a stated duration lasts as long as the container says, and a
    /// live stream, whose end is not known, lasts `.indefinite`.
    init(url: URL, precise: Bool, network: NetworkOptions) throws(EngineError) {
        let demuxer = try Demuxer(url: url, network: network)
        self.url = url
        self.network = network
        formatName = demuxer.formatName
        variants = demuxer.isHTTPLiveStream && demuxer.programs.count > 1
            ? demuxer.programs.map { ($0.bitRate, $0.streams) }.sorted { $0.bitRate > $1.bitRate } : []
        // Attached pictures (cover art) are the artwork item, not tracks, as Apple shows them.
        (metadata, commonMetadata) = AVMetadataItem.metadata(fromFFmpegTags: demuxer.metadata, formatName: demuxer.formatName,
                                                             pictures: demuxer.streams.compactMap(\.attachedPicture))
        chapters = demuxer.chapters
        chapterLanguage = demuxer.streams.first { $0.kind == .data && $0.codecType == kCMTextFormatType_QTText }?.languageCode ?? "und"
        var starts = demuxer.streams.map(\.startTime)
        var durations = demuxer.streams.map(\.duration)
        // A network file, or a resource loader delegate's: every read is a fetch.
        let isNetwork = !url.isFileURL
        // A container that leaves packets unstamped states times FFmpeg derived before it
        // could derive the missing ones: they are measured instead, as the reader will see them.
        // So is a file with a video stream FFmpeg read no frame of while probing (no frame
        // rate): it may be a stream the file declares and never fills, and has no samples.
        let unprobed = demuxer.streams.contains { $0.kind == .video && $0.attachedPicture == nil && $0.frameRate == 0 }
        let scan = !isNetwork && (precise || durations.contains { !$0.isNumeric } || demuxer.leavesPacketsUnstamped || unprobed)
        if scan {
            (starts, durations) = try Self.measure(demuxer)
            // A stream without a packet is an empty track, as Apple's asset shows one.
            for index in starts.indices where !starts[index].isNumeric {
                (starts[index], durations[index]) = (.zero, .zero)
            }
        } else if isNetwork {
            // Each stream lasts to the container's end.
            let end = demuxer.duration.isNumeric ? demuxer.duration + (demuxer.startTime.isNumeric ? demuxer.startTime : .zero) : .indefinite
            durations = zip(durations, starts).map { duration, start in
                guard !duration.isNumeric else { return duration }
                return end.isNumeric ? end - (start.isNumeric ? start : .zero) : .indefinite
            }
        }
        providesPreciseDurationAndTiming = scan
        // A demuxer that scanned every packet is at the end of the file; it is not handed on.
        spares = ReadingSpares(scan ? nil : demuxer)
        var made = demuxer.streams.filter { $0.attachedPicture == nil }.map { [formatName] stream in
            TrackContents(stream: stream, demuxer: demuxer, formatName: formatName, start: starts[stream.index],
                          duration: durations[stream.index], durationIsStated: !scan && demuxer.statesDurations && !demuxer.isHTTPLiveStream)
        }
        if Set(made.map(\.trackID)).count < made.count {
            // The container's IDs repeat (an HTTP Live Stream's variants each number their own
            // tracks): numbered in file order instead, so that every track has its own.
            for index in made.indices { made[index].trackID = CMPersistentTrackID(index + 1) }
        }
        tracks = made
        let ends = tracks.map(\.timeRange).filter(\.isValid).map(\.end)
        duration = ends.contains { $0.isIndefinite } ? .indefinite : ends.filter(\.isNumeric).max() ?? demuxer.duration
    }

    /// The contents of a composition as it stands: its tracks, no file and no metadata.
    init(composedOf tracks: [TrackContents]) {
        url = nil
        network = .standard
        variants = []
        formatName = ""
        metadata = []
        commonMetadata = []
        chapters = []
        chapterLanguage = "und"
        providesPreciseDurationAndTiming = true
        spares = ReadingSpares(nil)
        self.tracks = tracks
        duration = tracks.map(\.timeRange).filter(\.isValid).map(\.end).max() ?? .zero
    }

    /// Whether the file is read over the network (HTTP, HTTPS) or from a resource loader's
    /// delegate: every read is a fetch.
    var isOnNetwork: Bool { url.map { !$0.isFileURL } ?? false }

    /// Where the file's own clock begins: zero for containers whose timeline starts at zero
    /// (QuickTime/MP4, Matroska, …, and HTTP Live Streams, which the demuxer moves there); the
    /// earliest track's start for MPEG transport and program streams, which are stamped with a
    /// running clock that does not start at zero.
    var timelineOrigin: CMTime {
        guard formatName == "mpegts" || formatName == "mpeg" else { return .zero }
        return tracks.map(\.timeRange.start).filter(\.isNumeric).min() ?? .zero
    }

    /// The first presentation time and the duration of every stream, from its packets.
    ///
    /// A packet the container gives no duration (APE frames, WMA Pro and Lossless) lasts until
    /// its stream's next packet; when the last one has none, the stream ends where its header
    /// says, if that is later, as ffprobe and the decoders measure it.
    private static func measure(_ demuxer: Demuxer) throws(EngineError) -> (starts: [CMTime], durations: [CMTime]) {
        var first = [CMTime](repeating: .invalid, count: demuxer.streams.count)
        var last = first
        var lastIsOpen = [Bool](repeating: false, count: demuxer.streams.count)
        while let packet = try demuxer.readPacket() {
            let index = packet.streamIndex
            guard index < first.count else { continue }
            var start = packet.presentationTime
            guard start.isNumeric else { continue }
            let end = start + (packet.duration.isNumeric && packet.duration > .zero ? packet.duration : .zero)
            // Encoder priming the file hides (AAC's 1024 samples) is not presented: the track
            // starts after it, as the container states and Apple's asset says.
            let skipped = packet.skippedLeadingSamples, rate = demuxer.streams[index].sampleRate
            if skipped > 0, rate > 0 { start = min(end, start + CMTime(value: Int64(skipped), timescale: rate)) }
            if !first[index].isNumeric || start < first[index] { first[index] = start }
            if !last[index].isNumeric || end >= last[index] {
                last[index] = end
                lastIsOpen[index] = !(packet.duration.isNumeric && packet.duration > .zero)
            }
        }
        for (index, stream) in demuxer.streams.enumerated() where lastIsOpen[index] && stream.duration.isNumeric {
            let statedEnd = ((stream.startTime.isNumeric ? stream.startTime : .zero) + stream.duration)
                .convertScale(stream.duration.timescale, method: .roundHalfAwayFromZero)
            last[index] = max(last[index], statedEnd)
        }
        let durations = zip(first, last).map { start, end in start.isNumeric ? end - start : CMTime.invalid }
        return (first, durations)
    }
}

/// The demuxers and decoders an asset keeps open for its readers, so that a new reader does
/// not open, probe and set up again what a finished one had: `avformat_find_stream_info`
/// decodes the first frames (a 1080p key frame, about 15 ms), and a new frame-threaded
/// decoder allocates and touches its frame pools afresh. A player pays both at every seek.
///
/// Two kinds of demuxer: the one that loaded the asset, positioned where a newly opened one
/// would be (packets read while probing are still queued in it), for the first reader from any
/// time; and those given back by finished readers, at wherever they stopped, for readers that
/// seek anyway (a seek by time does not depend on where the demuxer was, in every format
/// FFmpeg seeks in; going back to a file's very beginning does in some, so those open afresh).
/// Decoders come back flushed (`avcodec_flush_buffers`: as new for the next key frame), every
/// frame decoded again.
final class ReadingSpares: @unchecked Sendable {
    /// How many given-back demuxers are kept: a player's item reading and a seek's key-frame
    /// lookup can each have one.
    static let keptDemuxers = 2

    private let lock = NSLock()
    private var fresh: Demuxer?
    private var demuxers: [Demuxer] = []
    private var decoders: [Int: Decoder] = [:]

    init(_ demuxer: Demuxer?) { fresh = demuxer }

    /// A demuxer for a reader: the loading one while nobody took it, else one given back when
    /// the reader will seek (`seeking`); nil when the reader must open the file itself.
    func takeDemuxer(seeking: Bool) -> Demuxer? {
        lock.withLock {
            if let demuxer = fresh {
                fresh = nil
                return demuxer
            }
            return seeking ? demuxers.popLast() : nil
        }
    }

    /// A flushed decoder of stream `index`, if one was given back.
    func takeDecoder(forStream index: Int) -> Decoder? {
        lock.withLock { decoders.removeValue(forKey: index) }
    }

    /// Keeps a finished reader's demuxer (at most `keptDemuxers`) and its decoders, by stream
    /// index (one each), for the next readers.
    func giveBack(_ demuxer: Demuxer, decoders given: [Int: Decoder]) {
        for decoder in given.values {
            decoder.flush()
            decoder.skipsNonReferenceFrames = false
        }
        lock.withLock {
            if demuxers.count < Self.keptDemuxers { demuxers.append(demuxer) }
            decoders.merge(given) { kept, _ in kept }
        }
    }
}

/// What an asset knows about one track.
struct TrackContents: @unchecked Sendable {
    /// The stream's index in the file (what the reader demuxes).
    var streamIndex: Int
    /// The track ID: the container's own (MP4/MOV track ID, Matroska track number) or index + 1.
    var trackID: CMPersistentTrackID
    /// The kind of media.
    var mediaType: AVMediaType
    /// The format description, nil when the engine cannot describe the codec.
    let formatDescription: CMFormatDescription?
    /// When the track starts and how long it lasts on the asset's timeline.
    var timeRange: CMTimeRange
    /// Where the container's header says the track ends, so that reading it must get there;
    /// invalid when the duration was measured or estimated instead (a file read to its end then
    /// holds the whole track by definition), or the track starts late.
    var statedEnd: CMTime
    /// Whether the track holds no samples: its time range is known and empty.
    var isEmpty: Bool { timeRange.isValid && !timeRange.isIndefinite && timeRange.duration == .zero }
    /// The track's own timescale.
    var naturalTimeScale: CMTimeScale
    /// Bits per second, 0 when unknown.
    let estimatedDataRate: Float
    /// ISO 639-2/T language code, nil when unknown.
    var languageCode: String?
    /// The video size before the preferred transform, with the pixel aspect ratio applied.
    let naturalSize: CGSize
    /// The size of the encoded pictures in pixels (video), 0 otherwise.
    let codedWidth: Int
    let codedHeight: Int
    /// The display matrix of the track.
    var preferredTransform: CGAffineTransform
    /// Frames per second, 0 when not video or unknown.
    let nominalFrameRate: Float
    /// FFmpeg's name of the codec ("vorbis", "theora"), for codecs without a CoreMedia code.
    let codecName: String
    /// An audio track's sample rate and channel count as FFmpeg reads them, 0 when unknown
    /// or not audio: known also for codecs without a CoreMedia code, which have no description.
    let sampleRate: Int
    let channelCount: Int
    /// The shortest frame duration, invalid when not video or unknown.
    let minFrameDuration: CMTime
    /// Whether the container marks the track enabled (or marks no track at all).
    var isEnabled: Bool
    /// Whether the container marks the track its default (what a player picks without being told).
    var isDefault: Bool
    /// What else the container says about the track's role (forced, for accessibility, dubbed, …).
    var roles: StreamRoles
    /// Whether the track is a QuickTime chapter track (the file's chapters, not subtitles).
    var isChapterList: Bool
    /// The name of the HTTP Live Stream rendition the track is (its `EXT-X-MEDIA` entry's
    /// `NAME`), nil for other tracks.
    var renditionName: String?
    /// Whether FFmpeg has a decoder for the codec.
    let isDecodable: Bool
    /// Whether decode order differs from presentation order (B-frames).
    let requiresFrameReordering: Bool
    /// The track's metadata items, and those in the common key space.
    var metadata: [AVMetadataItem]
    var commonMetadata: [AVMetadataItem]

    /// What a composition track with no media yet knows: its ID and media type.
    init(emptyTrack trackID: CMPersistentTrackID, mediaType: AVMediaType) {
        self.init(madeTrack: trackID, mediaType: mediaType, formatDescription: nil)
    }

    /// A track made in memory rather than read from a file (a movie track's appended samples):
    /// its ID, media type and the samples' format (a video format's dimensions are its size).
    init(madeTrack trackID: CMPersistentTrackID, mediaType: AVMediaType, formatDescription: CMFormatDescription?) {
        streamIndex = -1
        self.trackID = trackID
        self.mediaType = mediaType
        self.formatDescription = formatDescription
        timeRange = CMTimeRange(start: .zero, duration: .zero)
        statedEnd = .invalid
        naturalTimeScale = 600
        estimatedDataRate = 0
        languageCode = nil
        if let formatDescription, formatDescription.mediaType == .video {
            let dimensions = CMVideoFormatDescriptionGetDimensions(formatDescription)
            naturalSize = CGSize(width: Int(dimensions.width), height: Int(dimensions.height))
        } else {
            naturalSize = .zero
        }
        codedWidth = 0
        codedHeight = 0
        preferredTransform = .identity
        nominalFrameRate = 0
        minFrameDuration = .invalid
        isEnabled = true
        isDefault = false
        roles = []
        isChapterList = false
        isDecodable = true
        requiresFrameReordering = false
        metadata = []
        commonMetadata = []
        codecName = ""
        sampleRate = 0
        channelCount = 0
    }

    init(stream: StreamDescription, demuxer: Demuxer, formatName: String, start: CMTime, duration: CMTime, durationIsStated: Bool) {
        streamIndex = stream.index
        trackID = stream.containerID > 0 ? CMPersistentTrackID(truncatingIfNeeded: stream.containerID)
                                          : CMPersistentTrackID(stream.index + 1)
        switch stream.kind {
        case .video: mediaType = .video
        case .audio: mediaType = .audio
        case .subtitle: mediaType = .subtitle
        // A QuickTime text track (chapters) that FFmpeg reads as data.
        case .data where stream.codecType == kCMTextFormatType_QTText: mediaType = .text
        default: mediaType = .metadata
        }
        formatDescription = demuxer.formatDescription(ofStream: stream.index)
        let trackStart = start.isNumeric ? start : .zero
        if mediaType == .subtitle, duration.isNumeric, trackStart > .zero {
            // A subtitle track spans the timeline from its start: before the first cue it shows
            // no text (MP4 files store an empty sample there), and a range from zero is its own.
            timeRange = CMTimeRange(start: .zero, duration: trackStart + duration)
        } else {
            timeRange = duration.isNumeric || duration.isIndefinite ? CMTimeRange(start: trackStart, duration: duration) : .invalid
        }
        // Only for a track that starts with the file: FFmpeg's MP4 reader states some late tracks'
        // durations from the timeline's start (edit lists, fragments), which would overstate the end.
        statedEnd = durationIsStated && trackStart <= AVError.cutShortTolerance ? timeRange.end : .invalid
        naturalTimeScale = stream.timeScale
        estimatedDataRate = Float(stream.bitRate)
        languageCode = stream.languageCode.flatMap { $0 == "und" ? nil : $0 }
        let pixelAspect = stream.pixelAspectRatio
        codedWidth = Int(stream.width)
        codedHeight = Int(stream.height)
        naturalSize = stream.kind == .video
            ? CGSize(width: Double(stream.width) * pixelAspect, height: Double(stream.height)) : .zero
        preferredTransform = stream.displayMatrix.map { m in
            CGAffineTransform(a: Double(m[0]) / 65536, b: Double(m[1]) / 65536, c: Double(m[3]) / 65536,
                              d: Double(m[4]) / 65536, tx: Double(m[6]) / 65536, ty: Double(m[7]) / 65536)
        } ?? .identity
        // The average rate FFmpeg measured, else the stream's base rate (Theora, FLV and MPEG-TS
        // state one and leave the average unknown) for a track that has frames.
        let hasFrames = timeRange.isValid && timeRange.duration != .zero
        let base = stream.minFrameDuration
        let baseRate: Float = hasFrames && base.isNumeric && base > .zero ? Float(1 / base.seconds) : 0
        nominalFrameRate = stream.kind != .video ? 0 : stream.frameRate > 0 ? Float(stream.frameRate) : baseRate
        codecName = stream.codecName
        sampleRate = stream.kind == .audio ? Int(stream.sampleRate) : 0
        channelCount = stream.kind == .audio ? Int(stream.channelCount) : 0
        minFrameDuration = stream.minFrameDuration
        isEnabled = stream.isDefault || demuxer.streams.allSatisfy { !$0.isDefault }
        isDefault = stream.isDefault
        roles = stream.roles
        isChapterList = stream.kind == .data && stream.codecType == kCMTextFormatType_QTText
        // FFmpeg's HLS reader names a rendition's stream by its NAME, in the comment tag.
        renditionName = formatName == "hls" ? stream.metadata.first { $0.key == "comment" }?.value : nil
        isDecodable = stream.isDecodable
        requiresFrameReordering = stream.requiresFrameReordering
        (metadata, commonMetadata) = AVMetadataItem.metadata(fromFFmpegTags: stream.metadata, formatName: formatName)
    }
}
