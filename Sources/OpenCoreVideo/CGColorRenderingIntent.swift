/// How colors outside the destination gamut are mapped, as Core Graphics.
///
/// Differs from Apple: stored on `CGImage` only; OpenCoreVideo performs no color matching.
public enum CGColorRenderingIntent: Int32, Sendable {
    /// The context's default intent.
    case defaultIntent = 0
    /// Map out-of-gamut colors to the nearest in-gamut color, keeping the white point of the source.
    case absoluteColorimetric = 1
    /// Map out-of-gamut colors to the nearest in-gamut color, adapting the white point.
    case relativeColorimetric = 2
    /// Preserve the visual relationship between colors.
    case perceptual = 3
    /// Preserve saturation.
    case saturation = 4
}
