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

    /// The bytes of a single-plane pixel buffer, rows without their padding.
    public static func packed(_ buffer: CVPixelBuffer, bytesPerPixel: Int) -> [UInt8] {
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let base = CVPixelBufferGetBaseAddress(buffer)!.assumingMemoryBound(to: UInt8.self)
        let stride = CVPixelBufferGetBytesPerRow(buffer), rowBytes = CVPixelBufferGetWidth(buffer) * bytesPerPixel
        return (0..<CVPixelBufferGetHeight(buffer)).flatMap { Array(UnsafeBufferPointer(start: base + $0 * stride, count: rowBytes)) }
    }
}
