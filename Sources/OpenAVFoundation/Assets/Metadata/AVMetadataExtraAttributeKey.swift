// The keys of a metadata item's extra attributes, with Apple's raw values.

/// A key of a metadata item's `extraAttributes` dictionary.
/// Matches Apple: an extensible string wrapper with Apple's raw values.
public struct AVMetadataExtraAttributeKey: RawRepresentable, Hashable, Sendable {
    /// The key's string, for example "URL".
    public let rawValue: String

    /// Creates an extra-attribute key from its raw value.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates an extra-attribute key from its raw value.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The URI of the item's value, for items whose value is a reference (HLS date ranges).
    public static let valueURI = AVMetadataExtraAttributeKey(rawValue: "URL")
    /// The base URI against which a relative value URI resolves.
    public static let baseURI = AVMetadataExtraAttributeKey(rawValue: "baseURL")
    /// Additional information about the item's value, such as an ID3 frame's description.
    public static let info = AVMetadataExtraAttributeKey(rawValue: "info")
}
