import Foundation
import Testing
import TestSupport
import OpenCoreVideo
@testable import MediaEngine

/// Motion-JPEG pictures from memory (what a webcam's MJPEG buffers hold), against ffmpeg's own
/// decode of the same JPEG.
@Suite(.timeLimit(.minutes(10))) struct CameraFrameDecoderTests {
    /// A 320x240 test picture as JPEG, and ffmpeg's decode of it as NV12.
    static func picture() throws -> (jpeg: Data, nv12: [UInt8]) {
        let jpeg = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240",
                                               "-frames:v", "1", "-q:v", "3", "-f", "mjpeg", "-"])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mjpeg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("picture.jpg")
        try jpeg.write(to: file)
        let nv12 = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", file.path, "-pix_fmt", "nv12",
                                               "-f", "rawvideo", "-"])
        return (jpeg, [UInt8](nv12))
    }

    @Test func decodesEachPictureAsItComesLikeFFmpeg() throws {
        let (jpeg, reference) = try Self.picture()
        let decoder = try CameraFrameDecoder(.motionJPEG)
        let converter = PixelConverter()
        var made: CVPixelBuffer?
        CVPixelBufferCreate(nil, 320, 240, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, nil, &made)
        let buffer = try #require(made)
        // Twice: a live decoder gives each picture back at once, not after a delay.
        for _ in 0..<2 {
            try jpeg.withUnsafeBytes { try decoder.decode($0, into: buffer, converter: converter) }
            let luma = (0..<240).flatMap { row in
                Array(UnsafeBufferPointer(start: CVPixelBufferGetBaseAddressOfPlane(buffer, 0)!
                    .assumingMemoryBound(to: UInt8.self) + row * CVPixelBufferGetBytesPerRowOfPlane(buffer, 0), count: 320))
            }
            let psnr = PixelComparison.psnr(luma, Array(reference[..<(320 * 240)]))
            #expect(psnr >= 40, "luma \(psnr) dB")
        }
    }

    @Test func corruptPicturesAreErrors() throws {
        let decoder = try CameraFrameDecoder(.motionJPEG)
        var made: CVPixelBuffer?
        CVPixelBufferCreate(nil, 320, 240, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, nil, &made)
        let buffer = try #require(made)
        let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 * 31) })
        #expect(throws: EngineError.self) {
            try garbage.withUnsafeBytes { try decoder.decode($0, into: buffer, converter: PixelConverter()) }
        }
        #expect(throws: EngineError.self) {
            try Data().withUnsafeBytes { try decoder.decode($0, into: buffer, converter: PixelConverter()) }
        }
        // The decoder still works after bad input.
        let (jpeg, _) = try Self.picture()
        try jpeg.withUnsafeBytes { try decoder.decode($0, into: buffer, converter: PixelConverter()) }
    }
}
