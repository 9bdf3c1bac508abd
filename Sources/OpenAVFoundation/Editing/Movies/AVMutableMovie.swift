import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// A movie you edit (Apple's macOS movie-editing API, as command-line tools use it): insert
/// spans of assets, add, copy and remove tracks, name chapter tracks, set the movie's values,
/// and write it with `writeHeader(to:fileType:options:)`.
///
/// Differs from Apple: sample data is never written as it is inserted or appended; the file
/// `writeHeader(to:fileType:options:)` makes always holds all of it (see `AVMediaDataStorage`).
/// Inserted media is the audio, video, text and subtitle tracks that have a format
/// description (what can be copied as stored).
open class AVMutableMovie: AVMovie, @unchecked Sendable {
    /// A mutable movie from the movie header in the file at `URL`; throws when the file cannot
    /// be read. `options` as for `AVMovie.init(url:options:)`.
    public convenience init(url URL: URL, options: [String: Any]? = nil, error: ()) throws {
        self.init(file: URL, options: options)
        if let readFailure { throw readFailure }
    }

    /// A mutable movie from a movie file held in `data`; throws when it cannot be read.
    public convenience init(data: Data, options: [String: Any]? = nil, error: ()) throws {
        self.init(data: data, options: options)
        if let readFailure { throw readFailure }
    }

    /// An empty mutable movie with the settings (rate, volume, transform, timescale, metadata)
    /// of `movie`, or the defaults when nil. `options`: no keys are defined.
    public convenience init(settingsFrom movie: AVMovie?, options: [String: Any]? = nil) throws {
        self.init(file: nil, options: options)
        guard let movie else { return }
        let settings = movie.movieState.withLock { $0 }
        movieState.withLock { state in
            state.preferredRate = settings.preferredRate
            state.preferredVolume = settings.preferredVolume
            state.preferredTransform = settings.preferredTransform
            state.timescale = settings.timescale
            state.metadata = settings.metadata ?? movie.fileContents?.metadata
        }
    }

    /// An empty mutable movie with default settings.
    public convenience init() {
        self.init(file: nil, options: nil)
    }

    override func makeTrack(reading fileTrack: AVAssetTrack) -> AVMovieTrack {
        AVMutableMovieTrack(movie: self, fileTrack: fileTrack)
    }

    /// The movie's mutable tracks.
    private var mutableTracks: [AVMutableMovieTrack] { movieTracks.compactMap { $0 as? AVMutableMovieTrack } }

    /// Records `url` as a file the movie's sample data goes to; throws when a file that is not
    /// the movie's is there already (it would be replaced when the movie is written).
    func claim(_ url: URL) throws {
        let path = url.standardizedFileURL.path
        try movieState.withLock { state in
            guard !state.ownFiles.contains(path) else { return }
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber
            if let size, size.intValue > 0 {
                throw AVError(.fileAlreadyExists, reason: "the media data storage \(path) holds a file that is not this movie's",
                              userInfo: [NSFilePathErrorKey: path])
            }
            state.ownFiles.insert(path)
        }
    }

    // MARK: Values

    /// Where sample data added to the movie goes, for tracks without a `mediaDataStorage`.
    open override var defaultMediaDataStorage: AVMediaDataStorage? {
        get { super.defaultMediaDataStorage }
        set { movieState.withLock { $0.defaultStorage = newValue } }
    }

    /// The rate the movie prefers to play at.
    open override var preferredRate: Float {
        get { super.preferredRate }
        set { movieState.withLock { $0.preferredRate = newValue; $0.isModified = true } }
    }

    /// The volume the movie prefers to play at.
    open override var preferredVolume: Float {
        get { super.preferredVolume }
        set { movieState.withLock { $0.preferredVolume = newValue; $0.isModified = true } }
    }

    /// The movie's display transform.
    open override var preferredTransform: CGAffineTransform {
        get { super.preferredTransform }
        set { movieState.withLock { $0.preferredTransform = newValue; $0.isModified = true } }
    }

    /// The movie's timescale, 600 unless set.
    open var timescale: CMTimeScale {
        get { movieState.timescale }
        set { movieState.withLock { $0.timescale = newValue; $0.isModified = true } }
    }

    /// The movie's metadata items, written with the movie.
    open override var metadata: [AVMetadataItem] {
        get { super.metadata }
        set { movieState.withLock { $0.metadata = newValue; $0.isModified = true } }
    }

    /// Whether the movie has changed since it was made or last written.
    open var isModified: Bool {
        get { movieState.isModified || movieTracks.contains { $0.own.isModified } }
        set {
            movieState.withLock { $0.isModified = newValue }
            if !newValue { for track in movieTracks { track.own.withLock { $0.isModified = false } } }
        }
    }

    // MARK: Tracks

    /// The movie's mutable track with the given ID, or nil.
    open override func track(withTrackID trackID: CMPersistentTrackID) -> AVMutableMovieTrack? {
        super.track(withTrackID: trackID) as? AVMutableMovieTrack
    }

    /// The movie's mutable track with the given ID, or nil.
    open override func loadTrack(withTrackID trackID: CMPersistentTrackID) async throws -> AVMutableMovieTrack? {
        try await super.loadTrack(withTrackID: trackID) as? AVMutableMovieTrack
    }

    /// The movie's tracks of the given media type, as the mutable tracks they are: so
    /// `movie.tracks(withMediaType: .video).first?.preferredTransform = transform` edits the movie.
    public func tracks(withMediaType mediaType: AVMediaType) -> [AVMutableMovieTrack] {
        mutableTracks.filter { $0.mediaType == mediaType }
    }

    /// Adds an empty track of `mediaType`, with the values (transform, volume, language,
    /// enabled, timescale) of `track` when given. `options`: no keys are defined.
    open func addMutableTrack(withMediaType mediaType: AVMediaType, copySettingsFrom track: AVAssetTrack?,
                              options: [String: Any]? = nil) -> AVMutableMovieTrack? {
        let made: AVMutableMovieTrack = movieState.withLock { state in
            let trackID = (state.tracks.map(\.movieTrackID).max() ?? 0) + 1
            let made = AVMutableMovieTrack(movie: self, trackID: trackID, mediaType: mediaType, settings: track)
            state.tracks.append(made)
            state.isModified = true
            return made
        }
        return made
    }

    /// Adds an empty track for each of `existingTracks`, with its media type and values.
    open func addMutableTracksCopyingSettings(from existingTracks: [AVAssetTrack], options: [String: Any]? = nil) -> [AVMutableMovieTrack] {
        existingTracks.compactMap { addMutableTrack(withMediaType: $0.mediaType, copySettingsFrom: $0, options: options) }
    }

    /// Removes `track` from the movie, and the references to and from it.
    open func removeTrack(_ track: AVMovieTrack) {
        movieState.withLock { state in
            guard state.tracks.contains(where: { $0 === track }) else { return }
            state.tracks.removeAll { $0 === track }
            state.associations.removeAll { $0.from == track.movieTrackID || $0.to == track.movieTrackID }
            state.isModified = true
        }
    }

    /// A track of the movie that `track`'s media can be inserted into: the first of the same
    /// media type with media of the same format (or none yet), or nil.
    open func mutableTrack(compatibleWith track: AVAssetTrack) -> AVMutableMovieTrack? {
        mutableTracks.first { Self.track($0, takes: track) }
    }

    /// Whether `track`'s media can go into `candidate`: same media type, and the same format
    /// as the media `candidate` has (if any).
    private static func track(_ candidate: AVMovieTrack, takes track: AVAssetTrack) -> Bool {
        guard candidate.mediaType == track.mediaType else { return false }
        guard let theirs = candidate.contents.formatDescription, let format = track.contents.formatDescription else { return true }
        return theirs.mediaSubType == format.mediaSubType
    }

    // MARK: Editing

    /// Inserts `timeRange` of every audio, video, text and subtitle track of `asset` at
    /// `startTime`, pushing later media out by the range's duration in every track. Each source
    /// track goes into the first track of the same media type and format not used by this
    /// insertion, or a new one with its settings; a source chapter track stays the chapter
    /// list of the tracks the audio and video went into. Throws as
    /// `AVMutableMovieTrack.insertTimeRange(_:of:at:copySampleData:)` does, and when the asset
    /// cannot be loaded.
    ///
    /// Differs from Apple: the samples are copied into the file when the movie is written,
    /// with or without `copySampleData`.
    open func insertTimeRange(_ timeRange: CMTimeRange, of asset: AVAsset, at startTime: CMTime, copySampleData: Bool) throws {
        if case .failure(let error) = asset.loader.contentsBlocking() { throw error }
        guard timeRange.isValid, timeRange.start.isNumeric, timeRange.duration.isNumeric, timeRange.duration > .zero else {
            throw AVError(.invalidCompositionTrackSegmentSourceDuration, reason: "the time range must be a positive numeric span")
        }
        let sources = asset.tracks.filter { track in
            [.video, .audio, .text, .subtitle].contains(track.mediaType) && track.contents.formatDescription != nil
        }
        var plan: [(target: AVMutableMovieTrack, source: AVAssetTrack)] = []
        for source in sources {
            let existing = mutableTracks.first { candidate in
                !plan.contains { $0.target === candidate } && Self.track(candidate, takes: source)
            }
            guard let target = existing ?? addMutableTrack(withMediaType: source.mediaType, copySettingsFrom: source) else { continue }
            plan.append((target, source))
        }
        for (target, source) in plan {
            let available = source.timeRange
            if available.isValid, timeRange.start >= available.start, timeRange.start < available.end {
                let range = CMTimeRange(start: timeRange.start, end: min(timeRange.end, available.end))
                try target.insertTimeRange(range, of: source, at: startTime, copySampleData: copySampleData)
                if range.duration < timeRange.duration {
                    target.insertEmptyTimeRange(CMTimeRange(start: startTime + range.duration, duration: timeRange.duration - range.duration))
                }
            } else {
                target.insertEmptyTimeRange(CMTimeRange(start: startTime, duration: timeRange.duration))
            }
        }
        for chapters in plan where chapters.source.contents.isChapterList {
            for base in plan where base.target.mediaType == .video || base.target.mediaType == .audio {
                base.target.addTrackAssociation(to: chapters.target, type: .chapterList)
            }
        }
        // Tracks the asset has nothing for are pushed out as well, so that everything stays in sync.
        for track in mutableTracks where !plan.contains(where: { $0.target === track }) && startTime < track.timeRange.end {
            track.insertEmptyTimeRange(CMTimeRange(start: startTime, duration: timeRange.duration))
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
}
