import Foundation
import Testing
import OpenCoreVideo

@Suite(.timeLimit(.minutes(10))) struct CGImageTests {
    @Test func imageFromBGRABufferHasItsBytes() throws {
        var pixelBuffer: CVPixelBuffer?
        #expect(CVPixelBufferCreate(nil, 3, 2, kCVPixelFormatType_32BGRA, nil, &pixelBuffer) == kCVReturnSuccess)
        let buffer = try #require(pixelBuffer)
        #expect(CVPixelBufferLockBaseAddress(buffer, []) == kCVReturnSuccess)
        let base = try #require(CVPixelBufferGetBaseAddress(buffer))
        let stride = CVPixelBufferGetBytesPerRow(buffer)
        for y in 0..<2 {
            for x in 0..<3 {
                let pixel = base + y * stride + x * 4
                pixel.storeBytes(of: UInt8(10 * x), toByteOffset: 0, as: UInt8.self) // B
                pixel.storeBytes(of: UInt8(100 + y), toByteOffset: 1, as: UInt8.self) // G
                pixel.storeBytes(of: 200, toByteOffset: 2, as: UInt8.self) // R
                pixel.storeBytes(of: 255, toByteOffset: 3, as: UInt8.self) // A
            }
        }
        #expect(CVPixelBufferUnlockBaseAddress(buffer, []) == kCVReturnSuccess)
        let image = try #require(CGImage(pixelBuffer: buffer))
        // Writing the buffer afterwards must not change the image.
        base.storeBytes(of: 77, as: UInt8.self)
        #expect(image.width == 3 && image.height == 2)
        #expect(image.bitsPerPixel == 32 && image.bitsPerComponent == 8)
        #expect(image.bytesPerRow == stride)
        #expect(image.alphaInfo == .premultipliedFirst)
        #expect(image.bitmapInfo.contains(.byteOrder32Little))
        #expect(image.colorSpace?.name == CGColorSpace.sRGB)
        let data = try #require(image.dataProvider?.data) as Data
        for y in 0..<2 {
            for x in 0..<3 {
                let offset = y * image.bytesPerRow + x * 4
                #expect(Array(data[offset..<offset + 4]) == [UInt8(10 * x), UInt8(100 + y), 200, 255])
            }
        }
    }

    @Test func yuvAndUnsupportedBuffersGiveNil() throws {
        for format in [kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_422YpCbCr8, kCVPixelFormatType_OneComponent8] {
            var pixelBuffer: CVPixelBuffer?
            #expect(CVPixelBufferCreate(nil, 4, 4, format, nil, &pixelBuffer) == kCVReturnSuccess)
            let buffer = try #require(pixelBuffer)
            #expect(CGImage(pixelBuffer: buffer) == nil)
        }
        var rgb: CVPixelBuffer?
        #expect(CVPixelBufferCreate(nil, 4, 4, kCVPixelFormatType_24RGB, nil, &rgb) == kCVReturnSuccess)
        let rgbBuffer = try #require(rgb)
        let image = try #require(CGImage(pixelBuffer: rgbBuffer))
        #expect(image.bitsPerPixel == 24 && image.alphaInfo == CGImageAlphaInfo.none)
    }

    @Test func appleInitializerValidates() throws {
        let bytes = NSData(bytes: [UInt8](repeating: 9, count: 16 * 4), length: 16 * 4)
        let provider = try #require(CGDataProvider(data: bytes))
        let space = CGColorSpaceCreateDeviceRGB()
        let info = CGBitmapInfo(rawValue: CGImageAlphaInfo.noneSkipLast.rawValue)
        let image = CGImage(width: 4, height: 4, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: 16, space: space,
                            bitmapInfo: info, provider: provider, decode: nil, shouldInterpolate: false, intent: .perceptual)
        #expect(image?.alphaInfo == .noneSkipLast)
        #expect(image?.renderingIntent == .perceptual)
        #expect(CGImage(width: 5, height: 4, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: 16, space: space,
                        bitmapInfo: info, provider: provider, decode: nil, shouldInterpolate: false, intent: .defaultIntent) == nil)
        #expect(CGImage(width: 4, height: 5, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: 16, space: space,
                        bitmapInfo: info, provider: provider, decode: nil, shouldInterpolate: false, intent: .defaultIntent) == nil)
    }

    @Test func bitmapInfoRawValuesAreApples() {
        #expect(CGBitmapInfo.byteOrder32Little.rawValue == 0x2000)
        #expect(CGBitmapInfo.byteOrder32Big.rawValue == 0x4000)
        #expect(CGBitmapInfo.byteOrder16Little.rawValue == 0x1000)
        #expect(CGBitmapInfo.byteOrder16Big.rawValue == 0x3000)
        #expect(CGBitmapInfo.byteOrderMask.rawValue == 0x7000)
        #expect(CGBitmapInfo.alphaInfoMask.rawValue == 0x1F)
        #expect(CGBitmapInfo.floatComponents.rawValue == 0x100)
        #expect(CGImageAlphaInfo.premultipliedFirst.rawValue == 2)
        #expect(CGImageAlphaInfo.noneSkipFirst.rawValue == 6)
    }
}

@Suite(.timeLimit(.minutes(10))) struct CGContextTests {
    /// The capture guide's conversion: a context over a BGRA pixel buffer's memory, then an image.
    @Test func bitmapContextOverPixelBufferMemoryMakesAnImage() throws {
        var buffer: CVPixelBuffer?
        CVPixelBufferCreate(nil, 4, 2, kCVPixelFormatType_32BGRA, nil, &buffer)
        let pixels = try #require(buffer)
        CVPixelBufferLockBaseAddress(pixels, [])
        let base = try #require(CVPixelBufferGetBaseAddress(pixels)).assumingMemoryBound(to: UInt8.self)
        let stride = CVPixelBufferGetBytesPerRow(pixels)
        base[stride + 4 * 3 + 2] = 200  // red of the last pixel of the second row
        let context = try #require(CGContext(
            data: base, width: 4, height: 2, bitsPerComponent: 8, bytesPerRow: stride, space: CGColorSpaceCreateDeviceRGB(),
            bitmapInfo: CGBitmapInfo.byteOrder32Little.rawValue | CGImageAlphaInfo.premultipliedFirst.rawValue))
        let image = try #require(context.makeImage())
        CVPixelBufferUnlockBaseAddress(pixels, [])
        #expect(image.width == 4 && image.height == 2 && image.bitsPerPixel == 32 && image.bytesPerRow == stride)
        #expect(image.alphaInfo == .premultipliedFirst && image.bitmapInfo.contains(.byteOrder32Little))
        let data = try #require(image.dataProvider?.data) as Data
        #expect(data[stride + 4 * 3 + 2] == 200)
        base[stride + 4 * 3 + 2] = 7
        #expect(data[stride + 4 * 3 + 2] == 200, "the image is a copy")

        // A context of its own memory, zeroed; a row length too short is refused.
        let own = try #require(CGContext(data: nil, width: 3, height: 3, bitsPerComponent: 8, bytesPerRow: 0,
                                         space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.noneSkipLast.rawValue)))
        #expect(own.bytesPerRow == 12 && own.makeImage()?.dataProvider?.data.map { ($0 as Data).allSatisfy { $0 == 0 } } == true)
        #expect(CGContext(data: nil, width: 3, height: 3, bitsPerComponent: 8, bytesPerRow: 8, space: CGColorSpaceCreateDeviceRGB(),
                          bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue) == nil)
    }
}
