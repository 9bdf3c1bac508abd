import Foundation

/// A 2-D affine transform: the matrix `[a b 0; c d 0; tx ty 1]`, mapping a point (x, y) to
/// (a·x + c·y + tx, b·x + d·y + ty), as Core Graphics.
///
/// Differs from Apple: defined here because Foundation on Linux lacks it; the C functions
/// (`CGAffineTransformMakeRotation` and so on) are not provided, use the initializers and methods.
public struct CGAffineTransform: Hashable, Sendable, Codable {
    /// Matrix entry a (x scale and rotation).
    public var a: CGFloat
    /// Matrix entry b (rotation and shear).
    public var b: CGFloat
    /// Matrix entry c (rotation and shear).
    public var c: CGFloat
    /// Matrix entry d (y scale and rotation).
    public var d: CGFloat
    /// Horizontal translation.
    public var tx: CGFloat
    /// Vertical translation.
    public var ty: CGFloat

    /// Creates a transform from its six matrix entries.
    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// Creates a transform from its six matrix entries, unlabeled.
    public init(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat, _ tx: CGFloat, _ ty: CGFloat) {
        self.init(a: a, b: b, c: c, d: d, tx: tx, ty: ty)
    }

    /// Creates the identity transform.
    public init() {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    }

    /// The identity transform.
    public static let identity = CGAffineTransform()

    /// Creates a rotation by `angle` radians (counterclockwise in a y-up coordinate system).
    public init(rotationAngle angle: CGFloat) {
        let cosine = CGFloat(Foundation.cos(Double(angle)))
        let sine = CGFloat(Foundation.sin(Double(angle)))
        self.init(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
    }

    /// Creates a scale by `sx` horizontally and `sy` vertically.
    public init(scaleX sx: CGFloat, y sy: CGFloat) {
        self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// Creates a translation by (`tx`, `ty`).
    public init(translationX tx: CGFloat, y ty: CGFloat) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
    }

    /// Whether this is the identity transform.
    public var isIdentity: Bool {
        self == .identity
    }

    /// Returns the transform that applies `self` first, then `t2`.
    public func concatenating(_ t2: CGAffineTransform) -> CGAffineTransform {
        CGAffineTransform(
            a: a * t2.a + b * t2.c,
            b: a * t2.b + b * t2.d,
            c: c * t2.a + d * t2.c,
            d: c * t2.b + d * t2.d,
            tx: tx * t2.a + ty * t2.c + t2.tx,
            ty: tx * t2.b + ty * t2.d + t2.ty)
    }

    /// Returns this transform preceded by a rotation by `angle` radians (rotate, then apply `self`).
    public func rotated(by angle: CGFloat) -> CGAffineTransform {
        CGAffineTransform(rotationAngle: angle).concatenating(self)
    }

    /// Returns this transform preceded by a scale (scale, then apply `self`).
    public func scaledBy(x sx: CGFloat, y sy: CGFloat) -> CGAffineTransform {
        CGAffineTransform(scaleX: sx, y: sy).concatenating(self)
    }

    /// Returns this transform preceded by a translation (translate, then apply `self`).
    public func translatedBy(x tx: CGFloat, y ty: CGFloat) -> CGAffineTransform {
        CGAffineTransform(translationX: tx, y: ty).concatenating(self)
    }

    /// Returns the inverse transform, or `self` unchanged if it is not invertible, as Apple.
    public func inverted() -> CGAffineTransform {
        let determinant = a * d - b * c
        guard determinant != 0, determinant.isFinite else { return self }
        return CGAffineTransform(
            a: d / determinant,
            b: -b / determinant,
            c: -c / determinant,
            d: a / determinant,
            tx: (c * ty - d * tx) / determinant,
            ty: (b * tx - a * ty) / determinant)
    }
}

extension CGPoint {
    /// Returns the point mapped by `t`.
    public func applying(_ t: CGAffineTransform) -> CGPoint {
        CGPoint(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }
}

extension CGSize {
    /// Returns the size mapped by `t`, ignoring translation (the result may be negative), as Apple.
    public func applying(_ t: CGAffineTransform) -> CGSize {
        CGSize(width: t.a * width + t.c * height, height: t.b * width + t.d * height)
    }
}

extension CGRect {
    /// Returns the smallest rectangle containing the transformed corners of this rectangle, as
    /// Apple; the null and infinite rectangles are returned unchanged.
    public func applying(_ t: CGAffineTransform) -> CGRect {
        guard !isNull, !isInfinite else { return self }
        let corners = [
            CGPoint(x: minX, y: minY), CGPoint(x: maxX, y: minY),
            CGPoint(x: minX, y: maxY), CGPoint(x: maxX, y: maxY),
        ].map { $0.applying(t) }
        let xs = corners.map(\.x)
        let ys = corners.map(\.y)
        let left = xs.min()!, right = xs.max()!, bottom = ys.min()!, top = ys.max()!
        return CGRect(x: left, y: bottom, width: right - left, height: top - bottom)
    }
}
