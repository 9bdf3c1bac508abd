import Foundation
import OpenCoreVideo

/// A rotation by a multiple of 90° combined with an optional mirroring: the pixel moves
/// `PixelConverter.transform` makes, as the 2x2 part of a `CGAffineTransform` (`a`, `b`, `c`,
/// `d`, each -1, 0 or 1; a point `(x, y)` goes to `(a·x + c·y, b·x + d·y)`, y pointing down).
package struct QuarterTurn: Hashable, Sendable {
    /// How far x moves along x (the matrix's `a`).
    package let a: Int
    /// How far x moves along y (`b`).
    package let b: Int
    /// How far y moves along x (`c`).
    package let c: Int
    /// How far y moves along y (`d`).
    package let d: Int

    /// No change.
    package static let identity = QuarterTurn(a: 1, b: 0, c: 0, d: 1)

    private init(a: Int, b: Int, c: Int, d: Int) {
        (self.a, self.b, self.c, self.d) = (a, b, c, d)
    }

    /// The turn of a transform's matrix, or nil when it is not a quarter turn (with or without
    /// mirroring).
    package init?(a: Double, b: Double, c: Double, d: Double) {
        let values = [a, b, c, d].map { Int($0.rounded()) }
        guard values.allSatisfy({ abs($0) <= 1 }), values[0] * values[3] - values[1] * values[2] != 0,
              values[0] * values[1] == 0, values[2] * values[3] == 0 else { return nil }
        self.init(a: values[0], b: values[1], c: values[2], d: values[3])
    }

    /// A clockwise rotation by `degrees` (a multiple of 90), then, when `mirrored`, a
    /// left-right flip of the rotated picture.
    package init(clockwiseDegrees degrees: Int, mirrored: Bool) {
        let turns = ((degrees / 90) % 4 + 4) % 4
        let (cos, sin) = [(1, 0), (0, 1), (-1, 0), (0, -1)][turns]
        let flip = mirrored ? -1 : 1
        self.init(a: flip * cos, b: sin, c: -flip * sin, d: cos)
    }

    /// Whether pixels stay where they are.
    package var isIdentity: Bool { self == .identity }

    /// Whether width and height trade places (a turn by 90° or 270°).
    package var swapsSides: Bool { a == 0 }

    /// The size of a `width` x `height` picture after the turn.
    package func size(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsSides ? (height, width) : (width, height)
    }

    /// The display transform of a `width` x `height` picture turned so: the turn, then the
    /// translation that brings the turned picture back to the origin, as a track's
    /// `preferredTransform` holds it.
    package func transform(width: Int, height: Int) -> CGAffineTransform {
        let (w, h) = (CGFloat(width), CGFloat(height))
        return CGAffineTransform(a: CGFloat(a), b: CGFloat(b), c: CGFloat(c), d: CGFloat(d),
                                 tx: -(min(0, CGFloat(a) * w) + min(0, CGFloat(c) * h)),
                                 ty: -(min(0, CGFloat(b) * w) + min(0, CGFloat(d) * h)))
    }

    /// Where the point `point` of the unturned picture (0 to 1 across and down) is in the
    /// turned one (0 to 1 across and down).
    package func turned(_ point: CGPoint) -> CGPoint {
        let x = point.x - 0.5, y = point.y - 0.5
        return CGPoint(x: CGFloat(a) * x + CGFloat(c) * y + 0.5, y: CGFloat(b) * x + CGFloat(d) * y + 0.5)
    }

    /// The point of the unturned picture (0 to 1 across and down) at `point` of the turned one:
    /// the inverse of `turned(_:)` (a turn is a signed permutation, so its inverse is its
    /// transpose).
    package func unturned(_ point: CGPoint) -> CGPoint {
        let u = point.x - 0.5, v = point.y - 0.5
        return CGPoint(x: CGFloat(a) * u + CGFloat(b) * v + 0.5, y: CGFloat(c) * u + CGFloat(d) * v + 0.5)
    }
}

extension CGRect {
    /// The rectangle with opposite corners `a` and `b`.
    package init(corners a: CGPoint, _ b: CGPoint) {
        self.init(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x), height: abs(a.y - b.y))
    }
}
