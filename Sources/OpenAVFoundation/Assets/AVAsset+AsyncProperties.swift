import Foundation
import OpenCoreMedia
import OpenCoreVideo

extension AVAsyncProperty where Root: AVAsset {
    /// A property whose value comes from the asset's loaded contents.
    static func asset(_ key: String, _ value: @escaping @Sendable (Root, AssetContents) -> Value) -> AVAsyncProperty<Root, Value> {
        AVAsyncProperty(key: key, load: { root in value(root, try await root.loader.contents()) }, status: { root in
            switch root.loader.current {
            case .idle, .cancelled: return .notYetLoaded
            case .loading: return .loading
            case .loaded(let contents): return .loaded(value(root, contents))
            case .failed(let error): return .failed(error as NSError)
            }
        })
    }
}

// Apple declares the asset's loadable properties on `AVPartialAsyncProperty`, so that they name
// `AVPartialAsyncProperty<AVAsset>` values too (`automaticallyLoadedAssetKeys: [.duration]`).
extension AVPartialAsyncProperty where Root: AVAsset {
    /// The asset's duration.
    public static var duration: AVAsyncProperty<Root, CMTime> { .asset("duration") { $1.duration } }

    /// The asset's tracks.
    public static var tracks: AVAsyncProperty<Root, [AVAssetTrack]> { .asset("tracks") { $0.tracks(of: $1) } }

    /// Whether the asset has a track that can be decoded and played.
    public static var isPlayable: AVAsyncProperty<Root, Bool> { .asset("playable") { AVAsset.isPlayable($1) } }
    /// Whether the asset can be read with `AVAssetReader`.
    public static var isReadable: AVAsyncProperty<Root, Bool> { .asset("readable") { _, _ in true } }
    /// Whether the asset can be exported.
    public static var isExportable: AVAsyncProperty<Root, Bool> { .asset("exportable") { _, _ in true } }
    /// Whether the asset can be used in a composition.
    public static var isComposable: AVAsyncProperty<Root, Bool> { .asset("composable") { _, _ in true } }
    /// Whether the asset is protected by DRM (never, here).
    public static var hasProtectedContent: AVAsyncProperty<Root, Bool> { .asset("hasProtectedContent") { _, _ in false } }
    /// Whether durations and times were measured from every sample.
    public static var providesPreciseDurationAndTiming: AVAsyncProperty<Root, Bool> {
        .asset("providesPreciseDurationAndTiming") { $1.providesPreciseDurationAndTiming }
    }

    /// The natural playback rate, 1.
    public static var preferredRate: AVAsyncProperty<Root, Float> { .asset("preferredRate") { _, _ in 1 } }
    /// The natural volume, 1.
    public static var preferredVolume: AVAsyncProperty<Root, Float> { .asset("preferredVolume") { _, _ in 1 } }

    /// The asset's display transform, identity (tracks carry their own).
    public static var preferredTransform: AVAsyncProperty<Root, CGAffineTransform> {
        .asset("preferredTransform") { _, _ in .identity }
    }

    /// The asset's metadata items in every key space.
    public static var metadata: AVAsyncProperty<Root, [AVMetadataItem]> { .asset("metadata") { $1.metadata } }
    /// The asset's metadata items in the common key space.
    public static var commonMetadata: AVAsyncProperty<Root, [AVMetadataItem]> { .asset("commonMetadata") { $1.commonMetadata } }

    /// The metadata item holding the asset's creation date.
    public static var creationDate: AVAsyncProperty<Root, AVMetadataItem?> { .asset("creationDate") { AVAsset.creationDate($1) } }

    /// The lyrics of the asset (an iTunes lyrics item or an ID3 unsynchronized lyric), or nil.
    public static var lyrics: AVAsyncProperty<Root, String?> { .asset("lyrics") { AVAsset.lyrics($1) } }

    /// The characteristics the asset has selection groups for.
    public static var availableMediaCharacteristicsWithMediaSelectionOptions: AVAsyncProperty<Root, [AVMediaCharacteristic]> {
        .asset("availableMediaCharacteristicsWithMediaSelectionOptions") { AVAsset.selectionGroups(of: $0, $1).map(\.characteristic) }
    }

    /// The selection a player makes without being told.
    public static var preferredMediaSelection: AVAsyncProperty<Root, AVMediaSelection> {
        .asset("preferredMediaSelection") { asset, _ in AVMediaSelection(asset: asset) }
    }

    /// The locales of the asset's chapter titles.
    public static var availableChapterLocales: AVAsyncProperty<Root, [Locale]> {
        .asset("availableChapterLocales") { AVAsset.chapterLocales($1) }
    }

    /// The metadata formats the asset has items in.
    public static var availableMetadataFormats: AVAsyncProperty<Root, [AVMetadataFormat]> {
        .asset("availableMetadataFormats") { AVAsset.formats(of: $1.metadata) }
    }
}
