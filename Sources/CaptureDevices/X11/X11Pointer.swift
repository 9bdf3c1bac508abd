import Foundation
import OpenCoreVideo

/// The pointer of an X11 screen at one moment: where it is, whether a button is down, and the
/// cursor's picture as the server shows it (from XFixes). Draws itself over a grabbed frame:
/// the ring that marks a click, then the cursor.
package struct X11Pointer {
    /// The cursor's picture: premultiplied ARGB pixels (alpha in the top byte), row by row,
    /// and the hotspot, the pixel of the picture that lies at the pointer's position.
    struct Cursor {
        let width: Int
        let height: Int
        let hotspot: (x: Int, y: Int)
        let pixels: [UInt32]
    }

    /// The ring drawn around the pointer while a button is down: its radius to the middle of
    /// its line, its line width, and its colour (opaque, `0xRRGGBB`).
    package static let clickRingRadius = 16
    package static let clickRingWidth = 4
    package static let clickRingColor: UInt32 = 0xFFD000

    /// The pointer's position, in pixels from the screen's top-left corner.
    let x: Int
    let y: Int
    /// Whether one of the first three buttons (left, middle, right) is down.
    let isButtonDown: Bool
    /// The cursor's picture; nil when it was not asked for.
    let cursor: Cursor?

    /// Draws over `buffer` (BGRA, showing the screen from `origin`): the click ring if
    /// `clicks` and a button is down, then the cursor if there is one; both clipped to the
    /// buffer.
    func draw(into buffer: CVPixelBuffer, origin: (x: Int, y: Int), clicks: Bool) {
        CVPixelBufferLockBaseAddress(buffer, [])
        defer { CVPixelBufferUnlockBaseAddress(buffer, []) }
        guard let base = CVPixelBufferGetBaseAddress(buffer) else { return }
        let canvas = Canvas(base: base, bytesPerRow: CVPixelBufferGetBytesPerRow(buffer),
                            width: CVPixelBufferGetWidth(buffer), height: CVPixelBufferGetHeight(buffer))
        let centre = (x: x - origin.x, y: y - origin.y)
        if clicks, isButtonDown { canvas.ring(around: centre) }
        if let cursor { canvas.composite(cursor, at: (centre.x - cursor.hotspot.x, centre.y - cursor.hotspot.y)) }
    }

    /// The rows of a locked BGRA buffer; drawing is clipped to it (strides of clipped ranges
    /// are empty when a shape lies wholly outside).
    private struct Canvas {
        let base: UnsafeMutableRawPointer
        let bytesPerRow: Int
        let width: Int
        let height: Int

        /// The row `y`'s pixels, as 32-bit values (`0xAARRGGBB` on a little-endian machine).
        func row(_ y: Int) -> UnsafeMutablePointer<UInt32> {
            (base + y * bytesPerRow).assumingMemoryBound(to: UInt32.self)
        }

        /// An opaque ring of `X11Pointer.clickRingColor` around `centre`: every pixel whose
        /// centre lies within half the line width of the circle.
        func ring(around centre: (x: Int, y: Int)) {
            let outer = Double(X11Pointer.clickRingRadius) + Double(X11Pointer.clickRingWidth) / 2
            let inner = Double(X11Pointer.clickRingRadius) - Double(X11Pointer.clickRingWidth) / 2
            let reach = Int(outer.rounded(.up))
            let colour = 0xFF00_0000 | X11Pointer.clickRingColor
            for y in stride(from: max(0, centre.y - reach), to: min(height, centre.y + reach + 1), by: 1) {
                let pixels = row(y)
                for x in stride(from: max(0, centre.x - reach), to: min(width, centre.x + reach + 1), by: 1) {
                    let distance = Double((x - centre.x) * (x - centre.x) + (y - centre.y) * (y - centre.y)).squareRoot()
                    if distance >= inner, distance <= outer { pixels[x] = colour }
                }
            }
        }

        /// The cursor's picture with its top-left corner at `corner`, blended over the
        /// pixels (premultiplied "over": picture + pixel × (1 − alpha)).
        func composite(_ cursor: Cursor, at corner: (x: Int, y: Int)) {
            for cy in stride(from: max(0, -corner.y), to: min(cursor.height, height - corner.y), by: 1) {
                let pixels = row(corner.y + cy)
                for cx in stride(from: max(0, -corner.x), to: min(cursor.width, width - corner.x), by: 1) {
                    let source = cursor.pixels[cy * cursor.width + cx]
                    let alpha = source >> 24
                    if alpha == 0 { continue }
                    let x = corner.x + cx
                    if alpha == 255 {
                        pixels[x] = source
                        continue
                    }
                    let target = pixels[x], keep = 255 - alpha
                    var blended: UInt32 = 0xFF00_0000
                    for shift: UInt32 in [0, 8, 16] {
                        let channel = (source >> shift & 0xFF) + ((target >> shift & 0xFF) * keep + 127) / 255
                        blended |= min(255, channel) << shift
                    }
                    pixels[x] = blended
                }
            }
        }
    }
}
