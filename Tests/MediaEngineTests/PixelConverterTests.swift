import CFFmpeg
import Foundation
import Testing
import TestSupport
import OpenCoreVideo
@testable import MediaEngine

/// Pixels converted by the engine compared with ffmpeg's own conversion of the same frame.
@Suite(.timeLimit(.minutes(10))) struct PixelConverterTests {
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

    /// A same-format conversion of a two-plane buffer is an exact copy. libswscale's own copy
    /// filled NV12 chroma with grey and wrote to every non-null destination plane pointer of the
    /// four it reads (crashing, or corrupting the heap, with the two a buffer has).
    @Test func sameFormatTwoPlaneConversionIsAnExactCopy() throws {
        let width = 640, height = 480
        let source = try Self.makeBuffer(width, height, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        CVPixelBufferLockBaseAddress(source, [])
        for plane in 0..<2 {
            let base = CVPixelBufferGetBaseAddressOfPlane(source, plane)!.assumingMemoryBound(to: UInt8.self)
            let stride = CVPixelBufferGetBytesPerRowOfPlane(source, plane)
            for y in 0..<CVPixelBufferGetHeightOfPlane(source, plane) {
                for x in 0..<stride { base[y * stride + x] = UInt8(truncatingIfNeeded: 16 + (x / 8 + y / 4 + x % 2 * 30) % 220) }
            }
        }
        CVPixelBufferUnlockBaseAddress(source, [])
        // A plane's bytes, rows without padding (chroma rows hold two bytes a sample).
        let bytes = { (buffer: CVPixelBuffer, plane: Int) -> [UInt8] in
            let base = CVPixelBufferGetBaseAddressOfPlane(buffer, plane)!.assumingMemoryBound(to: UInt8.self)
            let stride = CVPixelBufferGetBytesPerRowOfPlane(buffer, plane)
            let rowBytes = CVPixelBufferGetWidthOfPlane(buffer, plane) * (plane + 1)
            return (0..<CVPixelBufferGetHeightOfPlane(buffer, plane)).flatMap {
                Array(UnsafeBufferPointer(start: base + $0 * stride, count: rowBytes))
            }
        }
        let converter = PixelConverter()
        for _ in 0..<3 {
            let copy = try Self.makeBuffer(width, height, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
            try converter.convert(source, into: copy)
            for plane in 0..<2 { #expect(bytes(source, plane) == bytes(copy, plane), "plane \(plane)") }
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

/// Quarter turns and mirrorings compared byte for byte with ffmpeg's transpose and flip filters
/// applied to the same picture.
@Suite(.timeLimit(.minutes(10))) struct PixelTurnTests {
    /// ffmpeg's filters for a clockwise turn, then a left-right flip when mirrored.
    static func filters(degrees: Int, mirrored: Bool) -> String {
        let turn = [0: "null", 90: "transpose=clock", 180: "hflip,vflip", 270: "transpose=cclock"][degrees]!
        return mirrored ? turn + ",hflip" : turn
    }

    static let cases: [(Int, Bool)] = [0, 90, 180, 270].flatMap { degrees in [false, true].map { (degrees, $0) } }

    @Test(arguments: [("nv12", kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange), ("nv12", kCVPixelFormatType_420YpCbCr8BiPlanarFullRange),
                      ("bgra", kCVPixelFormatType_32BGRA)])
    func turnsMatchFFmpeg(ffmpegFormat: String, pixelFormat: OSType) throws {
        let (width, height) = (96, 40)
        let input = ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=1",
                     "-frames:v", "1", "-pix_fmt", ffmpegFormat]
        let source = try PixelConverterTests.makeBuffer(width, height, pixelFormat)
        PixelComparison.fill(source, rawVideo: [UInt8](try Fixtures.run("ffmpeg", input + ["-f", "rawvideo", "-"])))
        let converter = PixelConverter()
        for (degrees, mirrored) in Self.cases {
            let turn = QuarterTurn(clockwiseDegrees: degrees, mirrored: mirrored)
            let (turnedWidth, turnedHeight) = turn.size(width: width, height: height)
            #expect((turnedWidth == height) == (degrees % 180 == 90))
            let destination = try PixelConverterTests.makeBuffer(turnedWidth, turnedHeight, pixelFormat)
            try converter.transform(source, into: destination, turn)
            let reference = [UInt8](try Fixtures.run("ffmpeg", input + ["-vf", Self.filters(degrees: degrees, mirrored: mirrored),
                                                                        "-f", "rawvideo", "-"]))
            #expect(PixelComparison.rawVideo(destination) == reference, "\(degrees)° mirrored \(mirrored)")
        }
    }

    @Test func quarterTurnsFromTransforms() {
        #expect(QuarterTurn(a: 0, b: 1, c: -1, d: 0) == QuarterTurn(clockwiseDegrees: 90, mirrored: false))
        #expect(QuarterTurn(a: -1, b: 0, c: 0, d: -1) == QuarterTurn(clockwiseDegrees: 180, mirrored: false))
        #expect(QuarterTurn(a: -1, b: 0, c: 0, d: 1) == QuarterTurn(clockwiseDegrees: 0, mirrored: true))
        #expect(QuarterTurn(a: 1, b: 0, c: 0, d: 1)?.isIdentity == true)
        #expect(QuarterTurn(a: 1, b: 1, c: 0, d: 1) == nil, "a shear is no quarter turn")
        #expect(QuarterTurn(a: 0.7, b: 0.7, c: -0.7, d: 0.7) == nil, "nor is 45°")
        #expect(QuarterTurn(clockwiseDegrees: -90, mirrored: false) == QuarterTurn(clockwiseDegrees: 270, mirrored: false))
    }

    /// Conversion, scaling and a turn at once: the same as ffmpeg scaling and turning.
    @Test func convertsScalesAndTurnsTogether() throws {
        let input = ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=128x96:rate=1", "-frames:v", "1"]
        let source = try PixelConverterTests.makeBuffer(128, 96, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        PixelComparison.fill(source, rawVideo: [UInt8](try Fixtures.run("ffmpeg", input + ["-pix_fmt", "nv12", "-f", "rawvideo", "-"])))
        let destination = try PixelConverterTests.makeBuffer(48, 64, kCVPixelFormatType_32BGRA)
        var intermediates: [(Int, Int)] = []
        try PixelConverter().convert(source, into: destination, turning: QuarterTurn(clockwiseDegrees: 270, mirrored: true)) { width, height in
            intermediates.append((width, height))
            return try? PixelConverterTests.makeBuffer(width, height, kCVPixelFormatType_32BGRA)
        }
        #expect(intermediates.count == 1 && intermediates.first! == (64, 48))
        let reference = [UInt8](try Fixtures.run("ffmpeg", input + [
            "-vf", "scale=64:48:flags=bicubic,transpose=cclock,hflip", "-pix_fmt", "bgra", "-f", "rawvideo", "-"]))
        #expect(PixelComparison.psnr(PixelComparison.rawVideo(destination), reference) >= 30)
    }
}
