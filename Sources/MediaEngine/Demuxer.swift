import CFFmpeg
import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// An open media file: FFmpeg's demuxer (`AVFormatContext`) and what it found in the file.
/// Owns the context and closes it exactly once.
package final class Demuxer {
    /// The FFmpeg context, valid until deinit.
    private var context: UnsafeMutablePointer<AVFormatContext>?

    /// The file that was opened.
    package let url: URL
    /// The container's short names as FFmpeg reports them, such as "mov,mp4,m4a,3gp,3g2,mj2".
    package let formatName: String
    /// The container's duration, or invalid when the container does not state one.
    package let duration: CMTime
    /// The streams (tracks) of the file, in file order.
    package let streams: [StreamDescription]
    /// The container's metadata tags as FFmpeg reports them (key, value), in file order.
    package let metadata: [(key: String, value: String)]
    /// Whether the streams' durations are what the container's header states (QuickTime/MP4,
    /// Matroska, …), rather than FFmpeg's estimate from the timestamps at the file's end or from
    /// the bit rate: only a stated duration says how much a file should hold.
    package let statesDurations: Bool

    /// Opens `url` and reads enough of it to describe every stream; throws `EngineError` when
    /// the file is missing, unreadable or not media.
    package init(url: URL) throws(EngineError) {
        _ = FFmpegLog.install
        guard url.isFileURL else {
            throw EngineError(operation: "opening \(url)", message: "only file URLs can be opened")
        }
        self.url = url
        var context: UnsafeMutablePointer<AVFormatContext>?
        try ffmpegCheck(avformat_open_input(&context, url.path, nil, nil), "opening \(url.path)")
        guard let opened = context else {
            throw EngineError(operation: "opening \(url.path)", message: "FFmpeg returned no context")
        }
        self.context = opened
        do {
            try ffmpegCheck(avformat_find_stream_info(opened, nil), "reading stream information of \(url.path)")
        } catch {
            avformat_close_input(&self.context)
            throw error
        }
        formatName = opened.pointee.iformat.map { String(cString: $0.pointee.name) } ?? "unknown"
        let containerDuration = opened.pointee.duration
        duration = containerDuration > 0
            ? CMTime(value: containerDuration, timescale: cffmpeg_time_base())
            : .invalid
        metadata = StreamDescription.tags(opened.pointee.metadata)
        statesDurations = opened.pointee.duration_estimation_method == AVFMT_DURATION_FROM_STREAM
        streams = (0..<Int(opened.pointee.nb_streams)).compactMap { index in
            opened.pointee.streams[index].map(StreamDescription.init(stream:))
        }
    }

    deinit {
        avformat_close_input(&context)
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
    /// the demuxer's lifetime.
    package func codecParameters(ofStream index: Int) -> UnsafePointer<AVCodecParameters> {
        UnsafePointer(stream(index).pointee.codecpar)
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
            let packet = Packet()
            let status = av_read_frame(openContext, packet.pointer)
            if status == cffmpeg_averror_eof() { return nil }
            try ffmpegCheck(status, "reading \(url.path)")
            guard packet.streamIndex >= 0, packet.streamIndex < streams.count else { continue }
            packet.timeBase = timeBase(ofStream: packet.streamIndex)
            return packet
        }
    }

    /// Moves reading to the last key frame at or before `time` in stream `index`, so that
    /// decoding from there reaches `time`.
    package func seek(to time: CMTime, inStream index: Int) throws(EngineError) {
        let timestamp = time.ffmpegTimestamp(in: timeBase(ofStream: index))
        try ffmpegCheck(av_seek_frame(openContext, Int32(index), timestamp, AVSEEK_FLAG_BACKWARD),
                        "seeking \(url.path) to \(time.seconds) s")
    }
}
