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
    }

    /// The frame or the audio.
    package var payload: Payload
    /// The host time of the frame (or of the buffer's first audio sample).
    package var presentationTime: CMTime
    /// The frame duration, or the duration of all the audio samples in the buffer.
    package var duration: CMTime
    /// Counts frames (or audio buffers) from 0 at `start`; a gap is exactly the frames dropped.
    package var sequenceNumber: UInt64
    /// How many frames (or audio buffers) were dropped between the previous delivered sample and
    /// this one (late device thread, no free pool buffer, or a driver drop); 0 normally.
    package var droppedBefore: Int

    /// A sample.
    package init(payload: Payload, presentationTime: CMTime, duration: CMTime, sequenceNumber: UInt64,
                 droppedBefore: Int) {
        self.payload = payload
        self.presentationTime = presentationTime
        self.duration = duration
        self.sequenceNumber = sequenceNumber
        self.droppedBefore = droppedBefore
    }

    /// The pixel buffer of a video sample.
    package var pixelBuffer: CVPixelBuffer? {
        if case .video(let buffer) = payload { return buffer }
        return nil
    }

    /// The PCM sample buffer of an audio sample.
    package var sampleBuffer: CMSampleBuffer? {
        if case .audio(let buffer) = payload { return buffer }
        return nil
    }
}
