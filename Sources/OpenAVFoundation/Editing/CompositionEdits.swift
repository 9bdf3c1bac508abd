import Foundation
import OpenCoreMedia

/// One edit of a composition track: a span of a source track presented at a span of the
/// composition's timeline, or an empty span.
struct CompositionEdit {
    /// The source track (a file's), nil for an empty edit.
    var source: AVAssetTrack?
    /// The source span (invalid for an empty edit) and where it is presented.
    var mapping: CMTimeMapping

    /// An edit presenting `range` of `track` at its natural duration.
    init(_ range: CMTimeRange, of track: AVAssetTrack) {
        source = track
        mapping = CMTimeMapping(source: range, target: CMTimeRange(start: .zero, duration: range.duration))
    }

    /// An empty edit lasting `duration`.
    init(emptyFor duration: CMTime) {
        mapping = CMTimeMappingMakeEmpty(target: CMTimeRange(start: .zero, duration: duration))
    }

    /// The segment object describing the edit.
    var segment: AVCompositionTrackSegment {
        guard let source else { return AVCompositionTrackSegment(timeRange: mapping.target) }
        return AVCompositionTrackSegment(sourceURL: try? source.assetLoader.contentsBlocking().get().url, sourceTrackID: source.trackID,
                                         timeMapping: mapping)
    }
}

/// The edits of a composition track, laid end to end from time zero, and the editing
/// operations of `AVMutableCompositionTrack` on them. Times are split and scaled with
/// `CMTimeMapping` arithmetic (exact rationals), never with seconds.
struct CompositionEdits {
    /// The edits in timeline order; each target range starts where the previous one ends.
    private(set) var edits: [CompositionEdit] = []

    /// Where the last edit ends.
    var end: CMTime { edits.last?.mapping.target.end ?? .zero }

    /// Inserts `inserted` (laid end to end) at `time`, pushing later media out by their total
    /// duration; a time past the end is reached with an empty edit.
    mutating func insert(_ inserted: [CompositionEdit], at time: CMTime) {
        if time > end { edits.append(CompositionEdit(emptyFor: time - end)) }
        let index = split(at: time)
        edits.insert(contentsOf: inserted, at: index)
        layOut()
    }

    /// Removes what `range` covers, pulling later media in.
    mutating func remove(_ range: CMTimeRange) {
        let first = split(at: range.start)
        let last = split(at: range.end)
        edits.removeSubrange(first..<last)
        layOut()
    }

    /// Makes what `range` covers last `duration`, each edit in proportion; later media moves
    /// by the difference.
    mutating func scale(_ range: CMTimeRange, to duration: CMTime) {
        let first = split(at: range.start)
        let last = split(at: range.end)
        let scaled = CMTimeRange(start: range.start, duration: duration)
        for index in first..<last {
            let target = edits[index].mapping.target
            edits[index].mapping.target.duration = CMTimeMapDurationFromRangeToRange(target.duration, fromRange: range, toRange: scaled)
        }
        layOut()
    }

    /// The edits overlapping `range`, cut at its ends, where they are on the timeline (what
    /// reading `range` reads).
    func edits(overlapping range: CMTimeRange) -> [CompositionEdit] {
        var copy = self
        let first = copy.split(at: range.start)
        let last = copy.split(at: range.end)
        return Array(copy.edits[first..<max(first, last)])
    }

    /// The edits covering `range`, cut at its ends and laid from zero (for inserting one
    /// composition's track into another).
    func edits(in range: CMTimeRange) -> [CompositionEdit] {
        var cut = CompositionEdits()
        cut.edits = edits(overlapping: range)
        cut.layOut()
        return cut.edits
    }

    /// Splits the edit that holds `time` strictly inside it in two, at the source time that
    /// `time` maps to; returns the index of the first edit starting at or after `time`.
    private mutating func split(at time: CMTime) -> Int {
        for (index, edit) in edits.enumerated() {
            let target = edit.mapping.target
            if time <= target.start { return index }
            guard time < target.end else { continue }
            var head = edit, tail = edit
            head.mapping.target = CMTimeRange(start: target.start, end: time)
            tail.mapping.target = CMTimeRange(start: time, end: target.end)
            if edit.source != nil {
                let source = edit.mapping.source
                let cut = CMTimeMapTimeFromRangeToRange(time, fromRange: target, toRange: source)
                head.mapping.source = CMTimeRange(start: source.start, end: cut)
                tail.mapping.source = CMTimeRange(start: cut, end: source.end)
            }
            edits.replaceSubrange(index...index, with: [head, tail])
            return index + 1
        }
        return edits.count
    }

    /// Lays the edits end to end from zero, dropping those that last no time and merging
    /// neighbouring empty edits into one.
    private mutating func layOut() {
        var laid: [CompositionEdit] = []
        var time = CMTime.zero
        for var edit in edits where edit.mapping.target.duration > .zero {
            let duration = edit.mapping.target.duration
            if edit.source == nil, let last = laid.indices.last, laid[last].source == nil {
                laid[last].mapping.target.duration = laid[last].mapping.target.duration + duration
            } else {
                edit.mapping.target.start = time
                laid.append(edit)
            }
            time = time + duration
        }
        edits = laid
    }
}

extension CompositionEdits {
    /// The edits presenting `range` of `track` in a track of `mediaType`, checked: a file's
    /// track gives one edit, a composition's or a movie's track its own edits of that span.
    static func edits(presenting range: CMTimeRange, of track: AVAssetTrack, into mediaType: AVMediaType) throws -> [CompositionEdit] {
        guard track.mediaType == mediaType else {
            throw AVError(.incompatibleAsset, reason: "a \(track.mediaType.rawValue) track cannot go into a \(mediaType.rawValue) track")
        }
        guard range.isValid, range.start.isNumeric, range.start >= .zero else {
            throw AVError(.invalidCompositionTrackSegmentSourceStartTime, reason: "the source range must start at a numeric time at or after zero")
        }
        guard range.duration.isNumeric, range.duration > .zero else {
            throw AVError(.invalidCompositionTrackSegmentSourceDuration, reason: "the source range must last a positive numeric time")
        }
        if let composed = track as? AVCompositionTrack {
            return composed.own.withLock { $0.edits.edits(in: range) }
        }
        if let movieTrack = track as? AVMovieTrack {
            return movieTrack.own.withLock { $0.edits.edits(in: range) }
        }
        let available = track.timeRange
        guard available.isValid, range.start >= available.start, range.start < available.end else {
            throw AVError(.invalidCompositionTrackSegmentSourceStartTime,
                          reason: "the source range starts at \(range.start.seconds) s, outside the track's \(available.start.seconds)–\(available.end.seconds) s")
        }
        return [CompositionEdit(range, of: track)]
    }
}
