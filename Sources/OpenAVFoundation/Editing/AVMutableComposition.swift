import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// A composition you edit: add and remove tracks, and insert, remove and scale time ranges
/// across all of them (the guide's *Editing* chapter).
///
/// Differs from Apple: only audio and video tracks of an inserted asset are inserted (other
/// media cannot be read from a composition here).
open class AVMutableComposition: AVComposition, @unchecked Sendable {
    /// An empty composition.
    public convenience init() {
        self.init(sourceOptions: [:])
    }

    /// An empty composition whose source assets open with `URLAssetInitializationOptions`.
    public convenience init(urlAssetInitializationOptions URLAssetInitializationOptions: [String: Any]? = nil) {
        self.init(sourceOptions: URLAssetInitializationOptions ?? [:])
    }

    override init(sourceOptions options: [String: Any]) {
        super.init(sourceOptions: options)
    }

    /// The size of the composition's pictures; set zero to go back to the first video
    /// track's natural size.
    open override var naturalSize: CGSize {
        get { super.naturalSize }
        set { state.authoredSize = newValue }
    }

    /// The mutable composition track with the given ID, or nil.
    open override func track(withTrackID trackID: CMPersistentTrackID) -> AVMutableCompositionTrack? {
        super.track(withTrackID: trackID) as? AVMutableCompositionTrack
    }

    /// The mutable composition track with the given ID, or nil (a composition has nothing to
    /// load).
    open override func loadTrack(withTrackID trackID: CMPersistentTrackID) async throws -> AVMutableCompositionTrack? {
        track(withTrackID: trackID)
    }

    /// The composition's tracks with the given media type, as the mutable tracks they are: so
    /// `composition.tracks(withMediaType: .video).first?.preferredTransform = transform`
    /// edits the composition, as on Apple platforms.
    public func tracks(withMediaType mediaType: AVMediaType) -> [AVMutableCompositionTrack] {
        compositionTracks.compactMap { $0.mediaType == mediaType ? $0 as? AVMutableCompositionTrack : nil }
    }

    /// The composition's tracks that have the given media characteristic, as mutable tracks.
    public func tracks(withMediaCharacteristic mediaCharacteristic: AVMediaCharacteristic) -> [AVMutableCompositionTrack] {
        compositionTracks.compactMap { $0.hasMediaCharacteristic(mediaCharacteristic) ? $0 as? AVMutableCompositionTrack : nil }
    }

    /// Adds an empty track of `mediaType` with `preferredTrackID`, or a new unique ID when
    /// that is `kCMPersistentTrackID_Invalid` or taken.
    open func addMutableTrack(withMediaType mediaType: AVMediaType, preferredTrackID: CMPersistentTrackID) -> AVMutableCompositionTrack? {
        state.withLock { s in
            let taken = Set(s.tracks.map(\.trackID))
            let trackID = preferredTrackID > 0 && !taken.contains(preferredTrackID) ? preferredTrackID : (taken.max() ?? 0) + 1
            let track = AVMutableCompositionTrack(composition: self, trackID: trackID, mediaType: mediaType)
            s.tracks.append(track)
            return track
        }
    }

    /// Removes a track from the composition.
    open func removeTrack(_ track: AVCompositionTrack) {
        state.withLock { s in s.tracks.removeAll { $0 === track } }
    }

    /// A track of the composition that `track`'s media can be inserted into: the first of the
    /// same media type (every format is decoded, so any is compatible), or nil.
    open func mutableTrack(compatibleWith track: AVAssetTrack) -> AVMutableCompositionTrack? {
        compositionTracks.lazy.compactMap { $0 as? AVMutableCompositionTrack }.first { $0.mediaType == track.mediaType }
    }

    /// Inserts `timeRange` of every audio, video and text subtitle track of `asset` at `startTime`, pushing
    /// later media out by the range's duration in every track. Each source track goes into
    /// the first compatible track not used by this insertion, or a new one. A source track
    /// shorter than the range leaves the rest of it empty.
    open func insertTimeRange(_ timeRange: CMTimeRange, of asset: AVAsset, at startTime: CMTime) throws {
        if case .failure(let error) = asset.loader.contentsBlocking() { throw error }
        guard timeRange.isValid, timeRange.start.isNumeric, timeRange.duration.isNumeric, timeRange.duration > .zero else {
            throw AVError(.invalidCompositionTrackSegmentSourceDuration, reason: "the time range must be a positive numeric span")
        }
        // Video, audio, and subtitles of text (bitmap subtitles cannot be read here).
        let sources = asset.tracks.filter { track in
            track.mediaType == .video || track.mediaType == .audio || (track.mediaType == .subtitle && track.contents.formatDescription != nil)
        }
        var used: [AVMutableCompositionTrack] = []
        var plan: [(AVMutableCompositionTrack, AVAssetTrack)] = []
        for source in sources {
            let existing = compositionTracks.lazy.compactMap { $0 as? AVMutableCompositionTrack }
                .first { candidate in candidate.mediaType == source.mediaType && !used.contains { $0 === candidate } }
            guard let target = existing ?? addMutableTrack(withMediaType: source.mediaType, preferredTrackID: source.trackID) else { continue }
            used.append(target)
            plan.append((target, source))
        }
        for (target, source) in plan {
            let available = source.timeRange
            if available.isValid, timeRange.start >= available.start, timeRange.start < available.end {
                try target.insertTimeRange(timeRange, of: source, at: startTime)
            } else {
                target.insertEmptyTimeRange(CMTimeRange(start: startTime, duration: timeRange.duration))
            }
        }
        // Tracks the asset has nothing for are pushed out as well, so that everything stays in sync.
        for track in compositionTracks.compactMap({ $0 as? AVMutableCompositionTrack }) where !used.contains(where: { $0 === track }) {
            if startTime < track.timeRange.end {
                track.insertEmptyTimeRange(CMTimeRange(start: startTime, duration: timeRange.duration))
            }
        }
    }

    /// Inserts `timeRange` of `asset` at `startTime`, then calls `completionHandler` with the
    /// error, if any, on an arbitrary queue.
    open func insertTimeRange(_ timeRange: CMTimeRange, of asset: AVAsset, at startTime: CMTime,
                              completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        DispatchQueue.global().async {
            do {
                try self.insertTimeRange(timeRange, of: asset, at: startTime)
                completionHandler(nil)
            } catch {
                completionHandler(error)
            }
        }
    }

    /// Inserts an empty span at `timeRange.start` in every track.
    open func insertEmptyTimeRange(_ timeRange: CMTimeRange) {
        for track in mutableTracks { track.insertEmptyTimeRange(timeRange) }
    }

    /// Removes what `timeRange` covers from every track.
    open func removeTimeRange(_ timeRange: CMTimeRange) {
        for track in mutableTracks { track.removeTimeRange(timeRange) }
    }

    /// Makes what `timeRange` covers last `duration` in every track.
    open func scaleTimeRange(_ timeRange: CMTimeRange, toDuration duration: CMTime) {
        for track in mutableTracks { track.scaleTimeRange(timeRange, toDuration: duration) }
    }

    private var mutableTracks: [AVMutableCompositionTrack] {
        compositionTracks.compactMap { $0 as? AVMutableCompositionTrack }
    }
}
