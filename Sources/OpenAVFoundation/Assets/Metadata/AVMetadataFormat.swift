// The metadata formats, with Apple's raw values.

/// A metadata format: the container-level form in which an asset stores metadata.
/// Matches Apple: an extensible string wrapper with Apple's raw values.
public struct AVMetadataFormat: RawRepresentable, Hashable, Sendable {
    /// The format's string, for example "com.apple.quicktime.udta".
    public let rawValue: String

    /// Creates a metadata format from its raw value.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a metadata format from its raw value.
    ///
    /// Linux addition: Apple's `AVMetadataFormat` is a closed set with only `init(rawValue:)`.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// QuickTime user data.
    public static let quickTimeUserData = AVMetadataFormat(rawValue: "com.apple.quicktime.udta")
    /// ISO base media file format user data (also 3GPP user data).
    public static let isoUserData = AVMetadataFormat(rawValue: "org.mp4ra")
    /// QuickTime metadata.
    public static let quickTimeMetadata = AVMetadataFormat(rawValue: "com.apple.quicktime.mdta")
    /// iTunes metadata.
    public static let iTunesMetadata = AVMetadataFormat(rawValue: "com.apple.itunes")
    /// ID3 metadata.
    public static let id3Metadata = AVMetadataFormat(rawValue: "org.id3")
    /// HTTP Live Streaming metadata.
    public static let hlsMetadata = AVMetadataFormat(rawValue: "com.apple.quicktime.HLS")
    /// Metadata of an unknown format.
    public static let unknown = AVMetadataFormat(rawValue: "public.unknown")
}

extension AVMetadataFormat {
    /// The format whose items live in a key space, or nil for the common key space and unknown ones.
    package init?(keySpace: AVMetadataKeySpace) {
        switch keySpace {
        case .quickTimeUserData: self = .quickTimeUserData
        case .isoUserData: self = .isoUserData
        case .quickTimeMetadata: self = .quickTimeMetadata
        case .iTunes: self = .iTunesMetadata
        case .id3: self = .id3Metadata
        default: return nil
        }
    }
}
