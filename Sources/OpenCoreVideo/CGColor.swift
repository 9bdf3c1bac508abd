import Foundation

/// A color: components in a color space, followed by alpha, as Core Graphics.
///
/// Differs from Apple: no color matching; `components` are stored exactly as given.
public final class CGColor: @unchecked Sendable, Hashable {
    private let storedComponents: [CGFloat]
    private let space: CGColorSpace

    private init(space: CGColorSpace, components: [CGFloat]) {
        self.space = space
        self.storedComponents = components
    }

    /// Creates a color in the generic RGB color space.
    public convenience init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(space: CGColorSpace(name: CGColorSpace.genericRGB)!, components: [red, green, blue, alpha])
    }

    /// Creates a color in the sRGB color space.
    public convenience init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(space: CGColorSpace(name: CGColorSpace.sRGB)!, components: [red, green, blue, alpha])
    }

    /// Creates a color in the generic gray color space.
    public convenience init(gray: CGFloat, alpha: CGFloat) {
        self.init(space: CGColorSpace(name: CGColorSpace.genericGrayGamma2_2)!, components: [gray, alpha])
    }

    /// Creates a color in the generic gray color space with a gamma of 2.2 (the space
    /// `init(gray:alpha:)` uses too).
    public convenience init(genericGrayGamma2_2Gray gray: CGFloat, alpha: CGFloat) {
        self.init(gray: gray, alpha: alpha)
    }

    /// Creates a color in `space`, reading `space.numberOfComponents + 1` values (color components,
    /// then alpha) from `components`.
    public convenience init?(colorSpace space: CGColorSpace, components: UnsafePointer<CGFloat>) {
        self.init(space: space, components: Array(UnsafeBufferPointer(start: components, count: space.numberOfComponents + 1)))
    }

    /// Opaque black, in the generic gray color space.
    public static let black = CGColor(gray: 0, alpha: 1)
    /// Opaque white, in the generic gray color space.
    public static let white = CGColor(gray: 1, alpha: 1)
    /// Fully transparent black, in the generic gray color space.
    public static let clear = CGColor(gray: 0, alpha: 0)

    /// The components: the color space's components followed by alpha.
    public var components: [CGFloat]? {
        storedComponents
    }

    /// The number of components, including alpha.
    public var numberOfComponents: Int {
        storedComponents.count
    }

    /// The alpha component.
    public var alpha: CGFloat {
        storedComponents[storedComponents.count - 1]
    }

    /// The color's color space.
    public var colorSpace: CGColorSpace? {
        space
    }

    /// Returns the same color with a different alpha.
    public func copy(alpha: CGFloat) -> CGColor? {
        var components = storedComponents
        components[components.count - 1] = alpha
        return CGColor(space: space, components: components)
    }

    /// Two colors are equal when their color spaces and components are equal.
    public static func == (lhs: CGColor, rhs: CGColor) -> Bool {
        lhs.space == rhs.space && lhs.storedComponents == rhs.storedComponents
    }

    /// Hashes the color space and components.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(space)
        hasher.combine(storedComponents)
    }
}
