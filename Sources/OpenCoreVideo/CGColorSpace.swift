import Foundation

/// A color space: a name and the number of color components, as Core Graphics.
///
/// Differs from Apple: a descriptive tag only; OpenCoreVideo performs no color conversion and
/// supports only the named RGB and gray spaces below (no ICC profiles, no indexed or Lab spaces).
public final class CGColorSpace: @unchecked Sendable, Hashable {
    /// The color space's name, such as `CGColorSpace.sRGB`.
    public let name: CFString?
    /// The number of color components (3 for RGB spaces, 1 for gray spaces), not counting alpha.
    public let numberOfComponents: Int

    /// The sRGB color space (IEC 61966-2-1).
    public static let sRGB: CFString = "kCGColorSpaceSRGB"
    /// A linear RGB color space with sRGB primaries.
    public static let linearSRGB: CFString = "kCGColorSpaceLinearSRGB"
    /// The generic RGB color space.
    public static let genericRGB: CFString = "kCGColorSpaceGenericRGB"
    /// The generic linear RGB color space.
    public static let genericRGBLinear: CFString = "kCGColorSpaceGenericRGBLinear"
    /// The ITU-R BT.709 color space.
    public static let itur_709: CFString = "kCGColorSpaceITUR_709"
    /// The ITU-R BT.2020 color space.
    public static let itur_2020: CFString = "kCGColorSpaceITUR_2020"
    /// The Display P3 color space.
    public static let displayP3: CFString = "kCGColorSpaceDisplayP3"
    /// The generic gray color space with a gamma of 2.2.
    public static let genericGrayGamma2_2: CFString = "kCGColorSpaceGenericGrayGamma2_2"
    /// A linear gray color space.
    public static let linearGray: CFString = "kCGColorSpaceLinearGray"
    /// The sRGB color space extended to values below 0 and above 1.
    public static let extendedSRGB: CFString = "kCGColorSpaceExtendedSRGB"
    /// The linear sRGB color space extended to values below 0 and above 1.
    public static let extendedLinearSRGB: CFString = "kCGColorSpaceExtendedLinearSRGB"
    /// The DCI-P3 color space (DCI white point, gamma 2.6).
    public static let dcip3: CFString = "kCGColorSpaceDCIP3"
    /// The Display P3 color space with a linear transfer function.
    public static let linearDisplayP3: CFString = "kCGColorSpaceLinearDisplayP3"
    /// The Display P3 color space extended to values below 0 and above 1.
    public static let extendedDisplayP3: CFString = "kCGColorSpaceExtendedDisplayP3"
    /// The Display P3 color space with the hybrid log-gamma transfer function.
    public static let displayP3_HLG: CFString = "kCGColorSpaceDisplayP3_HLG"
    /// The Display P3 color space with the PQ transfer function.
    public static let displayP3_PQ: CFString = "kCGColorSpaceDisplayP3_PQ"
    /// The ITU-R BT.2020 color space with a linear transfer function.
    public static let linearITUR_2020: CFString = "kCGColorSpaceLinearITUR_2020"
    /// The ITU-R BT.2020 color space extended to values below 0 and above 1.
    public static let extendedITUR_2020: CFString = "kCGColorSpaceExtendedITUR_2020"
    /// The ITU-R BT.2020 color space with a linear transfer function, extended to values below 0
    /// and above 1.
    public static let extendedLinearITUR_2020: CFString = "kCGColorSpaceExtendedLinearITUR_2020"
    /// The Display P3 color space with a linear transfer function, extended to values below 0 and
    /// above 1.
    public static let extendedLinearDisplayP3: CFString = "kCGColorSpaceExtendedLinearDisplayP3"
    /// The ITU-R BT.2100 color space with the PQ transfer function.
    public static let itur_2100_PQ: CFString = "kCGColorSpaceITUR_2100_PQ"
    /// The ITU-R BT.2100 color space with the hybrid log-gamma transfer function.
    public static let itur_2100_HLG: CFString = "kCGColorSpaceITUR_2100_HLG"
    /// The Adobe RGB (1998) color space.
    public static let adobeRGB1998: CFString = "kCGColorSpaceAdobeRGB1998"
    /// The gray color space extended to values below 0 and above 1.
    public static let extendedGray: CFString = "kCGColorSpaceExtendedGray"
    /// The linear gray color space extended to values below 0 and above 1.
    public static let extendedLinearGray: CFString = "kCGColorSpaceExtendedLinearGray"

    static let deviceRGBName: CFString = "kCGColorSpaceDeviceRGB"
    static let deviceGrayName: CFString = "kCGColorSpaceDeviceGray"

    private static let components: [String: Int] = [
        sRGB: 3, linearSRGB: 3, genericRGB: 3, genericRGBLinear: 3, itur_709: 3, itur_2020: 3, displayP3: 3,
        extendedSRGB: 3, extendedLinearSRGB: 3, dcip3: 3, linearDisplayP3: 3, extendedDisplayP3: 3,
        extendedLinearDisplayP3: 3, displayP3_HLG: 3, displayP3_PQ: 3, linearITUR_2020: 3, extendedITUR_2020: 3,
        extendedLinearITUR_2020: 3, itur_2100_PQ: 3, itur_2100_HLG: 3, adobeRGB1998: 3, deviceRGBName: 3,
        genericGrayGamma2_2: 1, linearGray: 1, extendedGray: 1, extendedLinearGray: 1, deviceGrayName: 1,
    ]

    /// Creates the named color space, or nil if the name is not one OpenCoreVideo knows.
    public init?(name: CFString) {
        guard let count = Self.components[name] else { return nil }
        self.name = name
        self.numberOfComponents = count
    }

    /// Two color spaces are equal when they have the same name.
    public static func == (lhs: CGColorSpace, rhs: CGColorSpace) -> Bool {
        lhs.name == rhs.name && lhs.numberOfComponents == rhs.numberOfComponents
    }

    /// Hashes the name.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
    }
}

/// Returns the device-dependent RGB color space.
///
/// Differs from Apple: treated as sRGB-like; its name is `"kCGColorSpaceDeviceRGB"`.
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace {
    CGColorSpace(name: CGColorSpace.deviceRGBName)!
}

/// Returns the device-dependent gray color space.
///
/// Differs from Apple: its name is `"kCGColorSpaceDeviceGray"`.
public func CGColorSpaceCreateDeviceGray() -> CGColorSpace {
    CGColorSpace(name: CGColorSpace.deviceGrayName)!
}
