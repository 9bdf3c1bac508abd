import Foundation
import OpenCoreMedia
import OpenCoreVideo

extension AVAsyncProperty where Root: AVAssetTrack {
    /// A track property: always loaded, read straight from the track.
    static func track(_ key: String, _ value: @escaping @Sendable (Root) -> Value) -> AVAsyncProperty<Root, Value> {
        AVAsyncProperty(key: key, load: { value($0) }, status: { .loaded(value($0)) })
    }
}

// Apple declares the track's loadable properties on `AVPartialAsyncProperty`.
extension AVPartialAsyncProperty where Root: AVAssetTrack {
    /// The track's format descriptions.
    public static var formatDescriptions: AVAsyncProperty<Root, [CMFormatDescription]> {
        .track("formatDescriptions") { $0.contents.formatDescription.map { [$0] } ?? [] }
    }

    /// Whether the track can be played.
    public static var isPlayable: AVAsyncProperty<Root, Bool> { .track("playable") { $0.isPlayable } }
    /// Whether the track's media can be decoded.
    public static var isDecodable: AVAsyncProperty<Root, Bool> { .track("decodable") { $0.isDecodable } }
    /// Whether the track is enabled.
    public static var isEnabled: AVAsyncProperty<Root, Bool> { .track("enabled") { $0.isEnabled } }
    /// Whether the track's media lives in the asset's own file.
    public static var isSelfContained: AVAsyncProperty<Root, Bool> { .track("selfContained") { $0.isSelfContained } }
    /// Whether samples are stored out of presentation order.
    public static var requiresFrameReordering: AVAsyncProperty<Root, Bool> {
        .track("requiresFrameReordering") { $0.requiresFrameReordering }
    }

    /// The track's time range on the asset's timeline.
    public static var timeRange: AVAsyncProperty<Root, CMTimeRange> { .track("timeRange") { $0.timeRange } }

    /// The timescale of the track's media.
    public static var naturalTimeScale: AVAsyncProperty<Root, CMTimeScale> { .track("naturalTimeScale") { $0.naturalTimeScale } }

    /// The track's data rate in bits per second.
    public static var estimatedDataRate: AVAsyncProperty<Root, Float> { .track("estimatedDataRate") { $0.estimatedDataRate } }
    /// Frames per second.
    public static var nominalFrameRate: AVAsyncProperty<Root, Float> { .track("nominalFrameRate") { $0.nominalFrameRate } }
    /// The track's volume.
    public static var preferredVolume: AVAsyncProperty<Root, Float> { .track("preferredVolume") { $0.preferredVolume } }

    /// The track's ISO 639-2/T language code.
    public static var languageCode: AVAsyncProperty<Root, String?> { .track("languageCode") { $0.languageCode } }
    /// The track's BCP 47 language tag.
    public static var extendedLanguageTag: AVAsyncProperty<Root, String?> { .track("extendedLanguageTag") { $0.extendedLanguageTag } }

    /// The video frame size before the preferred transform.
    public static var naturalSize: AVAsyncProperty<Root, CGSize> { .track("naturalSize") { $0.naturalSize } }

    /// The transform that displays the track upright.
    public static var preferredTransform: AVAsyncProperty<Root, CGAffineTransform> {
        .track("preferredTransform") { $0.preferredTransform }
    }

    /// The shortest frame duration.
    public static var minFrameDuration: AVAsyncProperty<Root, CMTime> { .track("minFrameDuration") { $0.minFrameDuration } }

    /// The track's media characteristics.
    public static var mediaCharacteristics: AVAsyncProperty<Root, [AVMediaCharacteristic]> {
        .track("mediaCharacteristics") { $0.mediaCharacteristics }
    }

    /// How the track's media is laid out on its timeline.
    public static var segments: AVAsyncProperty<Root, [AVAssetTrackSegment]> { .track("segments") { $0.segments } }

    /// The track's metadata items in every key space.
    public static var metadata: AVAsyncProperty<Root, [AVMetadataItem]> { .track("metadata") { $0.metadata } }
    /// The track's metadata items in the common key space.
    public static var commonMetadata: AVAsyncProperty<Root, [AVMetadataItem]> { .track("commonMetadata") { $0.commonMetadata } }
    /// The metadata formats the track has items in.
    public static var availableMetadataFormats: AVAsyncProperty<Root, [AVMetadataFormat]> {
        .track("availableMetadataFormats") { $0.availableMetadataFormats }
    }
}
