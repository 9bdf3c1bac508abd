/// A profile of a file type: the rules segments written by `AVAssetWriter` follow.
public struct AVFileTypeProfile: RawRepresentable, Hashable, Sendable {
    /// The profile's name.
    public let rawValue: String

    /// Creates a profile from its name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Fragmented MPEG-4 for HTTP Live Streaming: the initialization segment, then a
    /// `moof`/`mdat` fragment per segment.
    public static let mpeg4AppleHLS = AVFileTypeProfile(rawValue: "MPEG4AppleHLS")

    /// Fragmented MPEG-4 following the Common Media Application Format (CMAF).
    public static let mpeg4CMAFCompliant = AVFileTypeProfile(rawValue: "MPEG4CMAFCompliant")
}
