// The aperture modes of AVVideoSettings.h, with Apple's values.

/// How a video's picture is cropped and scaled for display: to its clean aperture, its
/// production aperture, or not at all (the encoded pixels). Linux: the names only; nothing here
/// takes a mode (there is no `AVPlayerItem.videoApertureMode`).
public struct AVVideoApertureMode: RawRepresentable, Hashable, Sendable {
    /// The mode's name, for example "CleanAperture".
    public let rawValue: String

    /// Creates a mode from its name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The clean aperture, scaled to the pixel aspect ratio: the region meant to be shown.
    public static let cleanAperture = AVVideoApertureMode(rawValue: "CleanAperture")
    /// The whole picture, scaled to the pixel aspect ratio.
    public static let productionAperture = AVVideoApertureMode(rawValue: "ProductionAperture")
    /// The encoded pixels, neither cropped nor scaled.
    public static let encodedPixels = AVVideoApertureMode(rawValue: "EncodedPixels")
}
