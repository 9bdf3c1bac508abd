import Foundation
import OpenCoreMedia

/// A video or audio data output's sample buffer in a synchronized collection, or the report of
/// one the output dropped.
public final class AVCaptureSynchronizedSampleBufferData: AVCaptureSynchronizedData, @unchecked Sendable {
    /// The sample buffer; for a dropped one, a buffer with its timing and format and no data.
    public let sampleBuffer: CMSampleBuffer
    /// Whether the output dropped this buffer (then `droppedReason` says why).
    public let sampleBufferWasDropped: Bool
    /// Why the buffer was dropped; `.none` when it was not.
    public let droppedReason: AVCaptureOutput.DataDroppedReason

    init(sampleBuffer: CMSampleBuffer, droppedReason: AVCaptureOutput.DataDroppedReason) {
        self.sampleBuffer = sampleBuffer
        sampleBufferWasDropped = droppedReason != .none
        self.droppedReason = droppedReason
        super.init(timestamp: CMSampleBufferGetPresentationTimeStamp(sampleBuffer))
    }
}
