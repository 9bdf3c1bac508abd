import Foundation
import OpenCoreVideo

/// A frame index drawn into a picture as black and white blocks that survive lossy video
/// compression, and read back from a decoded frame.
///
/// Layout: one row of 40 square blocks along the top edge, starting at the top-left pixel. The
/// block side is `width / 40` rounded down to even (16 px at 640 wide, 32 at 1280, 48 at 1920,
/// 96 at 3840: whole H.264 macroblocks), so the code scales with the picture and still reads
/// after scaling. Blocks, left to right:
///
/// | blocks | content |
/// |--------|---------|
/// | 0, 1   | start guard: white, black |
/// | 2–33   | the index's low 32 bits, most significant first; white is 1 |
/// | 34–37  | check nibble: the XOR of the index's eight nibbles, most significant bit first |
/// | 38, 39 | stop guard: black, white |
///
/// The reader averages the middle half of each block, takes the midpoint between the guards'
/// white and black as the threshold, and answers nil when the guards, the contrast or the check
/// nibble are wrong, so a damaged code is never misread as another index.
package enum FrameIndexBarcode {
    /// Blocks across the picture.
    package static let blockCount = 40
    /// Bits of the index that are drawn.
    package static let indexBits = 32

    /// The side of one block, in pixels, for a picture `width` pixels wide.
    package static func blockSize(forWidth width: Int) -> Int {
        max(2, (width / blockCount) & ~1)
    }

    /// The block values (true is white) for an index.
    package static func blocks(for index: Int) -> [Bool] {
        let value = UInt32(truncatingIfNeeded: index)
        var blocks: [Bool] = [true, false]
        for bit in (0..<32).reversed() { blocks.append(value >> UInt32(bit) & 1 == 1) }
        let check = checkNibble(value)
        for bit in (0..<4).reversed() { blocks.append(check >> UInt32(bit) & 1 == 1) }
        blocks += [false, true]
        return blocks
    }

    private static func checkNibble(_ value: UInt32) -> UInt32 {
        var check: UInt32 = 0
        for nibble in 0..<8 { check ^= value >> UInt32(nibble * 4) & 0xF }
        return check
    }

    /// Draws the low 32 bits of `index` into the top band of a `'420v'`, `'420f'` or `'BGRA'`
    /// buffer (chroma of the band neutral). Returns false, drawing nothing, for other formats or
    /// a picture too small (narrower than 80 or shorter than one block).
    @discardableResult
    package static func draw(index: Int, into pixelBuffer: CVPixelBuffer) -> Bool {
        let width = CVPixelBufferGetWidth(pixelBuffer)
        let height = CVPixelBufferGetHeight(pixelBuffer)
        let size = blockSize(forWidth: width)
        guard width >= 80, height >= size else { return false }
        let format = CVPixelBufferGetPixelFormatType(pixelBuffer)
        let values = blocks(for: index)
        switch format {
        case kCVPixelFormatType_32BGRA:
            guard let base = CVPixelBufferGetBaseAddress(pixelBuffer) else { return false }
            let stride = CVPixelBufferGetBytesPerRow(pixelBuffer)
            let rowBytes = size * 4
            for (block, white) in values.enumerated() {
                let source = white ? SolidRows.bgraWhite : SolidRows.bgraBlack
                for row in 0..<size {
                    (base + row * stride + block * rowBytes).copyMemory(from: source, byteCount: rowBytes)
                }
            }
        case kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange:
            guard let luma = CVPixelBufferGetBaseAddressOfPlane(pixelBuffer, 0),
                  let chroma = CVPixelBufferGetBaseAddressOfPlane(pixelBuffer, 1) else { return false }
            let fullRange = format == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange
            let (black, white): (Int32, Int32) = fullRange ? (0, 255) : (16, 235)
            let lumaStride = CVPixelBufferGetBytesPerRowOfPlane(pixelBuffer, 0)
            let chromaStride = CVPixelBufferGetBytesPerRowOfPlane(pixelBuffer, 1)
            for (block, isWhite) in values.enumerated() {
                for row in 0..<size {
                    memset(luma + row * lumaStride + block * size, isWhite ? white : black, size)
                }
            }
            for row in 0..<(size / 2) {
                memset(chroma + row * chromaStride, 128, blockCount * size)
            }
        default:
            return false
        }
        return true
    }

    /// Reads the index from a `'420v'`, `'420f'` or `'BGRA'` buffer; nil when there is no valid
    /// code (or the format is another).
    package static func read(from pixelBuffer: CVPixelBuffer) -> Int? {
        let width = CVPixelBufferGetWidth(pixelBuffer)
        let height = CVPixelBufferGetHeight(pixelBuffer)
        switch CVPixelBufferGetPixelFormatType(pixelBuffer) {
        case kCVPixelFormatType_32BGRA:
            guard let base = CVPixelBufferGetBaseAddress(pixelBuffer) else { return nil }
            let stride = CVPixelBufferGetBytesPerRow(pixelBuffer)
            return read(bgra: UnsafeRawBufferPointer(start: base, count: stride * height),
                        width: width, height: height, bytesPerRow: stride)
        case kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange:
            guard let luma = CVPixelBufferGetBaseAddressOfPlane(pixelBuffer, 0) else { return nil }
            let stride = CVPixelBufferGetBytesPerRowOfPlane(pixelBuffer, 0)
            let bytes = UnsafeRawBufferPointer(start: luma, count: stride * height)
            return decode(width: width, height: height) { x, y in Int(bytes[y * stride + x]) }
        default:
            return nil
        }
    }

    /// Reads the index from BGRA pixels (for example ffmpeg's `-pix_fmt bgra` decode of a
    /// recorded file); nil when there is no valid code.
    package static func read(bgra bytes: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int) -> Int? {
        guard bytes.count >= bytesPerRow * (height - 1) + width * 4 else { return nil }
        return decode(width: width, height: height) { x, y in
            let offset = y * bytesPerRow + x * 4
            return (Int(bytes[offset]) + 2 * Int(bytes[offset + 1]) + Int(bytes[offset + 2])) / 4
        }
    }

    /// Reads the index from 8-bit luma (gray) pixels; nil when there is no valid code.
    package static func read(luma bytes: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int) -> Int? {
        guard bytes.count >= bytesPerRow * (height - 1) + width else { return nil }
        return decode(width: width, height: height) { x, y in Int(bytes[y * bytesPerRow + x]) }
    }

    /// Decodes from a luma accessor.
    private static func decode(width: Int, height: Int, luma: (Int, Int) -> Int) -> Int? {
        let size = blockSize(forWidth: width)
        guard width >= 80, height >= size else { return nil }
        let inset = size / 4
        let span = max(1, size - 2 * inset)
        var levels: [Int] = []
        levels.reserveCapacity(blockCount)
        for block in 0..<blockCount {
            var sum = 0
            for y in inset..<(inset + span) {
                for x in (block * size + inset)..<(block * size + inset + span) { sum += luma(x, y) }
            }
            levels.append(sum / (span * span))
        }
        let white = (levels[0] + levels[39]) / 2
        let black = (levels[1] + levels[38]) / 2
        guard white - black >= 48 else { return nil }
        let threshold = (white + black) / 2
        let bits = levels.map { $0 > threshold }
        guard bits[0], !bits[1], !bits[38], bits[39] else { return nil }
        var value: UInt32 = 0
        for bit in bits[2..<34] { value = value << 1 | (bit ? 1 : 0) }
        var check: UInt32 = 0
        for bit in bits[34..<38] { check = check << 1 | (bit ? 1 : 0) }
        guard check == checkNibble(value) else { return nil }
        return Int(value)
    }
}

/// Rows of solid colour, copied into pictures with `memcpy` (fast even in debug builds).
enum SolidRows {
    /// Enough for one 8K row of BGRA pixels.
    static let byteCount = 8192 * 4
    nonisolated(unsafe) static let bgraWhite: UnsafeRawPointer = make(b: 255, g: 255, r: 255)
    nonisolated(unsafe) static let bgraBlack: UnsafeRawPointer = make(b: 0, g: 0, r: 0)

    /// A row of one BGRA colour, opaque; never freed.
    static func make(b: UInt8, g: UInt8, r: UInt8) -> UnsafeRawPointer {
        let row = UnsafeMutablePointer<UInt8>.allocate(capacity: byteCount)
        for pixel in 0..<(byteCount / 4) {
            row[pixel * 4] = b
            row[pixel * 4 + 1] = g
            row[pixel * 4 + 2] = r
            row[pixel * 4 + 3] = 255
        }
        return UnsafeRawPointer(row)
    }
}
