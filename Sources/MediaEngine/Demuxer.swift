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

    /// Opens `url` and reads enough of it to describe every stream; throws `EngineError` when
    /// the file is missing, unreadable or not media.
    package init(url: URL) throws(EngineError) {
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
        streams = (0..<Int(opened.pointee.nb_streams)).compactMap { index in
            opened.pointee.streams[index].map(StreamDescription.init(stream:))
        }
    }

    deinit {
        avformat_close_input(&context)
    }
}
