// The video codec identifiers used as values of AVVideoCodecKey, with Apple's values.

/// A video codec, the value of `AVVideoCodecKey` in video settings; raw values are Apple's.
public struct AVVideoCodecType: RawRepresentable, Hashable, Sendable {
    /// The codec's four-character code as a string, for example "avc1".
    public let rawValue: String

    /// Creates a codec type from its four-character string.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The H.264 codec ("avc1").
    public static let h264 = AVVideoCodecType(rawValue: "avc1")
    /// The HEVC codec ("hvc1").
    public static let hevc = AVVideoCodecType(rawValue: "hvc1")
    /// The HEVC codec with an alpha channel ("muxa").
    ///
    /// As on Apple platforms, this selects the encoder only; the written track's codec is "hvc1".
    public static let hevcWithAlpha = AVVideoCodecType(rawValue: "muxa")
    /// The JPEG (Motion JPEG) codec ("jpeg").
    public static let jpeg = AVVideoCodecType(rawValue: "jpeg")
    /// The Apple ProRes 422 codec ("apcn").
    public static let proRes422 = AVVideoCodecType(rawValue: "apcn")
    /// The Apple ProRes 422 HQ codec ("apch").
    public static let proRes422HQ = AVVideoCodecType(rawValue: "apch")
    /// The Apple ProRes 422 LT codec ("apcs").
    public static let proRes422LT = AVVideoCodecType(rawValue: "apcs")
    /// The Apple ProRes 422 Proxy codec ("apco").
    public static let proRes422Proxy = AVVideoCodecType(rawValue: "apco")
    /// The Apple ProRes 4444 codec ("ap4h").
    public static let proRes4444 = AVVideoCodecType(rawValue: "ap4h")

    // Apple's codec types the writer here does not encode (`canApply(outputSettings:forMediaType:)`
    // is false for them).

    /// The Apple ProRes 4444 XQ codec ("ap4x"). Not encoded here.
    public static let appleProRes4444XQ = AVVideoCodecType(rawValue: "ap4x")
    /// The Apple ProRes RAW codec ("aprn"). Not encoded here.
    public static let proResRAW = AVVideoCodecType(rawValue: "aprn")
    /// The Apple ProRes RAW HQ codec ("aprh"). Not encoded here.
    public static let proResRAWHQ = AVVideoCodecType(rawValue: "aprh")
    /// The JPEG XL codec ("jxlc"), for photos. Not encoded here.
    public static let JPEGXL = AVVideoCodecType(rawValue: "jxlc")
}
