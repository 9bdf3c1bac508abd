import CFFmpeg
import Foundation
import OpenCoreMedia

/// What a muxer writing segments in memory (`Muxer(segmentsOf:cut:handler:)`) does: where it
/// cuts, and what it collects of each segment for its report.
package final class MuxerSegments {
    /// Where segments are cut.
    package enum Cut: Sendable {
        /// Before the first key frame of the video track (any sample without one) whose time,
        /// less `origin`, reaches the next multiple of `interval`.
        case every(CMTime, origin: CMTime)
        /// Only when `Muxer.flushSegment()` is called.
        case onRequest
    }

    /// What one track holds in a segment.
    package struct TrackSummary: Sendable {
        /// The track's index in the muxer.
        package var track: Int
        /// The earliest presentation time in the segment.
        package var earliestPresentationTime: CMTime
        /// From the earliest presentation time to the latest sample's end.
        package var duration: CMTime
        /// The first sample in decode order: its presentation time, where its bytes are in the
        /// segment, how many, and whether it is a sync sample.
        package var firstSample: (presentationTime: CMTime, offset: Int, length: Int, isSync: Bool)
    }

    /// A segment: its bytes, whether it is the initialization segment (the movie header), and
    /// the tracks it holds samples of (none for the initialization segment).
    package typealias Handler = (_ data: Data, _ isInitialization: Bool, _ tracks: [TrackSummary]) -> Void

    /// One sample written into the segment under way.
    private struct Sample {
        var track: Int
        var presentationTime: CMTime
        var end: CMTime
        var size: Int
        var isSync: Bool
    }

    /// Where cuts go; the origin may move until writing starts (the writer's session start).
    package var cut: Cut
    private let handler: Handler
    /// The bytes FFmpeg wrote since the last segment.
    private(set) var bytes = Data()
    private var samples: [Sample] = []
    /// The multiple of the interval the segment under way started at.
    private var segmentIndex: Int64 = 0
    /// The track whose key frames start segments: the first video track, or nil (any sample).
    var keyTrack: Int?

    init(cut: Cut, handler: @escaping Handler) {
        self.cut = cut
        self.handler = handler
    }

    /// FFmpeg's write callback: collects the bytes.
    func receive(_ buffer: UnsafePointer<UInt8>, count: Int) {
        bytes.append(buffer, count: count)
    }

    /// Which multiple of the interval (counted from the origin) a sample at `presentationTime` is at
    /// or past, in exact time units; nil unless segments are cut every interval.
    func intervalIndex(of presentationTime: CMTime) -> Int64? {
        guard case .every(let interval, let origin) = cut, presentationTime.isNumeric else { return nil }
        let elapsed = CMTimeConvertScale(presentationTime - origin, timescale: interval.timescale, method: .roundTowardNegativeInfinity)
        return elapsed.value >= 0 ? elapsed.value / interval.value : (elapsed.value - interval.value + 1) / interval.value
    }

    /// Whether a segment is cut before this sample.
    func cutsBefore(track: Int, presentationTime: CMTime, isSync: Bool) -> Bool {
        guard isSync, keyTrack == nil || keyTrack == track, let index = intervalIndex(of: presentationTime) else { return false }
        if samples.isEmpty {
            // The first sample: the first segment starts in its interval.
            segmentIndex = max(segmentIndex, index)
            return false
        }
        guard index > segmentIndex else { return false }
        segmentIndex = index
        return true
    }

    /// Notes a sample written to the segment under way.
    func note(track: Int, presentationTime: CMTime, duration: CMTime, size: Int, isSync: Bool) {
        let end = duration.isNumeric && duration > .zero ? presentationTime + duration : presentationTime
        samples.append(Sample(track: track, presentationTime: presentationTime, end: end, size: size, isSync: isSync))
    }

    /// Whether the initialization segment was handed on.
    private(set) var initializationSent = false

    /// Hands on what FFmpeg wrote at the first flush: the movie header alone (the samples stay
    /// for the fragment the next flush writes), as the initialization segment.
    func deliverInitialization() {
        handler(bytes, true, [])
        bytes = Data()
        initializationSent = true
    }

    /// Hands on the fragment FFmpeg wrote since the last segment, with its tracks' summaries.
    func deliver() {
        let data = bytes
        bytes = Data()
        guard !samples.isEmpty, !data.isEmpty else { return }
        handler(data, false, summaries(in: data))
        samples = []
    }

    /// The tracks' summaries of a fragment: FFmpeg's MP4 muxer puts each track's samples in
    /// the fragment's `mdat` one track after the other, in track order, each in decode order.
    private func summaries(in fragment: Data) -> [TrackSummary] {
        let dataStart = (Self.offset(ofBox: "mdat", in: fragment) ?? 0) + 8
        var offset = dataStart
        var result: [TrackSummary] = []
        for track in Set(samples.map(\.track)).sorted() {
            let own = samples.filter { $0.track == track }
            let earliest = own.map(\.presentationTime).min()!
            let latest = own.map(\.end).max()!
            let first = own[0]
            result.append(TrackSummary(track: track, earliestPresentationTime: earliest, duration: latest - earliest,
                                       firstSample: (first.presentationTime, offset, first.size, first.isSync)))
            offset += own.reduce(0) { $0 + $1.size }
        }
        return result
    }

    /// Where the first top-level box of `type` starts in `data`, or nil.
    static func offset(ofBox type: String, in data: Data) -> Int? {
        let wanted = Array(type.utf8)
        return data.withUnsafeBytes { bytes in
            var position = 0
            while position + 8 <= bytes.count {
                let size = bytes[position..<(position + 4)].reduce(0) { $0 << 8 | Int($1) }
                if bytes[(position + 4)..<(position + 8)].elementsEqual(wanted) { return position }
                guard size >= 8 else { return nil }
                position += size
            }
            return nil
        }
    }
}
