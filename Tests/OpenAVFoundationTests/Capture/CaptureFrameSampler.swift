import Foundation
@testable import OpenAVFoundation

/// Keeps copies of the pictures a video data output delivers (BGRA, or the luma of 4:2:0), to
/// measure what is in them: colours at points, mean levels of regions.
final class CaptureFrameSampler: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    /// One delivered picture.
    struct Picture {
        var width: Int
        var height: Int
        var pixelFormat: OSType
        var time: CMTime
        /// Packed rows: 4 bytes a pixel (B, G, R, A) for BGRA, 1 (luma) for 4:2:0.
        var bytes: [UInt8]

        var bytesPerPixel: Int { pixelFormat == kCVPixelFormatType_32BGRA ? 4 : 1 }

        /// (R, G, B) at a point, for BGRA pictures.
        func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
            let offset = (y * width + x) * 4
            return (Int(bytes[offset + 2]), Int(bytes[offset + 1]), Int(bytes[offset]))
        }

        /// The luma at a point, for 4:2:0 pictures.
        func luma(_ x: Int, _ y: Int) -> Int { Int(bytes[y * width + x]) }

        /// The mean of each channel (R, G, B; or luma three times) over a rectangle.
        func mean(x: Int, y: Int, width w: Int, height h: Int) -> (r: Double, g: Double, b: Double) {
            var sums = (0.0, 0.0, 0.0)
            for row in y..<(y + h) {
                for column in x..<(x + w) {
                    if bytesPerPixel == 4 {
                        let (r, g, b) = rgb(column, row)
                        sums = (sums.0 + Double(r), sums.1 + Double(g), sums.2 + Double(b))
                    } else {
                        let l = Double(luma(column, row))
                        sums = (sums.0 + l, sums.1 + l, sums.2 + l)
                    }
                }
            }
            let count = Double(w * h)
            return (sums.0 / count, sums.1 / count, sums.2 / count)
        }
    }

    private let condition = NSCondition()
    private var pictures: [Picture] = []
    private var delivered = 0
    /// How many pictures are kept (the newest).
    private let keep: Int

    init(keep: Int = 8) {
        self.keep = keep
    }

    /// How many pictures were delivered so far.
    var count: Int { condition.withLock { delivered } }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer,
                       from connection: AVCaptureConnection) {
        guard let pixels = CMSampleBufferGetImageBuffer(sampleBuffer) else { return }
        CVPixelBufferLockBaseAddress(pixels, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(pixels, .readOnly) }
        let width = CVPixelBufferGetWidth(pixels), height = CVPixelBufferGetHeight(pixels)
        let format = CVPixelBufferGetPixelFormatType(pixels)
        let isBGRA = format == kCVPixelFormatType_32BGRA
        let base = (isBGRA ? CVPixelBufferGetBaseAddress(pixels) : CVPixelBufferGetBaseAddressOfPlane(pixels, 0))!
        let stride = isBGRA ? CVPixelBufferGetBytesPerRow(pixels) : CVPixelBufferGetBytesPerRowOfPlane(pixels, 0)
        let rowBytes = width * (isBGRA ? 4 : 1)
        var bytes = [UInt8](repeating: 0, count: rowBytes * height)
        bytes.withUnsafeMutableBytes { target in
            for row in 0..<height {
                (target.baseAddress! + row * rowBytes).copyMemory(from: base + row * stride, byteCount: rowBytes)
            }
        }
        let picture = Picture(width: width, height: height, pixelFormat: format,
                              time: CMSampleBufferGetPresentationTimeStamp(sampleBuffer), bytes: bytes)
        condition.withLock {
            pictures.append(picture)
            if pictures.count > keep { pictures.removeFirst() }
            delivered += 1
            condition.broadcast()
        }
    }

    /// Waits (up to `timeout` seconds) for a picture delivered after the first `after` that
    /// satisfies `predicate`; returns it.
    func picture(after: Int, timeout: TimeInterval = 5, where predicate: (Picture) -> Bool = { _ in true }) -> Picture? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let fresh = pictures.suffix(max(0, delivered - after))
            if let found = fresh.first(where: predicate) { return found }
            if !condition.wait(until: deadline) { return nil }
        }
    }
}
