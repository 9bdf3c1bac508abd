import Foundation

/// The option key asking for exact durations and times even when that means reading the
/// whole file (a `Bool`).
public let AVURLAssetPreferPreciseDurationAndTimingKey = "AVURLAssetPreferPreciseDurationAndTimingKey"

/// An asset read from a local file URL.
///
/// Differs from Apple: only `file:` URLs are supported; anything else fails to load with an
/// `AVError`.
open class AVURLAsset: AVAsset, @unchecked Sendable {
    /// The URL the asset was created with.
    public let url: URL

    /// Creates an asset for `url`. Nothing is read until a value is loaded.
    /// `options` may hold `AVURLAssetPreferPreciseDurationAndTimingKey`.
    public init(url: URL, options: [String: Any]? = nil) {
        self.url = url
        let precise = (options?[AVURLAssetPreferPreciseDurationAndTimingKey] as? Bool) ?? false
        super.init(loader: AssetLoader.forFile(url, precise: precise))
    }

    /// The file types `AVURLAsset` can open: every container FFmpeg reads that has an `AVFileType`.
    open class func audiovisualTypes() -> [AVFileType] {
        [.mov, .mp4, .m4v, .m4a, .mobile3GPP, .mobile3GPP2, .caf, .wav, .aiff, .aifc, .amr, .mp3, .au, .ac3, .eac3]
    }

    /// Whether `AVURLAsset` can open files of a MIME type such as "video/mp4".
    open class func isPlayableExtendedMIMEType(_ extendedMIMEType: String) -> Bool {
        let type = extendedMIMEType.split(separator: ";").first.map(String.init)?.lowercased() ?? ""
        return ["video/mp4", "video/quicktime", "audio/mp4", "audio/mpeg", "audio/wav", "audio/x-wav", "video/x-m4v",
                "audio/x-m4a", "video/webm", "audio/webm", "video/x-matroska", "video/mp2t", "audio/aac", "audio/flac",
                "audio/ogg", "audio/opus"].contains(type)
    }
}
