// The metadata key spaces, with Apple's raw values.

/// A key space: the family of keys a metadata item's key belongs to, such as QuickTime user data or iTunes.
/// Matches Apple: an extensible string wrapper with Apple's raw values.
public struct AVMetadataKeySpace: RawRepresentable, Hashable, Sendable {
    /// The key space's string, for example "udta".
    public let rawValue: String

    /// Creates a key space from its raw value.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a key space from its raw value.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The common key space, whose keys have the same meaning in every format.
    public static let common = AVMetadataKeySpace(rawValue: "comn")
    /// The QuickTime user data key space ('udta' atoms).
    public static let quickTimeUserData = AVMetadataKeySpace(rawValue: "udta")
    /// The ISO base media file format user data key space, which also holds 3GPP user data.
    public static let isoUserData = AVMetadataKeySpace(rawValue: "uiso")
    /// The QuickTime metadata key space ('mdta' keys such as "com.apple.quicktime.title").
    public static let quickTimeMetadata = AVMetadataKeySpace(rawValue: "mdta")
    /// The iTunes metadata key space ('ilst' atoms).
    public static let iTunes = AVMetadataKeySpace(rawValue: "itsk")
    /// The ID3 key space (ID3v2 frames).
    public static let id3 = AVMetadataKeySpace(rawValue: "org.id3")
    /// The SHOUTcast (Icy) streaming metadata key space.
    public static let icy = AVMetadataKeySpace(rawValue: "icy")
    /// The Core Audio file key space.
    public static let audioFile = AVMetadataKeySpace(rawValue: "caaf")
    /// The HTTP Live Streaming date range key space.
    public static let hlsDateRange = AVMetadataKeySpace(rawValue: "lsdr")
}
