import CFFmpeg

/// One decoded frame: FFmpeg's `AVFrame`, freed exactly once. Its buffers are reference-counted
/// by FFmpeg, so pixel and sample buffers can share them without a copy.
package final class Frame: @unchecked Sendable {
    /// The FFmpeg frame, valid until deinit.
    package let pointer: UnsafeMutablePointer<AVFrame>

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
    /// Width in pixels (video).
    package var width: Int { Int(pointer.pointee.width) }
    /// Height in pixels (video).
    package var height: Int { Int(pointer.pointee.height) }
    /// Samples per channel (audio).
    package var sampleCount: Int { Int(pointer.pointee.nb_samples) }
}
