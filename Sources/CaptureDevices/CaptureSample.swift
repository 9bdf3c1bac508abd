import OpenCoreMedia
import OpenCoreVideo

/// One unit of captured media as a device delivers it: a video frame or a buffer of audio.
///
/// Times are on the host time clock (`CMClock.hostTimeClock`, `CLOCK_MONOTONIC`): a time `t`
/// means `t` seconds since the clock's epoch, whatever the timescale. The virtual devices use the
/// timescale of their frame duration or sample rate so that every time is exact (see
/// `TestPatternCamera` and `TestToneMicrophone`).
package struct CaptureSample: Sendable {
    /// What the sample carries.
    package enum Payload: Sendable {
        /// A video frame, from the device's pixel buffer pool: release it promptly.
        case video(CVPixelBuffer)
        /// Interleaved linear PCM with per-sample host-clock timing.
        case audio(CMSampleBuffer)
        /// A frame as a camera that compresses sent it (`CaptureVideoFormat.codecType`): a
        /// one-sample buffer with its format description, times and sync flag, and its decoded
        /// picture (from the device's pool) when the device decodes
        /// (`CaptureDeviceBackend.decodesCompressedFrames`) and could decode this frame.
        case compressedVideo(CMSampleBuffer, decoded: CVPixelBuffer?)
    }

    /// The frame or the audio.
    package var payload: Payload
    /// The host time of the frame (or of the buffer's first audio sample).
    package var presentationTime: CMTime
    /// The frame duration, or the duration of all the audio samples in the buffer.
    package var duration: CMTime
    /// Counts frames (or audio buffers) from 0 at `start`; a gap is exactly the frames dropped.
    package var sequenceNumber: UInt64
    /// The frames (or audio buffers) dropped between the previous delivered sample and this one,
    /// oldest first, in runs of one reason; empty normally.
    package var drops: [CaptureDropRun]

    /// A sample.
    package init(payload: Payload, presentationTime: CMTime, duration: CMTime, sequenceNumber: UInt64,
                 drops: [CaptureDropRun] = []) {
        self.payload = payload
        self.presentationTime = presentationTime
        self.duration = duration
        self.sequenceNumber = sequenceNumber
        self.drops = drops
    }

    /// How many frames (or audio buffers) were dropped before this one, for every reason.
    package var droppedBefore: Int { drops.reduce(0) { $0 + $1.count } }

    /// Whether the sample is a video frame (with or without a picture).
    package var isVideo: Bool {
        if case .audio = payload { return false }
        return true
    }

    /// The picture of a video sample: its pixel buffer, or a compressed frame's decoded picture.
    package var pixelBuffer: CVPixelBuffer? {
        switch payload {
        case .video(let buffer): buffer
        case .compressedVideo(_, let decoded): decoded
        case .audio: nil
        }
    }

    /// The compressed frame of a camera that compresses.
    package var compressedVideo: CMSampleBuffer? {
        if case .compressedVideo(let buffer, _) = payload { return buffer }
        return nil
    }

    /// The PCM sample buffer of an audio sample.
    package var sampleBuffer: CMSampleBuffer? {
        if case .audio(let buffer) = payload { return buffer }
        return nil
    }
}

/// Why a device dropped frames (or audio buffers), so that outputs can tell clients
/// (`kCMSampleBufferDroppedFrameReason_…`).
package enum CaptureDropReason: Sendable, Hashable {
    /// The device fell behind (its thread woke late, the driver skipped): the frames were due
    /// while it could not produce them.
    case late
    /// Every buffer of the device's pool was still held by the client.
    case outOfBuffers
}

/// Consecutive frames dropped for one reason.
package struct CaptureDropRun: Sendable, Hashable {
    /// Why.
    package var reason: CaptureDropReason
    /// How many, at least one.
    package var count: Int

    /// A run of drops.
    package init(_ reason: CaptureDropReason, count: Int) {
        self.reason = reason
        self.count = count
    }
}

extension [CaptureDropRun] {
    /// Adds `count` drops after the ones recorded, extending the last run when the reason is
    /// the same.
    package mutating func record(_ count: Int, _ reason: CaptureDropReason) {
        guard count > 0 else { return }
        if let last = indices.last, self[last].reason == reason {
            self[last].count += count
        } else {
            append(CaptureDropRun(reason, count: count))
        }
    }
}
