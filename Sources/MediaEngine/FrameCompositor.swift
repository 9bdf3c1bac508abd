import CPixman
import Foundation
import OpenCoreVideo

/// Draws pictures onto a picture (pixman): the pixel work of a video composition. Each layer is
/// a 32-bit BGRA picture drawn through an affine transform (bilinear filtering; exact copies
/// stay exact), cut to a crop rectangle, at an opacity, over what is already there; the
/// destination starts as a solid background colour.
///
/// pixman was chosen by measurement on 1920x1080 frames on this machine (per frame): a
/// crossfade (copy, then a 50 % draw over it) 1.4 ms against 2.1 ms for libavfilter's `blend`
/// on 4:2:0 and 17.6 ms on BGRA (6.3 ms for `xfade`); a rotated and scaled layer over a
/// background 12.7 ms against 18.5 ms for `rotate`, `scale` and `overlay`. It also takes any
/// affine transform per frame, where a filter graph is built for fixed parameters.
///
/// Not thread safe: one compositor serves one composition's frames in turn.
package final class FrameCompositor {
    private var destination: OpaquePointer?
    private var destinationBuffer: CVPixelBuffer?

    package init() {}

    deinit { releaseDestination() }

    private func releaseDestination() {
        if let destination { pixman_image_unref(destination) }
        destination = nil
        if let destinationBuffer { CVPixelBufferUnlockBaseAddress(destinationBuffer, []) }
        destinationBuffer = nil
    }

    /// Starts a picture in `buffer` (32-bit BGRA), filled with `background` (red, green, blue,
    /// alpha, 0–1, not premultiplied).
    package func begin(_ buffer: CVPixelBuffer, background: (red: Double, green: Double, blue: Double, alpha: Double)) {
        releaseDestination()
        CVPixelBufferLockBaseAddress(buffer, [])
        destinationBuffer = buffer
        let width = CVPixelBufferGetWidth(buffer), height = CVPixelBufferGetHeight(buffer)
        destination = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(width), Int32(height),
                                               CVPixelBufferGetBaseAddress(buffer)?.assumingMemoryBound(to: UInt32.self),
                                               Int32(CVPixelBufferGetBytesPerRow(buffer)))
        func channel(_ value: Double) -> UInt16 { UInt16((min(max(value, 0), 1) * background.alpha * 65535).rounded()) }
        var color = pixman_color_t(red: channel(background.red), green: channel(background.green), blue: channel(background.blue),
                                   alpha: UInt16((min(max(background.alpha, 0), 1) * 65535).rounded()))
        if let fill = pixman_image_create_solid_fill(&color) {
            pixman_image_composite32(PIXMAN_OP_SRC, fill, nil, destination, 0, 0, 0, 0, 0, 0, Int32(width), Int32(height))
            pixman_image_unref(fill)
        }
    }

    /// Draws `source` (32-bit BGRA, opaque) at `opacity` (0–1) over the picture begun: its
    /// pixel `p` (inside `crop`, in source pixels with its edges rounded to the nearest pixel,
    /// or anywhere when nil) lands at `transform.apply(p)` in the destination.
    package func draw(_ source: CVPixelBuffer, transform: CGAffineTransform, opacity: Double, crop: CGRect?) {
        guard let destination, let destinationBuffer, opacity > 0 else { return }
        let width = CVPixelBufferGetWidth(source), height = CVPixelBufferGetHeight(source)
        var area = CGRect(x: 0, y: 0, width: width, height: height)
        if let crop {
            let (left, top) = (crop.minX.rounded(), crop.minY.rounded())
            area = area.intersection(CGRect(x: left, y: top, width: crop.maxX.rounded() - left, height: crop.maxY.rounded() - top))
        }
        guard !area.isEmpty, !area.isNull else { return }
        CVPixelBufferLockBaseAddress(source, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(source, .readOnly) }
        guard let base = CVPixelBufferGetBaseAddress(source) else { return }
        let stride = CVPixelBufferGetBytesPerRow(source)
        let origin = base + Int(area.minY) * stride + Int(area.minX) * 4
        guard let image = pixman_image_create_bits(PIXMAN_x8r8g8b8, Int32(area.width), Int32(area.height),
                                                   origin.assumingMemoryBound(to: UInt32.self), Int32(stride)) else { return }
        defer { pixman_image_unref(image) }
        // pixman maps destination pixels back into the source: the inverse, with the crop's
        // origin moved to the sub-picture's.
        let placed = CGAffineTransform(translationX: area.minX, y: area.minY).concatenating(transform)
        let inverse = placed.inverted()
        let exact = placed.a == 1 && placed.b == 0 && placed.c == 0 && placed.d == 1
            && placed.tx == placed.tx.rounded() && placed.ty == placed.ty.rounded()
        if !exact {
            var matrix = pixman_transform_t()
            func fixed(_ value: Double) -> pixman_fixed_t { pixman_fixed_t((value * 65536).rounded()) }
            matrix.matrix.0 = (fixed(inverse.a), fixed(inverse.c), fixed(inverse.tx))
            matrix.matrix.1 = (fixed(inverse.b), fixed(inverse.d), fixed(inverse.ty))
            matrix.matrix.2 = (0, 0, fixed(1))
            pixman_image_set_transform(image, &matrix)
            pixman_image_set_filter(image, PIXMAN_FILTER_BILINEAR, nil, 0)
        }
        var mask: OpaquePointer?
        if opacity < 1 {
            var color = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16((opacity * 65535).rounded()))
            mask = pixman_image_create_solid_fill(&color)
        }
        defer { if let mask { pixman_image_unref(mask) } }
        // Only the destination rectangle the layer can reach is visited.
        let corners = [CGPoint(x: 0, y: 0), CGPoint(x: area.width, y: 0), CGPoint(x: 0, y: area.height),
                       CGPoint(x: area.width, y: area.height)].map { $0.applying(placed) }
        let destinationWidth = Double(CVPixelBufferGetWidth(destinationBuffer)), destinationHeight = Double(CVPixelBufferGetHeight(destinationBuffer))
        let left = max(0, (corners.map(\.x).min() ?? 0).rounded(.down)), top = max(0, (corners.map(\.y).min() ?? 0).rounded(.down))
        let right = min(destinationWidth, (corners.map(\.x).max() ?? 0).rounded(.up))
        let bottom = min(destinationHeight, (corners.map(\.y).max() ?? 0).rounded(.up))
        guard right > left, bottom > top else { return }
        if exact {
            pixman_image_composite32(opacity < 1 ? PIXMAN_OP_OVER : PIXMAN_OP_SRC, image, mask, destination,
                                     Int32(left - placed.tx), Int32(top - placed.ty), 0, 0,
                                     Int32(left), Int32(top), Int32(right - left), Int32(bottom - top))
        } else {
            pixman_image_composite32(PIXMAN_OP_OVER, image, mask, destination, Int32(left), Int32(top), 0, 0,
                                     Int32(left), Int32(top), Int32(right - left), Int32(bottom - top))
        }
    }

    /// Ends the picture begun; the buffer holds it.
    package func end() {
        releaseDestination()
    }
}
