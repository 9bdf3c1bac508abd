import Dispatch
import Foundation
import MediaEngine
import OpenCoreMedia

/// Hands an `AVAssetWriter`'s segments to its delegate, in order, on a queue of its own (never
/// under the writer's locks), each with its report. The writer's `delegate` (weak, as Apple's)
/// is read at each delivery; a segment queued keeps its writer until delivered.
final class SegmentDelivery: @unchecked Sendable {
    private let queue = DispatchQueue(label: "OpenAVFoundation.AVAssetWriter.segments")
    private weak var writer: AVAssetWriter?
    /// The tracks' IDs and media types, by muxer track index.
    private let tracks: [(trackID: CMPersistentTrackID, mediaType: AVMediaType)]

    init(writer: AVAssetWriter, tracks: [(trackID: CMPersistentTrackID, mediaType: AVMediaType)]) {
        self.writer = writer
        self.tracks = tracks
    }

    /// The muxer's handler: queues a segment for the delegate.
    func deliver(_ data: Data, isInitialization: Bool, summaries: [MuxerSegments.TrackSummary]) {
        let type: AVAssetSegmentType = isInitialization ? .initialization : .separable
        let reports = summaries.map { summary in
            let track = tracks[summary.track]
            let first = summary.firstSample
            return AVAssetSegmentTrackReport(
                trackID: track.trackID, mediaType: track.mediaType,
                earliestPresentationTimeStamp: summary.earliestPresentationTime, duration: summary.duration,
                firstVideoSampleInformation: track.mediaType == .video
                    ? AVAssetSegmentReportSampleInformation(presentationTimeStamp: first.presentationTime, offset: first.offset,
                                                            length: first.length, isSyncSample: first.isSync)
                    : nil)
        }
        let report = AVAssetSegmentReport(segmentType: type, trackReports: reports)
        guard let writer else { return }
        queue.async {
            guard let delegate = writer.delegate else { return }
            delegate.assetWriter(writer, didOutputSegmentData: data, segmentType: type, segmentReport: report)
        }
    }

    /// Runs `body` once every segment handed on so far has reached the delegate.
    func afterDelivered(_ body: @escaping @Sendable () -> Void) {
        queue.async(execute: body)
    }
}
