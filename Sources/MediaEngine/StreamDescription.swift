import CFFmpeg
import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// What a demuxer knows about one stream before decoding it.
package struct StreamDescription: Sendable {
    /// The kind of media a stream carries, as CoreMedia names it.
    package enum MediaKind: String, Sendable {
        case video, audio, subtitle, data, attachment, unknown
    }

    /// The stream's index in its file.
    package let index: Int
    /// The kind of media.
    package let kind: MediaKind
    /// CoreMedia's code for the codec ('avc1', 'aac ', …), 0 when unknown.
    package let codecType: FourCharCode
    /// The time of the stream's first sample, or invalid.
    package internal(set) var startTime: CMTime
    /// The stream's duration as the container states it, or invalid.
    package let duration: CMTime
    /// Width and height in pixels (video), 0 otherwise.
    package let width: Int32, height: Int32
    /// The average frame rate (video), 0 when unknown.
    package let frameRate: Double
    /// The display matrix as the file stores it (a b u c d v x y w; 16.16 and 2.30 fixed
    /// point), nil when the file has none.
    package let displayMatrix: [Int32]?
    /// The container's own ID of the stream (MP4/MOV track ID, Matroska track number), 0 when none.
    package let containerID: Int32
    /// Samples per second (audio), 0 otherwise.
    package let sampleRate: Int32
    /// Channels (audio), 0 otherwise.
    package let channelCount: Int32
    /// Bits per second, 0 when unknown.
    package let bitRate: Int64
    /// The ISO 639-2 language code from the stream's metadata, or nil.
    package let languageCode: String?
    /// The stream's metadata tags as FFmpeg reports them (key, value), in file order.
    package let metadata: [(key: String, value: String)]
    /// Whether the container marks the stream as a default track (enabled).
    package let isDefault: Bool
    /// What else the container says about the stream's role (FFmpeg's dispositions).
    package let roles: StreamRoles
    /// The width of a pixel over its height (1 when the container states none).
    package let pixelAspectRatio: Double
    /// A video stream's shortest frame duration (from its real frame rate); invalid when unknown.
    package let minFrameDuration: CMTime
    /// The stream's time scale (ticks per second of its time base).
    package let timeScale: CMTimeScale
    /// Whether this FFmpeg has a decoder for the stream's codec.
    package let isDecodable: Bool
    /// Whether the stream's frames are stored in another order than they are shown (B-frames).
    package let requiresFrameReordering: Bool
    /// FFmpeg's short name of the stream's codec ("vorbis", "wmav2", "theora").
    package let codecName: String
    /// The picture of an attached-picture stream (an MP3's or M4A's cover art: one still image,
    /// not a track), as stored (PNG or JPEG); nil for every other stream.
    package let attachedPicture: Data?

    /// Describes `stream` of an open format context.
    init(stream pointer: UnsafeMutablePointer<AVStream>) {
        let stream = pointer.pointee
        let parameters = stream.codecpar.pointee
        index = Int(stream.index)
        switch parameters.codec_type {
        case AVMEDIA_TYPE_VIDEO: kind = .video
        case AVMEDIA_TYPE_AUDIO: kind = .audio
        case AVMEDIA_TYPE_SUBTITLE: kind = .subtitle
        case AVMEDIA_TYPE_DATA: kind = .data
        case AVMEDIA_TYPE_ATTACHMENT: kind = .attachment
        default: kind = .unknown
        }
        codecType = CodecMapping.fourCC(for: parameters)
        codecName = avcodec_get_name(parameters.codec_id).map { String(cString: $0) } ?? "unknown"
        startTime = CMTime(ffmpegTimestamp: stream.start_time, timeBase: stream.time_base)
        duration = stream.duration > 0 ? CMTime(ffmpegTimestamp: stream.duration, timeBase: stream.time_base) : .invalid
        width = parameters.width
        height = parameters.height
        frameRate = stream.avg_frame_rate.den > 0 ? av_q2d(stream.avg_frame_rate) : 0
        var matrixSize: Int = 0
        if let matrix = av_stream_get_side_data(pointer, AV_PKT_DATA_DISPLAYMATRIX, &matrixSize),
           matrixSize >= 9 * MemoryLayout<Int32>.size {
            displayMatrix = matrix.withMemoryRebound(to: Int32.self, capacity: 9) { Array(UnsafeBufferPointer(start: $0, count: 9)) }
        } else {
            displayMatrix = nil
        }
        containerID = stream.id
        sampleRate = parameters.sample_rate
        channelCount = parameters.ch_layout.nb_channels
        bitRate = parameters.bit_rate
        languageCode = av_dict_get(stream.metadata, "language", nil, 0).map { String(cString: $0.pointee.value) }
        metadata = Self.tags(stream.metadata)
        isDefault = stream.disposition & AV_DISPOSITION_DEFAULT != 0
        roles = StreamRoles(disposition: stream.disposition)
        attachedPicture = stream.disposition & AV_DISPOSITION_ATTACHED_PIC != 0
            ? stream.attached_pic.data.map { Data(bytes: $0, count: Int(stream.attached_pic.size)) } ?? Data() : nil
        let aspect = parameters.sample_aspect_ratio
        pixelAspectRatio = aspect.num > 0 && aspect.den > 0 ? Double(aspect.num) / Double(aspect.den) : 1
        minFrameDuration = kind == .video && stream.r_frame_rate.num > 0
            ? CMTime(value: Int64(stream.r_frame_rate.den), timescale: stream.r_frame_rate.num) : .invalid
        timeScale = stream.time_base.num == 1 ? stream.time_base.den : stream.time_base.den / max(1, stream.time_base.num)
        isDecodable = avcodec_find_decoder(parameters.codec_id) != nil
        requiresFrameReordering = parameters.video_delay > 0
    }

    /// The entries of an FFmpeg metadata dictionary, in order.
    static func tags(_ dictionary: OpaquePointer?) -> [(key: String, value: String)] {
        var entries: [(key: String, value: String)] = []
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            entries.append((String(cString: next.pointee.key), String(cString: next.pointee.value)))
            entry = next
        }
        return entries
    }
}
