import CFFmpeg
import Foundation
import Testing
import TestSupport
import OpenCoreVideo
@testable import MediaEngine

/// Pixels converted by the engine compared with ffmpeg's own conversion of the same frame.
@Suite struct PixelConverterTests {
    /// The first decoded video frame of a file.
    static func firstFrame(_ url: URL) throws -> Frame {
        let demuxer = try Demuxer(url: url)
        let decoder = try demuxer.makeDecoder(forStream: 0)
        while let packet = try demuxer.readPacket() {
            guard packet.streamIndex == 0 else { continue }
            _ = try decoder.send(packet)
            if let frame = try decoder.receiveFrame() { return frame }
        }
        _ = try decoder.send(nil)
        return try #require(try decoder.receiveFrame())
    }

    static func makeBuffer(_ width: Int, _ height: Int, _ format: OSType) throws -> CVPixelBuffer {
        var buffer: CVPixelBuffer?
        try #require(CVPixelBufferCreate(nil, width, height, format, nil, &buffer) == kCVReturnSuccess)
        return try #require(buffer)
    }

    @Test func decodedFramesAreSharedWithoutCopying() throws {
        let frame = try Self.firstFrame(try Fixtures.h264AAC())
        let shared = try #require(CVBuffer.sharing(frame))
        #expect(CVPixelBufferGetPixelFormatType(shared) == kCVPixelFormatType_420YpCbCr8Planar)
        #expect(CVPixelBufferGetPlaneCount(shared) == 3)
        #expect(CVPixelBufferGetWidthOfPlane(shared, 1) == 160 && CVPixelBufferGetHeightOfPlane(shared, 1) == 120)
        let lumaPointer = withUnsafeBytes(of: frame.pointer.pointee.data) { $0.load(as: UnsafeMutablePointer<UInt8>?.self) }
        #expect(CVPixelBufferGetBaseAddressOfPlane(shared, 0) == lumaPointer.map(UnsafeMutableRawPointer.init))
    }

    @Test func yuvToBGRAMatchesFFmpeg() throws {
        let url = try Fixtures.h264AAC()
        let reference = [UInt8](try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-frames:v", "1",
                                                            "-pix_fmt", "bgra", "-f", "rawvideo", "-"]))
        let frame = try Self.firstFrame(url)
        let bgra = try Self.makeBuffer(320, 240, kCVPixelFormatType_32BGRA)
        try PixelConverter().convert(frame, into: bgra)
        let ours = PixelComparison.packed(bgra, bytesPerPixel: 4)
        try #require(ours.count == reference.count)
        #expect(PixelComparison.psnr(ours, reference) >= 40)
    }

    @Test func scalingMatchesFFmpeg() throws {
        let url = try Fixtures.h264AAC()
        let reference = [UInt8](try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-frames:v", "1",
                                                            "-vf", "scale=160:120", "-pix_fmt", "rgb24", "-f", "rawvideo", "-"]))
        let rgb = try Self.makeBuffer(160, 120, kCVPixelFormatType_24RGB)
        try PixelConverter().convert(try Self.firstFrame(url), into: rgb)
        #expect(PixelComparison.psnr(PixelComparison.packed(rgb, bytesPerPixel: 3), reference) >= 35)
    }

    @Test func bufferToBufferRoundTripThroughNV12() throws {
        let width = 64, height = 48
        let source = try Self.makeBuffer(width, height, kCVPixelFormatType_32BGRA)
        CVPixelBufferLockBaseAddress(source, [])
        let base = CVPixelBufferGetBaseAddress(source)!.assumingMemoryBound(to: UInt8.self)
        let stride = CVPixelBufferGetBytesPerRow(source)
        for y in 0..<height {
            for x in 0..<width {
                let pixel = base + y * stride + x * 4
                pixel[0] = UInt8(x * 4); pixel[1] = UInt8(y * 5); pixel[2] = 128; pixel[3] = 255
            }
        }
        CVPixelBufferUnlockBaseAddress(source, [])
        let converter = PixelConverter()
        let nv12 = try Self.makeBuffer(width, height, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        try converter.convert(source, into: nv12)
        let back = try Self.makeBuffer(width, height, kCVPixelFormatType_32BGRA)
        try converter.convert(nv12, into: back)
        #expect(PixelComparison.psnr(PixelComparison.packed(source, bytesPerPixel: 4), PixelComparison.packed(back, bytesPerPixel: 4)) >= 30)
    }

    @Test func sameFormatConversionIsAnExactCopyOfEveryPlane() throws {
        // libswscale copies a same-format picture plane by plane: NV12's two planes, and nothing more.
        let width = 64, height = 48
        let source = try Self.makeBuffer(width, height, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        for plane in 0..<2 {
            let base = CVPixelBufferGetBaseAddressOfPlane(source, plane)!.assumingMemoryBound(to: UInt8.self)
            for index in 0..<CVPixelBufferGetBytesPerRowOfPlane(source, plane) * CVPixelBufferGetHeightOfPlane(source, plane) {
                base[index] = UInt8(truncatingIfNeeded: index * (plane + 3))
            }
        }
        let copy = try Self.makeBuffer(width, height, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        try PixelConverter().convert(source, into: copy)
        for plane in 0..<2 {
            let rows = CVPixelBufferGetHeightOfPlane(source, plane), rowBytes = width
            let a = CVPixelBufferGetBaseAddressOfPlane(source, plane)!, b = CVPixelBufferGetBaseAddressOfPlane(copy, plane)!
            let strideA = CVPixelBufferGetBytesPerRowOfPlane(source, plane), strideB = CVPixelBufferGetBytesPerRowOfPlane(copy, plane)
            #expect((0..<rows).allSatisfy { memcmp(a + $0 * strideA, b + $0 * strideB, rowBytes) == 0 }, "plane \(plane)")
        }
    }

    @Test func unsupportedFormatIsAnError() throws {
        var wrapped: CVPixelBuffer?
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 64 * 64 * 4, alignment: 64)
        defer { memory.deallocate() }
        #expect(CVPixelBufferCreateWithBytes(nil, 64, 64, FourCharCode(fourCC: "zzzz"), memory, 256, nil, nil, nil, &wrapped) == kCVReturnSuccess)
        let destination = try Self.makeBuffer(64, 64, kCVPixelFormatType_32BGRA)
        #expect(throws: EngineError.self) { try PixelConverter().convert(try #require(wrapped), into: destination) }
    }
}
