// The media types of tracks and capture ports, with Apple's raw values.

/// An identifier for various media types, such as video or audio.
/// Matches Apple: an extensible string wrapper whose raw values are Apple's four-character codes.
public struct AVMediaType: RawRepresentable, Hashable, Sendable {
    /// The four-character code of the media type, for example "vide".
    public let rawValue: String

    /// Creates a media type from its raw value.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a media type from its raw value.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The media contains video.
    public static let video = AVMediaType(rawValue: "vide")
    /// The media contains audio.
    public static let audio = AVMediaType(rawValue: "soun")
    /// The media contains text.
    public static let text = AVMediaType(rawValue: "text")
    /// The media contains closed-caption content.
    public static let closedCaption = AVMediaType(rawValue: "clcp")
    /// The media contains subtitles.
    public static let subtitle = AVMediaType(rawValue: "sbtl")
    /// The media contains a timecode.
    public static let timecode = AVMediaType(rawValue: "tmcd")
    /// The media contains timed metadata.
    public static let metadata = AVMediaType(rawValue: "meta")
    /// The media contains muxed media.
    public static let muxed = AVMediaType(rawValue: "muxx")
    /// The media contains metadata objects (what `AVCaptureMetadataOutput` delivers).
    public static let metadataObject = AVMediaType(rawValue: "mobj")
    /// The media contains depth data.
    public static let depthData = AVMediaType(rawValue: "dpth")
    /// The media contains haptic content.
    public static let haptic = AVMediaType(rawValue: "hapt")
    /// The media contains auxiliary pictures, such as an alpha or depth layer alongside video.
    public static let auxiliaryPicture = AVMediaType(rawValue: "auxv")
}
