/// The layout of a bitmap's pixels: alpha information, float components and byte order, as Core Graphics.
public struct CGBitmapInfo: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: UInt32

    /// Creates bitmap information from raw bits (for example a `CGImageAlphaInfo` raw value).
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// The bits holding a `CGImageAlphaInfo`.
    public static let alphaInfoMask = CGBitmapInfo(rawValue: 0x1F)
    /// The bits holding float information.
    public static let floatInfoMask = CGBitmapInfo(rawValue: 0xF00)
    /// Components are floating-point values.
    public static let floatComponents = CGBitmapInfo(rawValue: 1 << 8)
    /// The bits holding the byte order.
    public static let byteOrderMask = CGBitmapInfo(rawValue: 0x7000)
    /// The default byte order (big-endian).
    public static let byteOrderDefault = CGBitmapInfo([])
    /// 16-bit little-endian words.
    public static let byteOrder16Little = CGBitmapInfo(rawValue: 1 << 12)
    /// 32-bit little-endian words.
    public static let byteOrder32Little = CGBitmapInfo(rawValue: 2 << 12)
    /// 16-bit big-endian words.
    public static let byteOrder16Big = CGBitmapInfo(rawValue: 3 << 12)
    /// 32-bit big-endian words.
    public static let byteOrder32Big = CGBitmapInfo(rawValue: 4 << 12)
    /// 16-bit words in the host's byte order (little-endian on the platforms Swift on Linux runs on).
    public static let byteOrder16Host: CGBitmapInfo = 1.littleEndian == 1 ? .byteOrder16Little : .byteOrder16Big
    /// 32-bit words in the host's byte order (little-endian on the platforms Swift on Linux runs on).
    public static let byteOrder32Host: CGBitmapInfo = 1.littleEndian == 1 ? .byteOrder32Little : .byteOrder32Big
}
