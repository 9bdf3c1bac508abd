import Foundation
import Testing
@testable import OpenCoreVideo

@Suite(.timeLimit(.minutes(10))) struct CVImageBufferTests {
    @Test func ntscDVSizes() throws {
        var pixelBuffer: CVPixelBuffer?
        #expect(CVPixelBufferCreate(nil, 720, 480, kCVPixelFormatType_422YpCbCr8, nil, &pixelBuffer) == kCVReturnSuccess)
        let buffer = try #require(pixelBuffer)
        #expect(CVImageBufferGetEncodedSize(buffer) == CGSize(width: 720, height: 480))
        #expect(CVImageBufferGetCleanRect(buffer) == CGRect(x: 0, y: 0, width: 720, height: 480))
        #expect(CVImageBufferGetDisplaySize(buffer) == CGSize(width: 720, height: 480))
        let aperture: [String: Any] = [
            kCVImageBufferCleanApertureWidthKey as String: 704, kCVImageBufferCleanApertureHeightKey as String: 480,
            kCVImageBufferCleanApertureHorizontalOffsetKey as String: 0, kCVImageBufferCleanApertureVerticalOffsetKey as String: 0,
        ]
        CVBufferSetAttachment(buffer, kCVImageBufferCleanApertureKey, aperture as CFDictionary, .shouldPropagate)
        let aspect: [String: Any] = [kCVImageBufferPixelAspectRatioHorizontalSpacingKey as String: 10,
                                     kCVImageBufferPixelAspectRatioVerticalSpacingKey as String: 11]
        CVBufferSetAttachment(buffer, kCVImageBufferPixelAspectRatioKey, aspect as CFDictionary, .shouldPropagate)
        #expect(CVImageBufferGetCleanRect(buffer) == CGRect(x: 8, y: 0, width: 704, height: 480))
        #expect(CVImageBufferGetDisplaySize(buffer) == CGSize(width: 640, height: 480))
    }
}
