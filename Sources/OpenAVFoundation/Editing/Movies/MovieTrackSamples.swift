import Foundation
import OpenCoreMedia

/// The stored samples of a movie track's edits, one edit after the other, each sample moved
/// (and scaled in time) to where its edit presents it: what `MovieFileWriting` appends.
///
/// A file's span is read as stored (passthrough); appended samples are taken from memory.
/// Video keeps the samples before an edit's start back to its key frame, so that the edit
/// decodes: the first edit's lie before zero or in the empty span before it (the file's edit
/// list hides them); a later edit's would overlap the edit before, so the later edit is
/// pushed back to start after it (its key frame then shows at the edit's start). Video shown
/// after an edit's end is left out unless a frame shown inside it is decoded from it. Other
/// media is cut to each edit's span at the sample. Decode times only ever increase.
final class MovieTrackSamples {
    private var edits: ArraySlice<CompositionEdit>
    private let isVideo: Bool
    /// The smallest step of the track's timescale, by which a pushed edit follows the one before.
    private let tick: CMTime
    /// The edit being read: where its samples come from and where they go.
    private var current: (next: () -> CMSampleBuffer?, pipeline: TrackPipeline?, mapping: CMTimeMapping, shift: CMTime?)?
    /// The decode time of the last sample handed out.
    private var lastDecodeTime: CMTime?
    /// Video samples of the edit shown after its end, held until a sample shown inside it
    /// comes after them in decode order (they are then its references and go out first);
    /// dropped when the edit ends.
    private var held: [CMSampleBuffer] = []
    /// Samples of the edit due out before the next one is read.
    private var ready: [CMSampleBuffer] = []

    init(edits: [CompositionEdit], mediaType: AVMediaType, timeScale: CMTimeScale) {
        self.edits = edits.filter { $0.source != nil }[...]
        isVideo = mediaType == .video
        tick = CMTime(value: 1, timescale: max(timeScale, 600))
    }

    /// The next sample, nil when every edit is written.
    func next() throws -> CMSampleBuffer? {
        while true {
            if current == nil {
                guard let edit = edits.popFirst() else { return nil }
                current = try Self.open(edit)
            }
            guard let reading = current else { continue }
            if !ready.isEmpty {
                if let placed = try place(ready.removeFirst()) { return placed }
                continue
            }
            guard let sample = reading.next() else {
                if let failure = reading.pipeline?.failure { throw failure }
                current = nil
                held = []
                continue
            }
            if isVideo, sample.presentationTimeStamp >= reading.mapping.source.end {
                held.append(sample)
                continue
            }
            ready = held + [sample]
            held = []
        }
    }

    /// Where the samples of `edit` come from.
    private static func open(_ edit: CompositionEdit) throws
        -> (next: () -> CMSampleBuffer?, pipeline: TrackPipeline?, mapping: CMTimeMapping, shift: CMTime?) {
        guard let source = edit.source else { preconditionFailure("empty edits have no samples") }
        if let media = source as? MovieSampleMedia {
            var samples = media.samples(for: edit.mapping.source)[...]
            return ({ samples.popFirst() }, nil, edit.mapping, nil)
        }
        guard let format = source.contents.formatDescription else {
            throw AVError(.formatUnsupported, reason: "a \(source.mediaType.rawValue) track without a format description cannot be copied")
        }
        let pipeline = try edit.makeSourcePipeline(mode: .passthrough(format), alwaysCopiesSampleData: false)
        return ({ pipeline.next() }, pipeline, edit.mapping, nil)
    }

    /// `sample` moved to its place in the track (nil: nothing of it is inside the edit).
    private func place(_ sample: CMSampleBuffer) throws -> CMSampleBuffer? {
        guard let mapping = current?.mapping else { return nil }
        var entries = 0
        CMSampleBufferGetSampleTimingInfoArray(sample, entryCount: 0, arrayToFill: nil, entriesNeededOut: &entries)
        var timing = [CMSampleTimingInfo](repeating: CMSampleTimingInfo(), count: max(entries, 1))
        CMSampleBufferGetSampleTimingInfoArray(sample, entryCount: timing.count, arrayToFill: &timing, entriesNeededOut: &entries)
        guard entries > 0, timing[0].presentationTimeStamp.isNumeric else { return nil }
        let source = mapping.source, target = mapping.target
        for index in timing.indices {
            var entry = timing[index]
            let start = CMTimeMapTimeFromRangeToRange(entry.presentationTimeStamp, fromRange: source, toRange: target)
            var duration = entry.duration.isNumeric ? CMTimeMapDurationFromRangeToRange(entry.duration, fromRange: source, toRange: target) : .invalid
            var decode = entry.decodeTimeStamp.isNumeric
                ? CMTimeMapTimeFromRangeToRange(entry.decodeTimeStamp, fromRange: source, toRange: target) : CMTime.invalid
            var presentation = start
            if !isVideo, entries == 1, CMSampleBufferGetNumSamples(sample) == 1 {
                // Cut to the edit's span at the sample.
                let end = duration.isNumeric ? min(start + duration, target.end) : target.end
                presentation = max(start, target.start)
                guard presentation < target.end, end > presentation || !duration.isNumeric else { return nil }
                if duration.isNumeric { duration = end - presentation }
                if decode.isNumeric { decode = presentation }
            }
            entry.presentationTimeStamp = presentation
            entry.decodeTimeStamp = decode
            entry.duration = duration
            timing[index] = entry
        }
        // The edit's first sample fixes how far the edit is pushed back; later ones follow.
        let first = timing[0].decodeTimeStamp.isNumeric ? timing[0].decodeTimeStamp : timing[0].presentationTimeStamp
        if current?.shift == nil {
            current?.shift = lastDecodeTime.map { last in first <= last ? last - first + tick : .zero } ?? .zero
        }
        var shift = current?.shift ?? .zero
        if let last = lastDecodeTime, first + shift <= last { shift = last - first + tick }
        for index in timing.indices where shift != .zero {
            timing[index].presentationTimeStamp = timing[index].presentationTimeStamp + shift
            if timing[index].decodeTimeStamp.isNumeric { timing[index].decodeTimeStamp = timing[index].decodeTimeStamp + shift }
        }
        let last = timing[timing.count - 1]
        lastDecodeTime = last.decodeTimeStamp.isNumeric ? last.decodeTimeStamp : last.presentationTimeStamp
        guard let placed = sample.retimed(timing) else {
            throw AVError(.unknown, reason: "a sample could not be moved to its place in the movie")
        }
        return placed
    }
}
