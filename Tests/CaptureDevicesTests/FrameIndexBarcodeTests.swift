import Foundation
import Testing
import OpenCoreVideo
@testable import CaptureDevices

@Suite(.timeLimit(.minutes(10))) struct FrameIndexBarcodeTests {
    static let sizes = [(640, 480), (1280, 720), (1920, 1080), (3840, 2160), (352, 288)]
    static let formats: [OSType] = [
        kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange,
        kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
    ]
    static let indices = [0, 1, 2, 0x5A5A_5A5A, 123_456_789, 0xFFFF_FFFF, 0x8000_0000, 7_777_777]

    /// A buffer of mid gray (no code in it).
    static func grayBuffer(format: OSType, width: Int, height: Int) -> CVPixelBuffer {
        var made: CVPixelBuffer?
        CVPixelBufferCreate(nil, width, height, format, nil, &made)
        let buffer = made!
        if format == kCVPixelFormatType_32BGRA {
            memset(CVPixelBufferGetBaseAddress(buffer)!, 128, CVPixelBufferGetDataSize(buffer))
        } else {
            for plane in 0..<2 {
                memset(CVPixelBufferGetBaseAddressOfPlane(buffer, plane)!, 128,
                       CVPixelBufferGetBytesPerRowOfPlane(buffer, plane) * CVPixelBufferGetHeightOfPlane(buffer, plane))
            }
        }
        return buffer
    }

    @Test(arguments: formats)
    func roundTripsInEverySize(format: OSType) {
        for (width, height) in Self.sizes {
            let buffer = Self.grayBuffer(format: format, width: width, height: height)
            #expect(FrameIndexBarcode.read(from: buffer) == nil, "no code in a gray picture")
            for index in Self.indices {
                #expect(FrameIndexBarcode.draw(index: index, into: buffer))
                #expect(FrameIndexBarcode.read(from: buffer) == index, "\(width)x\(height) '\(format.fourCharacterString)'")
            }
        }
    }

    @Test func drawsWhiteAndBlackBlocksWhereTheLayoutSays() throws {
        // 1000 pixels wide: 24-pixel blocks, the band ends at 960.
        let buffer = Self.grayBuffer(format: kCVPixelFormatType_32BGRA, width: 1000, height: 600)
        #expect(FrameIndexBarcode.blockSize(forWidth: 1000) == 24)
        FrameIndexBarcode.draw(index: 0b1011, into: buffer)
        let base = CVPixelBufferGetBaseAddress(buffer)!.assumingMemoryBound(to: UInt8.self)
        let stride = CVPixelBufferGetBytesPerRow(buffer)
        // The green byte at the centre of each block.
        func green(block: Int) -> UInt8 { base[12 * stride + (block * 24 + 12) * 4 + 1] }
        #expect(green(block: 0) == 255 && green(block: 1) == 0)  // start guard
        #expect((2..<30).allSatisfy { green(block: $0) == 0 })  // leading zero bits
        #expect([30, 31, 32, 33].map { green(block: $0) } == [255, 0, 255, 255])  // 1011
        #expect([34, 35, 36, 37].map { green(block: $0) } == [255, 0, 255, 255])  // check nibble 1011
        #expect(green(block: 38) == 0 && green(block: 39) == 255)  // stop guard
        #expect(base[24 * stride + 12 * 4 + 1] == 128, "nothing drawn below the band")
        #expect(base[12 * stride + 980 * 4 + 1] == 128, "nothing drawn right of the band")
    }

    @Test func aDamagedCodeReadsAsNothingRatherThanAnotherIndex() {
        let buffer = Self.grayBuffer(format: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, width: 640, height: 480)
        FrameIndexBarcode.draw(index: 4242, into: buffer)
        let luma = CVPixelBufferGetBaseAddressOfPlane(buffer, 0)!
        let stride = CVPixelBufferGetBytesPerRowOfPlane(buffer, 0)
        // Flip data block 20 (one bit of the index): the check nibble no longer matches.
        let value = luma.load(fromByteOffset: 8 * stride + 20 * 16 + 8, as: UInt8.self)
        for row in 0..<16 { memset(luma + row * stride + 20 * 16, value > 128 ? 16 : 235, 16) }
        #expect(FrameIndexBarcode.read(from: buffer) == nil)
        // Destroy the stop guard.
        FrameIndexBarcode.draw(index: 4242, into: buffer)
        for row in 0..<16 { memset(luma + row * stride + 39 * 16, 16, 16) }
        #expect(FrameIndexBarcode.read(from: buffer) == nil)
    }

    @Test func readsTightlyPackedBGRABytes() {
        let buffer = Self.grayBuffer(format: kCVPixelFormatType_32BGRA, width: 1920, height: 1080)
        FrameIndexBarcode.draw(index: 99, into: buffer)
        let stride = CVPixelBufferGetBytesPerRow(buffer)
        var tight = Data(count: 1920 * 4 * 1080)
        tight.withUnsafeMutableBytes { bytes in
            for row in 0..<1080 {
                (bytes.baseAddress! + row * 1920 * 4).copyMemory(
                    from: CVPixelBufferGetBaseAddress(buffer)! + row * stride, byteCount: 1920 * 4)
            }
        }
        let index = tight.withUnsafeBytes { FrameIndexBarcode.read(bgra: $0, width: 1920, height: 1080, bytesPerRow: 1920 * 4) }
        #expect(index == 99)
    }
}
