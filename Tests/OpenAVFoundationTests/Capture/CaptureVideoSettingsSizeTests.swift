import Foundation
import Testing
@testable import OpenAVFoundation
import CaptureDevices

extension CaptureSessionTests {
    /// `kCVPixelBufferWidthKey`/`kCVPixelBufferHeightKey` scale the delivered picture: alone, with
    /// a pixel format change, and with a turn (the size is that of the delivered buffer).
    @Test(arguments: [
        (kCVPixelFormatType_32BGRA, 320, 240, 0),
        (kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, 320, 240, 0),
        (kCVPixelFormatType_32BGRA, 240, 320, 90),
        (kCVPixelFormatType_32BGRA, 1280, 960, 180),
    ])
    func videoSettingsSizeScalesThePicture(pixelFormat: OSType, width: Int, height: Int, degrees: Int) throws {
        let sampler = CaptureFrameSampler()
        let (session, output) = try Self.makeSampledSession(videoSettings: [
            kCVPixelBufferPixelFormatTypeKey as String: pixelFormat,
            kCVPixelBufferWidthKey as String: width, kCVPixelBufferHeightKey as String: height,
        ], sampler: sampler)
        #expect(output.videoSettings[kCVPixelBufferWidthKey] as? Int == width)
        #expect(output.videoSettings[kCVPixelBufferHeightKey] as? Int == height)
        try #require(output.connection(with: .video)).videoRotationAngle = CGFloat(degrees)
        session.startRunning()
        defer { session.stopRunning() }

        let picture = try #require(sampler.picture(after: 0) { !TestPatternGeometry.isFlash($0, degrees: degrees) })
        #expect(picture.width == width && picture.height == height && picture.pixelFormat == pixelFormat)
        TestPatternGeometry.expectLandmarks(in: picture, degrees: degrees)
        if degrees == 0 {
            // Upright and scaled, the frame index still reads.
            let index = picture.bytes.withUnsafeBytes { bytes in
                pixelFormat == kCVPixelFormatType_32BGRA
                    ? FrameIndexBarcode.read(bgra: bytes, width: width, height: height, bytesPerRow: width * 4)
                    : FrameIndexBarcode.read(luma: bytes, width: width, height: height, bytesPerRow: width)
            }
            #expect(index != nil)
        }
    }
}
