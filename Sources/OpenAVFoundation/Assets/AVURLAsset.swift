import Foundation
import MediaEngine

/// The option key asking for exact durations and times even when that means reading the
/// whole file (a `Bool`).
public let AVURLAssetPreferPreciseDurationAndTimingKey = "AVURLAssetPreferPreciseDurationAndTimingKey"

/// The option key for the `User-Agent` header field of the asset's HTTP requests (a `String`).
public let AVURLAssetHTTPUserAgentKey = "AVURLAssetHTTPUserAgentKey"

/// The option key for extra header fields sent with every HTTP request of the asset, the
/// playlist's and each segment's (a `[String: String]`).
///
/// Linux addition: Apple's SDK declares no such constant, but its framework honours the same
/// string, which real code passes as the literal `"AVURLAssetHTTPHeaderFieldsKey"` for
/// authorization headers; both spellings work here.
public let AVURLAssetHTTPHeaderFieldsKey = "AVURLAssetHTTPHeaderFieldsKey"

/// The option key for how long, in seconds, connecting to the server or waiting for its next
/// bytes may take before loading or reading fails with `URLError.timedOut` underneath (a
/// `TimeInterval`; 30 by default). It also bounds how long a resource loader delegate may
/// leave a request without bytes.
///
/// Linux addition: Apple's framework has no such option.
public let AVURLAssetHTTPTimeoutIntervalKey = "AVURLAssetHTTPTimeoutIntervalKey"

/// An asset read from a URL: a local file, a file on an HTTP(S) server (read with byte-range
/// requests as it is needed), or an HTTP Live Streaming playlist (`.m3u8`, with MPEG-TS or
/// fragmented MP4 segments).
///
/// Other URL schemes are loaded through `resourceLoader`'s delegate. An HTTP Live
/// Stream's `tracks` are those of every variant, as `ffprobe` lists them; Apple's list is empty
/// for such assets (their tracks are the player item's).
open class AVURLAsset: AVAsset, @unchecked Sendable {
    /// The URL the asset was created with.
    public let url: URL

    /// The loader that asks its delegate for the bytes of a URL with a scheme of the app's own.
    public let resourceLoader: AVAssetResourceLoader

    /// Creates an asset for `url`. Nothing is read until a value is loaded.
    /// `options` may hold `AVURLAssetPreferPreciseDurationAndTimingKey`,
    /// `AVURLAssetHTTPUserAgentKey`, `AVURLAssetHTTPHeaderFieldsKey` and
    /// `AVURLAssetHTTPTimeoutIntervalKey`.
    public init(url: URL, options: [String: Any]? = nil) {
        self.url = url
        resourceLoader = AVAssetResourceLoader()
        let precise = (options?[AVURLAssetPreferPreciseDurationAndTimingKey] as? Bool) ?? false
        var network = NetworkOptions.standard
        network.customSchemes = resourceLoader
        network.userAgent = options?[AVURLAssetHTTPUserAgentKey] as? String
        network.headerFields = options?[AVURLAssetHTTPHeaderFieldsKey] as? [String: String] ?? [:]
        if let seconds = options?[AVURLAssetHTTPTimeoutIntervalKey] as? TimeInterval, seconds > 0 {
            network.timeout = .milliseconds(Int64((seconds * 1000).rounded()))
        }
        super.init(loader: AssetLoader.forURL(url, precise: precise, network: network))
    }

    deinit {
        // Loads still under way for the asset (its properties', say) are of no more use.
        resourceLoader.cancelAll()
    }

    /// The file types `AVURLAsset` can open: every container FFmpeg reads that has an `AVFileType`.
    open class func audiovisualTypes() -> [AVFileType] {
        [.mov, .mp4, .m4v, .m4a, .mobile3GPP, .mobile3GPP2, .caf, .wav, .aiff, .aifc, .amr, .mp3, .au, .ac3, .eac3]
    }

    /// The MIME types `AVURLAsset` can open, such as "video/mp4".
    open class func audiovisualMIMETypes() -> [String] {
        playableMIMETypes
    }

    /// Whether `AVURLAsset` can open files of a MIME type such as "video/mp4" (codec parameters
    /// after a ";" are not looked at).
    open class func isPlayableExtendedMIMEType(_ extendedMIMEType: String) -> Bool {
        let type = extendedMIMEType.split(separator: ";").first.map(String.init)?
            .trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        return playableMIMETypes.contains(type)
    }

    /// The MIME types of the containers FFmpeg reads here.
    private static let playableMIMETypes = [
        "video/mp4", "video/quicktime", "audio/mp4", "audio/mpeg", "audio/wav", "audio/x-wav", "video/x-m4v",
        "audio/x-m4a", "video/webm", "audio/webm", "video/x-matroska", "video/mp2t", "audio/aac", "audio/flac",
        "audio/ogg", "audio/opus",
    ]
}
