import Dispatch
import Foundation
import HostSystem
import MediaEngine
import OpenCoreMedia

/// Hands an `AVAssetWriter`'s segments to its delegate, in order, on a queue of its own (never
/// under the writer's locks), each with its report. The writer's `delegate` (weak, as Apple's)
/// is read at each delivery; a segment waiting keeps its writer until delivered.
///
/// The segments wait in a `BoundedQueue` that blocks: a delegate that falls `limits` behind
/// makes the appending thread wait for it, as a slow disk makes a file writer's, instead of
/// holding every segment in memory; none is dropped, since a segment lost breaks the stream.
/// Cancelling the writer ends such a wait (`cancel()`).
final class SegmentDelivery: @unchecked Sendable {
    /// How far the delegate may fall behind before appending waits: 64 segments (a few seconds
    /// of segments cut at every frame), or 64 MiB of them (a minute of 1080p in 6 s segments).
    static let limits = BoundedQueue<Delivery>.Limits(count: 64, bytes: 64 << 20)

    /// What waits for the delivery queue.
    enum Delivery {
        /// A segment for the writer's delegate, with the writer (kept until delivered).
        case segment(AVAssetWriter, Data, AVAssetSegmentType, AVAssetSegmentReport)
        /// Work to run once the segments before it are delivered.
        case then(@Sendable () -> Void)
    }

    private let queue = DispatchQueue(label: "OpenAVFoundation.AVAssetWriter.segments")
    private weak var writer: AVAssetWriter?
    /// The tracks' IDs and media types, by muxer track index.
    private let tracks: [(trackID: CMPersistentTrackID, mediaType: AVMediaType)]
    private let condition = NSCondition()
    /// What waits for the delivery queue, in order, behind `condition`.
    private var waiting = BoundedQueue<Delivery>(limits: limits, policy: .block) { delivery in
        guard case .segment(_, let data, _, _) = delivery else { return (0, .zero) }
        return (data.count, .zero)
    }
    /// Whether the delivery queue is taking from `waiting`.
    private var draining = false
    /// Whether the writer was cancelled: a segment finding no room is then dropped.
    private var cancelled = false

    init(writer: AVAssetWriter, tracks: [(trackID: CMPersistentTrackID, mediaType: AVMediaType)]) {
        self.writer = writer
        self.tracks = tracks
    }

    /// The muxer's handler: queues a segment for the delegate, waiting for room.
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
        hand(.segment(writer, data, type, report))
    }

    /// Runs `body` once every segment handed on so far has reached the delegate.
    func afterDelivered(_ body: @escaping @Sendable () -> Void) {
        hand(.then(body))
    }

    /// The writer was cancelled: a segment waiting for room is dropped, and so are those handed
    /// on later, so that a delegate that cancels its writer never waits for the appending thread
    /// that waits for it. The segments already waiting are still delivered.
    func cancel() {
        condition.withLock {
            cancelled = true
            condition.broadcast()
        }
    }

    /// Queues `delivery`, waiting for room (a segment of a cancelled writer is dropped), and
    /// starts the delivery queue when it is not taking already.
    private func hand(_ delivery: Delivery) {
        let start = condition.withLock { () -> Bool in
            while true {
                if case .segment = delivery, cancelled { return false }
                guard case .full = waiting.push(delivery) else { break }
                condition.wait()
            }
            guard !draining else { return false }
            draining = true
            return true
        }
        if start { queue.async { self.drain() } }
    }

    /// Delivers what waits, in order, until nothing does (on the delivery queue).
    private func drain() {
        while let delivery = condition.withLock({ () -> Delivery? in
            guard !waiting.isEmpty else {
                draining = false
                return nil
            }
            condition.broadcast()
            return waiting.pop()
        }) {
            switch delivery {
            case .segment(let writer, let data, let type, let report):
                writer.delegate?.assetWriter(writer, didOutputSegmentData: data, segmentType: type, segmentReport: report)
            case .then(let body):
                body()
            }
        }
    }
}
