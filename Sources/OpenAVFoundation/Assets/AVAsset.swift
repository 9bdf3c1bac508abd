import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// A timed audiovisual medium such as a movie file: its tracks, duration and metadata, loaded
/// without blocking through either loading style of `AVAsynchronousKeyValueLoading`.
///
/// Differs from Apple: the synchronous properties (deprecated on Apple platforms) block the
/// calling thread until the asset has loaded, as Apple's documentation warns they may.
open class AVAsset: NSObject, AVAsynchronousKeyValueLoading, @unchecked Sendable {
    /// Loads the contents once for every loading style.
    let loader: AssetLoader

    private let trackLock = NSLock()
    private var trackObjects: [AVAssetTrack]?

    init(loader: AssetLoader) {
        self.loader = loader
        super.init()
    }

    /// Creates an asset for a local file URL (deprecated on Apple platforms in favour of
    /// `AVURLAsset(url:)`, and still common in code).
    ///
    /// Differs from Apple: the object is an `AVAsset`, not an `AVURLAsset`, because a Swift
    /// initializer cannot return a subclass; it loads exactly as `AVURLAsset(url:)` does.
    public convenience init(url: URL) {
        self.init(loader: AssetLoader.forURL(url, precise: false))
    }

    /// The track objects of loaded contents, made once so that identity is stable (a
    /// composition hands out its own).
    func tracks(of contents: AssetContents) -> [AVAssetTrack] {
        trackLock.withLock {
            if let trackObjects { return trackObjects }
            let made = contents.tracks.map { AVAssetTrack(asset: self, contents: $0) }
            trackObjects = made
            return made
        }
    }

    /// The loaded contents, blocking until loaded; nil when loading failed.
    var loadedContents: AssetContents? { try? loader.contentsBlocking().get() }

    // MARK: Loading

    /// The keys `statusOfValue(forKey:error:)` and `loadValuesAsynchronously(forKeys:)` know.
    static let loadableKeys: Set<String> = [
        "duration", "tracks", "playable", "readable", "exportable", "composable", "hasProtectedContent",
        "providesPreciseDurationAndTiming", "preferredRate", "preferredVolume", "preferredTransform",
        "naturalSize", "metadata", "commonMetadata", "creationDate", "availableMetadataFormats", "lyrics",
        "overallDurationHint", "canContainFragments", "containsFragments", "availableChapterLocales",
        "availableMediaCharacteristicsWithMediaSelectionOptions", "preferredMediaSelection",
    ]

    /// The loading state of the value for `key` ("duration", "tracks", "playable", …).
    public func statusOfValue(forKey key: String, error outError: NSErrorPointer) -> AVKeyValueStatus {
        guard Self.loadableKeys.contains(key) else {
            outError?.pointee = AVError(.unknown, reason: "\"\(key)\" is not a loadable key of AVAsset") as NSError
            return .failed
        }
        switch loader.current {
        case .idle: return .unknown
        case .loading: return .loading
        case .loaded: return .loaded
        case .cancelled: return .cancelled
        case .failed(let error):
            outError?.pointee = error as NSError
            return .failed
        }
    }

    /// Loads the values for `keys`, then calls `handler` once on an arbitrary queue.
    public func loadValuesAsynchronously(forKeys keys: [String], completionHandler handler: (@Sendable () -> Void)? = nil) {
        loader.whenLoaded { _ in handler?() }
    }

    /// Cancels loading under way; waiting handlers are called and statuses read `.cancelled`.
    public func cancelLoading() {
        loader.cancel()
    }

    // MARK: Tracks

    /// The tracks of the asset with the given media type.
    public func loadTracks(withMediaType mediaType: AVMediaType) async throws -> [AVAssetTrack] {
        tracks(of: try await loader.contents()).filter { $0.mediaType == mediaType }
    }

    /// The track with the given ID, or nil.
    public func loadTrack(withTrackID trackID: CMPersistentTrackID) async throws -> AVAssetTrack? {
        tracks(of: try await loader.contents()).first { $0.trackID == trackID }
    }

    /// The tracks that have the given media characteristic.
    public func loadTracks(withMediaCharacteristic mediaCharacteristic: AVMediaCharacteristic) async throws -> [AVAssetTrack] {
        tracks(of: try await loader.contents()).filter { $0.hasMediaCharacteristic(mediaCharacteristic) }
    }

    /// Loads the tracks with the given media type, then calls `completionHandler` on an
    /// arbitrary queue with them, or with nil and the error when loading failed.
    public func loadTracks(withMediaType mediaType: AVMediaType,
                           completionHandler: @escaping @Sendable ([AVAssetTrack]?, (any Error)?) -> Void) {
        whenLoaded(completionHandler) { asset, contents in asset.tracks(of: contents).filter { $0.mediaType == mediaType } }
    }

    /// Loads the track with the given ID, then calls `completionHandler` on an arbitrary queue
    /// with it (nil when there is none), or with nil and the error when loading failed.
    public func loadTrack(withTrackID trackID: CMPersistentTrackID,
                          completionHandler: @escaping @Sendable (AVAssetTrack?, (any Error)?) -> Void) {
        whenLoaded({ track, error in completionHandler(track ?? nil, error) }) { asset, contents in
            asset.tracks(of: contents).first { $0.trackID == trackID }
        }
    }

    /// Loads the tracks that have the given media characteristic, then calls
    /// `completionHandler` on an arbitrary queue with them, or with nil and the error.
    public func loadTracks(withMediaCharacteristic mediaCharacteristic: AVMediaCharacteristic,
                           completionHandler: @escaping @Sendable ([AVAssetTrack]?, (any Error)?) -> Void) {
        whenLoaded(completionHandler) { asset, contents in
            asset.tracks(of: contents).filter { $0.hasMediaCharacteristic(mediaCharacteristic) }
        }
    }

    /// A track ID no track of the asset uses: one more than the largest in use (1 for an asset
    /// without tracks). Blocks until the tracks are loaded.
    public func unusedTrackID() -> CMPersistentTrackID {
        Self.unusedTrackID(among: tracks)
    }

    /// A track ID no track of the asset uses, once the tracks are loaded.
    public func findUnusedTrackID() async throws -> CMPersistentTrackID {
        Self.unusedTrackID(among: tracks(of: try await loader.contents()))
    }

    /// Loads the tracks, then calls `completionHandler` on an arbitrary queue with a track ID
    /// none of them uses, or with 0 (`kCMPersistentTrackID_Invalid`) and the error.
    public func findUnusedTrackID(completionHandler: @escaping @Sendable (CMPersistentTrackID, (any Error)?) -> Void) {
        whenLoaded({ trackID, error in completionHandler(trackID ?? 0, error) }) { asset, contents in
            Self.unusedTrackID(among: asset.tracks(of: contents))
        }
    }

    /// One more than the largest track ID in use, 1 when there is none; when the largest is
    /// the largest ID there is, the smallest positive ID not in use.
    static func unusedTrackID(among tracks: [AVAssetTrack]) -> CMPersistentTrackID {
        let used = Set(tracks.map(\.trackID))
        let largest = used.max() ?? 0
        if largest < CMPersistentTrackID.max { return largest + 1 }
        return (1...CMPersistentTrackID.max).first { !used.contains($0) } ?? kCMPersistentTrackID_Invalid
    }

    /// Calls `handler` with `value` of the loaded contents, or nil and the error (a cancelled
    /// load gives `AVError.operationCancelled`).
    func whenLoaded<T>(_ handler: @escaping @Sendable (T?, (any Error)?) -> Void,
                               _ value: @escaping @Sendable (AVAsset, AssetContents) -> T) {
        loader.whenLoaded { [self] outcome in
            switch outcome {
            case .success(let contents)?: handler(value(self, contents), nil)
            case .failure(let error)?: handler(nil, error)
            case nil: handler(nil, AVError(.operationCancelled, reason: "loading was cancelled with cancelLoading()"))
            }
        }
    }

    // MARK: Synchronous properties (deprecated on Apple platforms; they block until loaded)

    /// Where the file's own clock begins (zero but for MPEG transport and program streams,
    /// whose first timestamps are a running clock's): exports and the command line count
    /// their times from here. Zero when loading failed.
    package var timelineOrigin: CMTime { loadedContents?.timelineOrigin ?? .zero }

    /// The duration of the asset; invalid when loading failed.
    public var duration: CMTime { loadedContents?.duration ?? .invalid }

    /// The tracks of the asset; empty when loading failed.
    public var tracks: [AVAssetTrack] { loadedContents.map(tracks(of:)) ?? [] }

    /// The tracks with the given media type. (Disfavoured so that a mutable composition's
    /// overload, which gives its tracks as the mutable tracks they are, is chosen on one.)
    @_disfavoredOverload
    public func tracks(withMediaType mediaType: AVMediaType) -> [AVAssetTrack] {
        tracks.filter { $0.mediaType == mediaType }
    }

    /// The track of `mediaType` a job takes when it takes one (export, conversion, thumbnails):
    /// the first that has samples, enabled and decodable ones first (`decodable` for a job
    /// that decodes), as ffmpeg picks the stream with frames; a track that holds none (a
    /// stream a file declares and never fills) only when no other has any, and never with
    /// `withSamples` (sound: a job leaves out what has none, as ffmpeg does).
    package func preferredTrack(withMediaType mediaType: AVMediaType, decodable: Bool = false, withSamples: Bool = false) -> AVAssetTrack? {
        let candidates = tracks.filter {
            $0.mediaType == mediaType && (!decodable || $0.isDecodable) && !(withSamples && $0.contents.isEmpty)
        }
        func rank(_ track: AVAssetTrack) -> Int { (track.contents.isEmpty ? 2 : 0) + (track.isEnabled ? 0 : 1) }
        return candidates.enumerated().min { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }?.element
    }

    /// The track with the given ID, or nil.
    public func track(withTrackID trackID: CMPersistentTrackID) -> AVAssetTrack? {
        tracks.first { $0.trackID == trackID }
    }

    /// The tracks that have the given media characteristic. (Disfavoured as
    /// `tracks(withMediaType:)` is.)
    @_disfavoredOverload
    public func tracks(withMediaCharacteristic mediaCharacteristic: AVMediaCharacteristic) -> [AVAssetTrack] {
        tracks.filter { $0.hasMediaCharacteristic(mediaCharacteristic) }
    }

    /// Whether the asset has a track that can be decoded and played.
    public var isPlayable: Bool { loadedContents.map(AVAsset.isPlayable) ?? false }
    /// Whether the asset's media can be read with `AVAssetReader`.
    public var isReadable: Bool { loadedContents != nil }
    /// Whether the asset can be exported with `AVAssetExportSession`.
    public var isExportable: Bool { loadedContents != nil }
    /// Whether the asset can be inserted into a composition.
    public var isComposable: Bool { loadedContents != nil }
    /// Whether the asset is protected by DRM (never, here).
    public var hasProtectedContent: Bool { false }
    /// Whether durations and times were measured from every sample rather than from headers.
    public var providesPreciseDurationAndTiming: Bool { loadedContents?.providesPreciseDurationAndTiming ?? false }
    /// The natural playback rate, 1.
    open var preferredRate: Float { 1 }
    /// The natural volume, 1.
    open var preferredVolume: Float { 1 }
    /// The asset's display transform, identity (tracks carry their own).
    open var preferredTransform: CGAffineTransform { .identity }

    /// The asset's metadata items in every key space; empty when loading failed.
    open var metadata: [AVMetadataItem] { loadedContents?.metadata ?? [] }
    /// The asset's metadata items in the common key space.
    public var commonMetadata: [AVMetadataItem] { loadedContents?.commonMetadata ?? [] }
    /// The metadata item holding the asset's creation date, or nil.
    public var creationDate: AVMetadataItem? { loadedContents.flatMap(AVAsset.creationDate) }
    /// The metadata formats the asset has items in.
    public var availableMetadataFormats: [AVMetadataFormat] { loadedContents.map { AVAsset.formats(of: $0.metadata) } ?? [] }

    /// The asset's metadata items in one format.
    public func metadata(forFormat format: AVMetadataFormat) -> [AVMetadataItem] {
        metadata.filter { $0.keySpace.flatMap(AVMetadataFormat.init(keySpace:)) == format }
    }

    /// The asset's metadata items in one format, loaded without blocking.
    public func loadMetadata(for format: AVMetadataFormat) async throws -> [AVMetadataItem] {
        try await loader.contents().metadata.filter { $0.keySpace.flatMap(AVMetadataFormat.init(keySpace:)) == format }
    }

    /// Loads the asset's metadata items in one format, then calls `completionHandler` on an
    /// arbitrary queue with them, or with nil and the error.
    public func loadMetadata(for format: AVMetadataFormat,
                             completionHandler: @escaping @Sendable ([AVMetadataItem]?, (any Error)?) -> Void) {
        whenLoaded(completionHandler) { _, contents in
            contents.metadata.filter { $0.keySpace.flatMap(AVMetadataFormat.init(keySpace:)) == format }
        }
    }

    /// The lyrics of the asset (an iTunes lyrics item or an ID3 unsynchronized lyric), or nil;
    /// blocks until the metadata is loaded.
    public var lyrics: String? { loadedContents.flatMap(AVAsset.lyrics) }

    /// The lyrics of loaded contents: the first lyrics item's string.
    static func lyrics(_ contents: AssetContents) -> String? {
        let lyricsIdentifiers: [AVMetadataIdentifier] = [.iTunesMetadataLyrics, .id3MetadataUnsynchronizedLyric]
        return contents.metadata.first { $0.identifier.map(lyricsIdentifiers.contains) ?? false }?.stringValue
    }

    /// The common creation-date item of loaded contents, or nil.
    static func creationDate(_ contents: AssetContents) -> AVMetadataItem? {
        contents.commonMetadata.first { $0.commonKey == .commonKeyCreationDate }
    }

    /// The distinct formats of some items, in first-seen order.
    static func formats(of items: [AVMetadataItem]) -> [AVMetadataFormat] {
        var formats: [AVMetadataFormat] = []
        for format in items.compactMap({ $0.keySpace.flatMap(AVMetadataFormat.init(keySpace:)) }) where !formats.contains(format) {
            formats.append(format)
        }
        return formats
    }

    /// Whether an asset has a decodable video or audio track.
    static func isPlayable(_ contents: AssetContents) -> Bool {
        contents.tracks.contains { ($0.mediaType == .video || $0.mediaType == .audio) && $0.isDecodable }
    }
}
