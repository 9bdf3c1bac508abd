import Foundation
import OpenCoreMedia

/// The samples of a composition's video track (decoded pictures) or subtitle track (cues as
/// stored): each edit's source span read from its file in turn, every sample moved to where the
/// edit presents it (and scaled in time with the edit), cut to the edit's span. Empty edits show
/// nothing. (Audio is resampled to its place instead: `CompositionAudioPipeline`.)
final class CompositionSamplePipeline: SamplePipeline {
    private var edits: ArraySlice<CompositionEdit>
    private let mode: TrackPipeline.Mode
    private let alwaysCopiesSampleData: Bool
    /// Whether the first picture is delivered even when it starts before the range (the image
    /// generator's fast path).
    private var deliversFirstFrame: Bool
    private var current: (pipeline: TrackPipeline, mapping: CMTimeMapping)?
    private(set) var failure: AVError?

    /// Reads `edits` (cut to the reading range) decoded as `mode`.
    init(edits: [CompositionEdit], mode: TrackPipeline.Mode, alwaysCopiesSampleData: Bool, deliversFirstFrame: Bool) {
        self.edits = edits.filter { $0.source != nil }[...]
        self.mode = mode
        self.alwaysCopiesSampleData = alwaysCopiesSampleData
        self.deliversFirstFrame = deliversFirstFrame
    }

    func next() -> CMSampleBuffer? {
        while failure == nil {
            if current == nil {
                guard let edit = edits.popFirst() else { return nil }
                do {
                    let pipeline = try edit.makeSourcePipeline(mode: mode, alwaysCopiesSampleData: alwaysCopiesSampleData,
                                                               deliversFirstFrame: deliversFirstFrame)
                    current = (pipeline, edit.mapping)
                } catch {
                    failure = error
                    return nil
                }
            }
            guard let (pipeline, mapping) = current else { continue }
            if let sample = pipeline.next() {
                if let placed = Self.place(sample, mapping) {
                    deliversFirstFrame = false
                    return placed
                }
                continue
            }
            if let error = pipeline.failure { failure = error }
            current = nil
        }
        return nil
    }

    /// The sample at its composition time, cut to the edit's span; nil when nothing of it is
    /// inside.
    static func place(_ sample: CMSampleBuffer, _ mapping: CMTimeMapping) -> CMSampleBuffer? {
        let time = sample.presentationTimeStamp, duration = sample.duration
        guard time.isNumeric else { return nil }
        let target = mapping.target
        var start = CMTimeMapTimeFromRangeToRange(time, fromRange: mapping.source, toRange: target)
        var end = duration.isNumeric
            ? CMTimeMapTimeFromRangeToRange(time + duration, fromRange: mapping.source, toRange: target) : target.end
        start = max(start, target.start)
        end = min(end, target.end)
        guard start < target.end, end > start else { return nil }
        var timing = CMSampleTimingInfo(duration: end - start, presentationTimeStamp: start, decodeTimeStamp: .invalid)
        var placed: CMSampleBuffer?
        CMSampleBufferCreateCopyWithNewTiming(allocator: nil, sampleBuffer: sample, sampleTimingEntryCount: 1,
                                              sampleTimingArray: &timing, sampleBufferOut: &placed)
        return placed
    }
}
