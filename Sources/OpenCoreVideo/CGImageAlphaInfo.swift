/// Where the alpha component of a bitmap is and whether colors are premultiplied by it, as Core Graphics.
public enum CGImageAlphaInfo: UInt32, Sendable {
    /// No alpha.
    case none = 0
    /// Alpha last (RGBA), premultiplied.
    case premultipliedLast = 1
    /// Alpha first (ARGB), premultiplied.
    case premultipliedFirst = 2
    /// Alpha last (RGBA), not premultiplied.
    case last = 3
    /// Alpha first (ARGB), not premultiplied.
    case first = 4
    /// An unused byte last (RGBX).
    case noneSkipLast = 5
    /// An unused byte first (XRGB).
    case noneSkipFirst = 6
    /// Alpha only, no color.
    case alphaOnly = 7
}
