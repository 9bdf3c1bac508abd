import CFFmpeg
import OpenCoreMedia

/// One decoded frame: FFmpeg's `AVFrame`, freed exactly once. Its buffers are reference-counted
/// by FFmpeg, so pixel and sample buffers can share them without a copy.
package final class Frame: @unchecked Sendable {
    /// The FFmpeg frame, valid until deinit.
    package let pointer: UnsafeMutablePointer<AVFrame>

    /// The time base of the frame's timestamps (its stream's).
    package internal(set) var timeBase = AVRational(num: 1, den: 1)

    /// An empty frame to decode into.
    package init() {
        guard let frame = av_frame_alloc() else { fatalError("av_frame_alloc: out of memory") }
        pointer = frame
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    /// The best-effort presentation timestamp in the stream's time base (FFmpeg's guess when
    /// the container gave none).
    package var bestEffortTimestamp: Int64 { pointer.pointee.best_effort_timestamp }
    /// The presentation time (FFmpeg's best effort), or invalid when unknown.
    package var presentationTime: CMTime { CMTime(ffmpegTimestamp: bestEffortTimestamp, timeBase: timeBase) }
    /// The duration of the packet the frame came from, or invalid when unknown.
    package var duration: CMTime {
        pointer.pointee.pkt_duration > 0 ? CMTime(ffmpegTimestamp: pointer.pointee.pkt_duration, timeBase: timeBase) : .invalid
    }
    /// Whether the frame's buffers are not shared with the decoder (it keeps no reference for
    /// predicting later frames), so they may be handed out and written to.
    package var isWritable: Bool { av_frame_is_writable(pointer) != 0 }
    /// Width in pixels (video).
    package var width: Int { Int(pointer.pointee.width) }
    /// Height in pixels (video).
    package var height: Int { Int(pointer.pointee.height) }
    /// Samples per channel (audio).
    package var sampleCount: Int { Int(pointer.pointee.nb_samples) }
}
