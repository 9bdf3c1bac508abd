import Foundation
import OpenCoreMedia

/// What a synchronizer's outputs call instead of their delegates, on the synchronizer's own
/// serial queue: each sample buffer, dropped frame and metadata frame becomes a datum of the
/// `SynchronizedDataAligner`.
final class SynchronizedOutputsReceiver: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate,
    AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable {
    /// The queue the outputs call on.
    let queue = DispatchQueue(label: "OpenAVFoundation.AVCaptureDataOutputSynchronizer")
    /// The synchronizer the aligner's collections go to.
    weak var synchronizer: AVCaptureDataOutputSynchronizer?
    private let aligner: SynchronizedDataAligner

    init(outputs: [AVCaptureOutput]) {
        aligner = SynchronizedDataAligner(outputs: outputs)
    }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        add(sampleBuffer, droppedReason: .none, from: output)
    }

    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let reason = CMGetAttachment(sampleBuffer, key: kCMSampleBufferAttachmentKey_DroppedFrameReason, attachmentModeOut: nil)
            .flatMap { $0 as? String }
        let dropped: AVCaptureOutput.DataDroppedReason = switch reason {
        case kCMSampleBufferDroppedFrameReason_FrameWasLate as String: .lateData
        case kCMSampleBufferDroppedFrameReason_OutOfBuffers as String: .outOfBuffers
        default: .discontinuity
        }
        add(sampleBuffer, droppedReason: dropped, from: output)
    }

    /// A metadata output read the frame at `time` (lasting `duration`) and found `objects`.
    func metadataOutput(_ output: AVCaptureMetadataOutput, didRead objects: [AVMetadataObject], at time: CMTime, duration: CMTime) {
        add(.init(start: time, end: time + duration,
                  data: AVCaptureSynchronizedMetadataObjectData(metadataObjects: objects, timestamp: time)), from: output)
    }

    private func add(_ sampleBuffer: CMSampleBuffer, droppedReason: AVCaptureOutput.DataDroppedReason, from output: AVCaptureOutput) {
        let start = CMSampleBufferGetPresentationTimeStamp(sampleBuffer)
        let duration = CMSampleBufferGetDuration(sampleBuffer)
        add(.init(start: start, end: duration.isNumeric ? start + duration : start,
                  data: AVCaptureSynchronizedSampleBufferData(sampleBuffer: sampleBuffer, droppedReason: droppedReason)),
            from: output)
    }

    private func add(_ datum: SynchronizedDataAligner.Datum, from output: AVCaptureOutput) {
        for collection in aligner.add(datum, from: output) { synchronizer?.deliver(collection) }
    }
}
