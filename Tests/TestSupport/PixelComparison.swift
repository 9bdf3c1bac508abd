import Foundation
import OpenCoreVideo

/// Compares pictures the way the tests' oracle does: packed bytes and PSNR against ffmpeg's
/// own decode.
public enum PixelComparison {
    /// Peak signal-to-noise ratio of two 8-bit sequences of the same length, in dB (0 when the
    /// lengths differ or are zero, so a size mismatch fails any threshold).
    public static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return 0 }
        var squared = 0.0
        for index in a.indices {
            let d = Double(a[index]) - Double(b[index])
            squared += d * d
        }
        return squared == 0 ? .infinity : 10 * log10(255 * 255 / (squared / Double(a.count)))
    }

    /// The luma of RGB24 pixels (BT.601 weights, rounded), one byte per pixel.
    public static func luma(rgb: [UInt8]) -> [UInt8] {
        stride(from: 0, to: rgb.count - 2, by: 3).map { (index: Int) -> UInt8 in
            let red = 299 * Int(rgb[index]), green = 587 * Int(rgb[index + 1]), blue = 114 * Int(rgb[index + 2])
            return UInt8((red + green + blue + 500) / 1000)
        }
    }

    /// The bytes of a single-plane pixel buffer, rows without their padding.
    public static func packed(_ buffer: CVPixelBuffer, bytesPerPixel: Int) -> [UInt8] {
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let base = CVPixelBufferGetBaseAddress(buffer)!.assumingMemoryBound(to: UInt8.self)
        let stride = CVPixelBufferGetBytesPerRow(buffer), rowBytes = CVPixelBufferGetWidth(buffer) * bytesPerPixel
        return (0..<CVPixelBufferGetHeight(buffer)).flatMap { Array(UnsafeBufferPointer(start: base + $0 * stride, count: rowBytes)) }
    }

    /// The bytes of every plane of a pixel buffer in order, rows without their padding: the
    /// layout of ffmpeg's `-f rawvideo` for the same pixel format (nv12, bgra, …).
    public static func rawVideo(_ buffer: CVPixelBuffer) -> [UInt8] {
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        return planeRows(buffer).flatMap { start, count in Array(UnsafeBufferPointer(start: start, count: count)) }
    }

    /// Fills a pixel buffer from ffmpeg's `-f rawvideo` bytes of the same format and size.
    public static func fill(_ buffer: CVPixelBuffer, rawVideo bytes: [UInt8]) {
        CVPixelBufferLockBaseAddress(buffer, [])
        defer { CVPixelBufferUnlockBaseAddress(buffer, []) }
        var offset = 0
        for (start, count) in planeRows(buffer) {
            bytes.withUnsafeBufferPointer { start.update(from: $0.baseAddress! + offset, count: count) }
            offset += count
        }
    }

    /// Every row of every plane: its first byte and its length without padding.
    private static func planeRows(_ buffer: CVPixelBuffer) -> [(UnsafeMutablePointer<UInt8>, Int)] {
        guard let layout = CVPixelFormatDescription.description(for: CVPixelBufferGetPixelFormatType(buffer)) else { return [] }
        let width = CVPixelBufferGetWidth(buffer), height = CVPixelBufferGetHeight(buffer)
        var rows: [(UnsafeMutablePointer<UInt8>, Int)] = []
        for (index, plane) in layout.planes.enumerated() {
            let planar = layout.planes.count > 1
            let base = (planar ? CVPixelBufferGetBaseAddressOfPlane(buffer, index) : CVPixelBufferGetBaseAddress(buffer))!
            let stride = planar ? CVPixelBufferGetBytesPerRowOfPlane(buffer, index) : CVPixelBufferGetBytesPerRow(buffer)
            for row in 0..<plane.height(forImageHeight: height) {
                rows.append(((base + row * stride).assumingMemoryBound(to: UInt8.self), plane.minimumBytesPerRow(forImageWidth: width)))
            }
        }
        return rows
    }
}
