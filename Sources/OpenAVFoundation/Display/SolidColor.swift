import Foundation
import OpenCoreVideo

/// A colour as a window draws it: a one-pixel BGRA picture (straight alpha) that the window's
/// canvas stretches over a rectangle, as it scales video. A layer's background and border.
struct SolidColor {
    /// The colour.
    let color: CGColor
    /// Its pixel.
    private let pixel: CVPixelBuffer

    /// The colour's pixel: gray or RGB components (as given: there is no colour matching) and
    /// alpha, each rounded to 8 bits.
    init(_ color: CGColor) {
        self.color = color
        let components = color.components ?? [0, 1]
        let rgb = components.count >= 4 ? Array(components[0..<3]) : Array(repeating: components.first ?? 0, count: 3)
        func byte(_ value: CGFloat) -> UInt8 { UInt8((min(max(value, 0), 1) * 255).rounded()) }
        var made: CVPixelBuffer?
        CVPixelBufferCreate(nil, 1, 1, kCVPixelFormatType_32BGRA, nil, &made)
        guard let made else { preconditionFailure("cannot make a one-pixel picture") }
        CVPixelBufferLockBaseAddress(made, [])
        let bytes = CVPixelBufferGetBaseAddress(made)!.assumingMemoryBound(to: UInt8.self)
        (bytes[0], bytes[1], bytes[2], bytes[3]) = (byte(rgb[2]), byte(rgb[1]), byte(rgb[0]), byte(color.alpha))
        CVPixelBufferUnlockBaseAddress(made, [])
        pixel = made
    }

    /// The colour over `rect` (window coordinates).
    func picture(filling rect: CGRect) -> LayerPicture {
        LayerPicture(buffer: pixel, rect: rect, clip: rect)
    }
}
