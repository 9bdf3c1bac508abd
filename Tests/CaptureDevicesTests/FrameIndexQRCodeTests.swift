import Foundation
import Testing
import OpenCoreVideo
import TestSupport
@testable import CaptureDevices

/// The Test Pattern Camera's QR code, drawn into a mid-gray picture of each size and pixel
/// format the camera offers and read back by ZBar's `zbarimg` (the oracle), from the luma (or,
/// for BGRA, the green channel) saved as a PGM file: its text is the frame index, its place the
/// bottom-right corner.
@Suite(.timeLimit(.minutes(3))) struct FrameIndexQRCodeTests {
    @Test(arguments: FrameIndexBarcodeTests.formats)
    func zbarReadsTheIndexInEverySize(format: OSType) throws {
        for (width, height) in TestPatternCamera.sizes.map({ ($0.width, $0.height) }) {
            let buffer = FrameIndexBarcodeTests.grayBuffer(format: format, width: width, height: height)
            let code = try #require(FrameIndexQRCode(format: CaptureVideoFormat(
                pixelFormat: format, width: width, height: height, frameRateRanges: [])))
            #expect(code.frame.x + code.frame.side < width && code.frame.y + code.frame.side < height
                        && code.frame.side >= height / 3 - 29 * 2)
            for index: UInt64 in [0, 7, 123_456, UInt64.max] {
                code.draw(index: index, into: buffer)
                let read = try String(decoding: Fixtures.run("zbarimg", ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable",
                                                                         try Self.pgm(of: buffer).path]), as: UTF8.self)
                #expect(read.trimmingCharacters(in: .whitespacesAndNewlines) == String(index),
                        "\(width)x\(height) '\(format.fourCharacterString)'")
            }
        }
    }

    @Test func smallPicturesHaveNone() {
        #expect(FrameIndexQRCode(format: CaptureVideoFormat(pixelFormat: kCVPixelFormatType_32BGRA, width: 320, height: 160,
                                                            frameRateRanges: [])) == nil)
    }

    /// The picture's luma (BGRA: green) as a PGM file.
    static func pgm(of buffer: CVPixelBuffer) throws -> URL {
        let width = CVPixelBufferGetWidth(buffer), height = CVPixelBufferGetHeight(buffer)
        let bgra = CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_32BGRA
        let base = (bgra ? CVPixelBufferGetBaseAddress(buffer) : CVPixelBufferGetBaseAddressOfPlane(buffer, 0))!
            .assumingMemoryBound(to: UInt8.self)
        let stride = bgra ? CVPixelBufferGetBytesPerRow(buffer) : CVPixelBufferGetBytesPerRowOfPlane(buffer, 0)
        var gray = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { gray[y * width + x] = bgra ? base[y * stride + x * 4 + 1] : base[y * stride + x] }
        }
        let url = Fixtures.folder.appendingPathComponent("frame-index-qr-\(UUID().uuidString).pgm")
        try (Data("P5\n\(width) \(height)\n255\n".utf8) + Data(gray)).write(to: url)
        return url
    }
}
