import Foundation
import HostSystem
import OpenCoreMedia
import OpenCoreVideo

/// A QuickTime or MPEG-4 movie as its header describes it: tracks made of edits of media, the
/// movie's settings, and the header written out with `writeHeader(to:fileType:options:)`
/// (Apple's macOS movie-editing API; `AVMutableMovie` edits it).
///
/// Differs from Apple: `tracks`, `tracks(withMediaType:)`, `tracks(withMediaCharacteristic:)`
/// and their `loadTracks` forms are typed `[AVAssetTrack]` (Swift cannot narrow an inherited
/// member's array type, and an overload here would make plain calls ambiguous beside
/// `AVMutableMovie`'s); their elements are `AVMovieTrack`s (`AVMutableMovieTrack`s, and typed
/// so by `AVMutableMovie.tracks(withMediaType:)`, in a mutable movie). `track(withTrackID:)`
/// gives an `AVMovieTrack`, as Apple's does. A movie read from a file reads, plays and exports as that
/// file does; an edited movie is read, played or exported by writing it with
/// `writeHeader(to:fileType:options:)` and opening the file. Every file written is
/// self-contained: sample data is copied into it, never referenced.
open class AVMovie: AVAsset, @unchecked Sendable {
    /// Finds the movie from its loader, which is made before the movie exists.
    private final class Reference: @unchecked Sendable {
        weak var movie: AVMovie?
    }

    /// One track reference: `from` names `to` as its `type` (`chap`: `to` holds `from`'s chapters).
    struct Association: Equatable {
        var from: CMPersistentTrackID
        var to: CMPersistentTrackID
        var type: AVAssetTrack.AssociationType
    }

    /// The movie's tracks, track references and settings, changed together by the mutable
    /// subclass.
    struct State {
        var tracks: [AVMovieTrack] = []
        var associations: [Association] = []
        var defaultStorage: AVMediaDataStorage?
        /// Paths of files the movie may replace when it writes its header: the file it was read
        /// from and the storage files it took for its sample data.
        var ownFiles: Set<String> = []
        var preferredRate: Float = 1
        var preferredVolume: Float = 1
        var preferredTransform = CGAffineTransform.identity
        var timescale: CMTimeScale = 600
        /// The movie's metadata when set; nil: the file's.
        var metadata: [AVMetadataItem]?
        var isModified = false
    }

    /// The tracks, references and settings, behind one lock. Never held while a track's own
    /// lock is taken.
    let movieState = Locked(State())

    /// The file the movie was read from (also for a movie made from data, which lives in a
    /// temporary file), nil for a movie made empty.
    let fileURL: URL?
    /// The file's contents as read, nil for a movie made empty or a file that could not be read.
    let fileContents: AssetContents?
    /// Why the file could not be read, nil when it could (or there is none).
    let readFailure: AVError?
    /// The data the movie was made from, with its temporary file (removed with the movie).
    private var madeFromData: (data: Data, file: URL)?

    /// A movie read from `fileURL` (nil: a movie with no tracks). Reads the header at once, as
    /// Apple's does; a file that cannot be read gives a movie without tracks whose loading
    /// fails with the reason.
    init(file fileURL: URL?, options: [String: Any]?) {
        self.fileURL = fileURL
        var contents: AssetContents?
        var failure: AVError?
        if let fileURL {
            let precise = options?[AVURLAssetPreferPreciseDurationAndTimingKey] as? Bool ?? false
            switch AssetLoader.forURL(fileURL, precise: precise).contentsBlocking() {
            case .success(let loaded): contents = loaded
            case .failure(let error): failure = error
            }
        }
        fileContents = contents
        readFailure = failure
        let reference = Reference()
        if let failure {
            super.init(loader: AssetLoader { () throws(AVError) -> AssetContents in throw failure })
        } else {
            super.init(loader: AssetLoader(live: { reference.movie?.currentContents ?? AssetContents(composedOf: []) }))
        }
        reference.movie = self
        guard let contents else { return }
        let tracks = contents.tracks.map { makeTrack(reading: AVAssetTrack(asset: self, contents: $0)) }
        let chapterLists = tracks.filter { $0.fileTrack?.contents.isChapterList ?? false }
        var associations: [Association] = []
        for track in tracks where track.mediaType == .video || track.mediaType == .audio {
            associations += chapterLists.map { Association(from: track.movieTrackID, to: $0.movieTrackID, type: .chapterList) }
        }
        movieState.withLock { state in
            state.tracks = tracks
            state.associations = associations
            if let fileURL, fileURL.isFileURL { state.ownFiles.insert(fileURL.standardizedFileURL.path) }
        }
    }

    /// Creates a movie from the movie header in a QuickTime movie or MPEG-4 file at `URL`.
    /// `options` may hold `AVURLAssetPreferPreciseDurationAndTimingKey`. The header is read at
    /// once; when the file cannot be read, the movie has no tracks and loading its values
    /// fails with the reason. `defaultMediaDataStorage` and each track's `mediaDataStorage` are nil.
    public convenience init(url URL: URL, options: [String: Any]? = nil) {
        self.init(file: URL, options: options)
    }

    /// Creates a movie from a movie file held in `data` (what `makeMovieHeader(fileType:)`
    /// makes, or a whole QuickTime or MPEG-4 file). `options` as for `init(url:options:)`.
    ///
    /// Differs from Apple: the data is kept in a temporary file while the movie lives.
    public convenience init(data: Data, options: [String: Any]? = nil) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("openav-movie-\(UUID().uuidString).mov")
        let written = FileManager.default.createFile(atPath: file.path, contents: data)
        self.init(file: written ? file : nil, options: options)
        madeFromData = (data, file)
    }

    deinit {
        if let madeFromData { try? FileManager.default.removeItem(at: madeFromData.file) }
    }

    /// A track of this class for a track of the movie's file (the mutable subclass makes
    /// mutable ones).
    func makeTrack(reading fileTrack: AVAssetTrack) -> AVMovieTrack {
        AVMovieTrack(movie: self, fileTrack: fileTrack)
    }

    /// What the movie is as it stands: the file's contents (or none) with the movie's tracks.
    private var currentContents: AssetContents {
        let tracks = movieTracks.map(\.contents)
        var contents = fileContents ?? AssetContents(composedOf: tracks)
        contents.tracks = tracks
        contents.duration = tracks.map(\.timeRange).filter(\.isValid).map(\.end).max() ?? .zero
        if let metadata = movieState.metadata { contents.metadata = metadata }
        return contents
    }

    /// The movie's tracks.
    var movieTracks: [AVMovieTrack] { movieState.tracks }

    override func tracks(of contents: AssetContents) -> [AVAssetTrack] { movieTracks }

    // MARK: The movie

    /// The URL of the file the movie was read from; nil for a movie made from data or made empty.
    open var url: URL? { madeFromData == nil ? fileURL : nil }

    /// The data the movie was made from; nil unless made with `init(data:options:)`.
    open var data: Data? { madeFromData?.data }

    /// Where sample data added to the movie goes, for tracks without a `mediaDataStorage`; nil
    /// unless set (on a mutable movie).
    open var defaultMediaDataStorage: AVMediaDataStorage? { movieState.defaultStorage }

    /// The movie's track with the given ID, or nil.
    open override func track(withTrackID trackID: CMPersistentTrackID) -> AVMovieTrack? {
        movieTracks.first { $0.movieTrackID == trackID }
    }

    /// The movie's track with the given ID, or nil (the header is read already).
    open override func loadTrack(withTrackID trackID: CMPersistentTrackID) async throws -> AVMovieTrack? {
        if let readFailure { throw readFailure }
        return track(withTrackID: trackID)
    }

    /// The rate the movie prefers to play at, 1 unless set.
    open override var preferredRate: Float { movieState.preferredRate }
    /// The volume the movie prefers to play at, 1 unless set.
    open override var preferredVolume: Float { movieState.preferredVolume }
    /// The movie's display transform, identity unless set.
    open override var preferredTransform: CGAffineTransform { movieState.preferredTransform }
    /// The movie's metadata items: the file's, or those set on a mutable movie.
    open override var metadata: [AVMetadataItem] { movieState.metadata ?? super.metadata }

    /// The file types movies are read from and written as: QuickTime movie and the MPEG-4 family.
    open class func movieTypes() -> [AVFileType] { [.mov, .mp4, .m4v, .m4a] }

    /// Whether the movie can be written as `fileType` (one of `movieTypes()`).
    open func isCompatibleWithFileType(_ fileType: AVFileType) -> Bool {
        Self.movieTypes().contains(fileType)
    }

    // MARK: Writing

    /// The movie as a file of `fileType`, in memory (it can be opened with `init(data:options:)`).
    ///
    /// Differs from Apple: the data is a whole self-contained movie, samples included, not a
    /// reference movie.
    open func makeMovieHeader(fileType: AVFileType) throws -> Data {
        let folder = FileManager.default.temporaryDirectory
        let file = folder.appendingPathComponent("openav-header-\(UUID().uuidString).\(Self.pathExtension(of: fileType))")
        defer { try? FileManager.default.removeItem(at: file) }
        try MovieFileWriting(movie: self).write(to: file, fileType: fileType, replacing: false)
        return try Data(contentsOf: file)
    }

    /// Writes the movie to `URL` as a `fileType` file (`.mov`, `.mp4`, `.m4v`, `.m4a`).
    ///
    /// Differs from Apple: the file is always self-contained — the header *and* every sample
    /// of every track (inserted, with or without `copySampleData`, or appended), copied as
    /// stored (nothing is re-encoded) — and playable on its own; media data storage files are
    /// not written separately. It is written beside the destination and moved into place when
    /// complete, so a failure leaves the destination as it was. With the default options, the
    /// destination may be missing or empty, the file the movie was read from, or a media data
    /// storage URL of the movie's; another file there is not replaced (`AVError.fileAlreadyExists`)
    /// unless the options hold `.truncateDestinationToMovieHeaderOnly`.
    /// Edits of video that start between key frames start at the key frame before (the edit is
    /// that much longer); an edit of another track is cut at the sample.
    open func writeHeader(to URL: URL, fileType: AVFileType, options: AVMovieWritingOptions = []) throws {
        guard URL.isFileURL else {
            throw AVError(.invalidOutputURLPathExtension, reason: "\(URL) is not a file URL")
        }
        let path = URL.standardizedFileURL.path
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let exists = attributes != nil
        if exists, !options.contains(.truncateDestinationToMovieHeaderOnly) {
            let size = (attributes?[.size] as? NSNumber)?.intValue ?? 0
            guard size == 0 || movieState.ownFiles.contains(path) else {
                throw AVError(.fileAlreadyExists,
                              reason: "\(path) exists and is not this movie's; pass .truncateDestinationToMovieHeaderOnly to replace it",
                              userInfo: [NSFilePathErrorKey: path])
            }
        }
        try MovieFileWriting(movie: self).write(to: URL, fileType: fileType, replacing: exists)
        movieState.withLock { $0.isModified = false }
        for track in movieTracks { track.own.withLock { $0.isModified = false } }
    }

    /// The path extension files of `fileType` are written with.
    static func pathExtension(of fileType: AVFileType) -> String {
        switch fileType {
        case .mp4: "mp4"
        case .m4v: "m4v"
        case .m4a: "m4a"
        default: "mov"
        }
    }

    // MARK: Track references

    /// The tracks `track` names as `type`.
    func associatedTracks(of track: AVMovieTrack, type: AVAssetTrack.AssociationType) -> [AVMovieTrack] {
        let (tracks, associations) = movieState.withLock { ($0.tracks, $0.associations) }
        return associations.filter { $0.from == track.movieTrackID && $0.type == type }
            .compactMap { association in tracks.first { $0.movieTrackID == association.to } }
    }

    /// The kinds of reference `track` makes to other tracks.
    func associationTypes(of track: AVMovieTrack) -> [AVAssetTrack.AssociationType] {
        var types: [AVAssetTrack.AssociationType] = []
        for association in movieState.associations where association.from == track.movieTrackID && !types.contains(association.type) {
            types.append(association.type)
        }
        return types
    }

    /// Whether another track names the track with `trackID` as its chapter list.
    func isChapterList(_ trackID: CMPersistentTrackID) -> Bool {
        movieState.associations.contains { $0.to == trackID && $0.type == .chapterList }
    }
}
