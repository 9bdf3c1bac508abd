import CFFmpeg
import Foundation
import OpenCoreMedia

/// A chapter of a file as FFmpeg reads it (QuickTime chapter tracks, MP4 Nero chapters,
/// Matroska chapters, …): its title and where it lies on the file's timeline.
package struct DemuxedChapter: Sendable, Equatable {
    /// The chapter's title, empty when it has none.
    package let title: String
    /// Where the chapter lies, in the file's time.
    package let timeRange: CMTimeRange

    /// The chapters of an opened container, in order, each moved by `offset` (the offset taken
    /// off every timestamp read).
    static func chapters(of context: UnsafeMutablePointer<AVFormatContext>, offset: Int64) -> [DemuxedChapter] {
        (0..<Int(context.pointee.nb_chapters)).compactMap { index in
            guard let chapter = context.pointee.chapters[index]?.pointee else { return nil }
            let shift = av_rescale_q(offset, AVRational(num: 1, den: cffmpeg_time_base()), chapter.time_base)
            let start = CMTime(ffmpegTimestamp: chapter.start - shift, timeBase: chapter.time_base)
            let end = CMTime(ffmpegTimestamp: chapter.end - shift, timeBase: chapter.time_base)
            guard start.isNumeric, end.isNumeric else { return nil }
            let title = StreamDescription.tags(chapter.metadata).first { $0.key == "title" }?.value ?? ""
            return DemuxedChapter(title: title, timeRange: CMTimeRange(start: start, end: max(start, end)))
        }
    }
}
