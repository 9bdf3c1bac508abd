import Foundation
import MediaEngine
import OpenCoreVideo

/// The Test Pattern Camera's QR code: the frame index in decimal digits, drawn (when the camera
/// is asked to show it) in the bottom-right corner of every frame, flash frames included, over
/// whatever the controls did to the picture, so that a code reader sees one code a frame.
///
/// Layout: a version 1 QR code (21 modules a side, zxing-cpp's default error correction) with a
/// quiet zone of 4 light modules, 29 modules a side in all; a module is `height / 87` pixels
/// rounded down to even (12 at 1080 high, 4 at 480), so the code takes a third of the picture's
/// height. Its quiet zone ends one module from the right and bottom edges. Dark modules are
/// black, light ones white; chroma is neutral. Used by one thread at a time.
final class FrameIndexQRCode {
    /// Modules a side of the code itself (version 1).
    static let codeModules = 21
    /// Light modules around the code.
    static let quietModules = 4

    /// Pixels a module.
    let moduleSide: Int
    /// The code's place in the picture, quiet zone included, in pixels (even origin and size).
    let frame: (x: Int, y: Int, side: Int)

    private let pixelFormat: OSType
    /// The last code drawn, one byte a module.
    private let modules = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: codeModules * codeModules)
    /// One picture row per module row, as the picture's first plane lays it out.
    private let row: UnsafeMutableRawBufferPointer

    /// A code for pictures of `format`, or nil when they are too small to show it (under 174
    /// pixels high).
    init?(format: CaptureVideoFormat) {
        let total = Self.codeModules + 2 * Self.quietModules
        moduleSide = (format.height / (3 * total)) & ~1
        let side = moduleSide * total
        guard moduleSide >= 2, side + moduleSide <= format.width else { return nil }
        frame = (format.width - side - moduleSide, format.height - side - moduleSide, side)
        pixelFormat = format.pixelFormat
        row = .allocate(byteCount: side * (pixelFormat == kCVPixelFormatType_32BGRA ? 4 : 1), alignment: 64)
    }

    deinit {
        modules.deallocate()
        row.deallocate()
    }

    /// Draws the code of `index` into `buffer` (locked by the caller, of the format given).
    func draw(index: UInt64, into buffer: CVPixelBuffer) {
        guard let drawn = CodeWriter.draw(String(index), as: .qrCode, into: modules, limit: Self.codeModules),
              drawn.width == Self.codeModules, drawn.height == Self.codeModules else { return }
        let bgra = pixelFormat == kCVPixelFormatType_32BGRA
        let fullRange = pixelFormat == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange
        let (dark, light): (UInt8, UInt8) = bgra || fullRange ? (0, 255) : (16, 235)
        let base = bgra ? CVPixelBufferGetBaseAddress(buffer)! : CVPixelBufferGetBaseAddressOfPlane(buffer, 0)!
        let stride = bgra ? CVPixelBufferGetBytesPerRow(buffer) : CVPixelBufferGetBytesPerRowOfPlane(buffer, 0)
        let bytesPerPixel = bgra ? 4 : 1
        let total = Self.codeModules + 2 * Self.quietModules
        for moduleRow in 0..<total {
            // The row's pixels, module by module, then copied to each of its picture rows.
            for moduleColumn in 0..<total {
                let codeRow = moduleRow - Self.quietModules, codeColumn = moduleColumn - Self.quietModules
                let isDark = (0..<Self.codeModules).contains(codeRow) && (0..<Self.codeModules).contains(codeColumn)
                    && modules[codeRow * Self.codeModules + codeColumn] != 0
                let start = moduleColumn * moduleSide * bytesPerPixel
                let level = isDark ? dark : light
                if bgra {
                    for pixel in 0..<moduleSide {
                        row.storeBytes(of: UInt32(level) * 0x010101 | 0xFF00_0000, toByteOffset: start + pixel * 4, as: UInt32.self)
                    }
                } else {
                    memset(row.baseAddress! + start, Int32(level), moduleSide)
                }
            }
            for line in 0..<moduleSide {
                let y = frame.y + moduleRow * moduleSide + line
                memcpy(base + y * stride + frame.x * bytesPerPixel, row.baseAddress!, row.count)
            }
        }
        guard !bgra, let chroma = CVPixelBufferGetBaseAddressOfPlane(buffer, 1) else { return }
        let chromaStride = CVPixelBufferGetBytesPerRowOfPlane(buffer, 1)
        for y in (frame.y / 2)..<((frame.y + frame.side) / 2) {
            memset(chroma + y * chromaStride + frame.x, 128, frame.side)
        }
    }
}
