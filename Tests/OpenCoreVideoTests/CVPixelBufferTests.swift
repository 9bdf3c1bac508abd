import Foundation
import Testing
@testable import OpenCoreVideo

@Suite(.timeLimit(.minutes(10))) struct CVPixelBufferTests {
    @Test func appleSample420vHasTwoPlanesWithAlignedRows() throws {
        var pixelBuffer: CVPixelBuffer?
        let status = CVPixelBufferCreate(nil, 1920, 1080, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, nil, &pixelBuffer)
        #expect(status == kCVReturnSuccess)
        let buffer = try #require(pixelBuffer)
        #expect(CVPixelBufferIsPlanar(buffer))
        #expect(CVPixelBufferGetPlaneCount(buffer) == 2)
        #expect(CVPixelBufferGetWidthOfPlane(buffer, 0) == 1920)
        #expect(CVPixelBufferGetHeightOfPlane(buffer, 0) == 1080)
        #expect(CVPixelBufferGetWidthOfPlane(buffer, 1) == 960)
        #expect(CVPixelBufferGetHeightOfPlane(buffer, 1) == 540)
        for plane in 0..<2 {
            let rowBytes = CVPixelBufferGetBytesPerRowOfPlane(buffer, plane)
            #expect(rowBytes >= 1920)
            #expect(rowBytes % 64 == 0)
            let address = try #require(CVPixelBufferGetBaseAddressOfPlane(buffer, plane))
            #expect(Int(bitPattern: address) % 64 == 0)
        }
        #expect(CVPixelBufferGetPixelFormatType(buffer) == 0x3432_3076) // '420v'
        #expect(CVPixelBufferGetBaseAddressOfPlane(buffer, 2) == nil)
    }

    @Test func formatConstantsHaveApplesValues() {
        #expect(kCVPixelFormatType_32BGRA == FourCharCode(fourCC: "BGRA"))
        #expect(kCVPixelFormatType_32ARGB == 32)
        #expect(kCVPixelFormatType_24RGB == 24)
        #expect(kCVPixelFormatType_32RGBA == FourCharCode(fourCC: "RGBA"))
        #expect(kCVPixelFormatType_32ABGR == FourCharCode(fourCC: "ABGR"))
        #expect(kCVPixelFormatType_24BGR == FourCharCode(fourCC: "24BG"))
        #expect(kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange == FourCharCode(fourCC: "420v"))
        #expect(kCVPixelFormatType_420YpCbCr8BiPlanarFullRange == FourCharCode(fourCC: "420f"))
        #expect(kCVPixelFormatType_420YpCbCr8Planar == FourCharCode(fourCC: "y420"))
        #expect(kCVPixelFormatType_420YpCbCr8PlanarFullRange == FourCharCode(fourCC: "f420"))
        #expect(kCVPixelFormatType_422YpCbCr8 == FourCharCode(fourCC: "2vuy"))
        #expect(kCVPixelFormatType_422YpCbCr8_yuvs == FourCharCode(fourCC: "yuvs"))
        #expect(kCVPixelFormatType_OneComponent8 == FourCharCode(fourCC: "L008"))
        #expect(kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange == FourCharCode(fourCC: "x420"))
        #expect(kCVPixelFormatType_420YpCbCr10BiPlanarFullRange == FourCharCode(fourCC: "xf20"))
        #expect(CVPixelBufferLockFlags.readOnly.rawValue == 1)
        #expect(kCVPixelBufferPixelFormatTypeKey == "PixelFormatType")
        #expect(kCVPixelBufferBytesPerRowAlignmentKey == "BytesPerRowAlignment")
        #expect(kCVPixelBufferIOSurfacePropertiesKey == "IOSurfaceProperties")
    }

    @Test func attributesDictionaryAndPackedBGRA() throws {
        let attributes = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA] as CFDictionary
        var pixelBuffer: CVPixelBuffer?
        #expect(CVPixelBufferCreate(kCFAllocatorDefault, 33, 7, kCVPixelFormatType_32BGRA, attributes, &pixelBuffer) == kCVReturnSuccess)
        let buffer = try #require(pixelBuffer)
        #expect(!CVPixelBufferIsPlanar(buffer))
        #expect(CVPixelBufferGetPlaneCount(buffer) == 0)
        #expect(CVPixelBufferGetWidthOfPlane(buffer, 0) == 0)
        #expect(CVPixelBufferGetBaseAddressOfPlane(buffer, 0) == nil)
        #expect(CVPixelBufferGetWidth(buffer) == 33)
        #expect(CVPixelBufferGetHeight(buffer) == 7)
        #expect(CVPixelBufferGetBytesPerRow(buffer) == 192) // 33 * 4 = 132, rounded up to 64
        #expect(CVPixelBufferGetDataSize(buffer) == 192 * 7)
        #expect(CVPixelBufferLockBaseAddress(buffer, .readOnly) == kCVReturnSuccess)
        #expect(CVPixelBufferGetBaseAddress(buffer) != nil)
        #expect(CVPixelBufferUnlockBaseAddress(buffer, .readOnly) == kCVReturnSuccess)
        #expect(CVPixelBufferUnlockBaseAddress(buffer, .readOnly) == kCVReturnError)
        var left = -1, right = -1, top = -1, bottom = -1
        CVPixelBufferGetExtendedPixels(buffer, &left, &right, &top, &bottom)
        #expect([left, right, top, bottom] as [Int] == [0, 0, 0, 0])
        #expect(CVPixelBufferFillExtendedPixels(buffer) == kCVReturnSuccess)
    }

    @Test func largerRowAlignmentIsHonoured() throws {
        let attributes = [kCVPixelBufferBytesPerRowAlignmentKey as String: 256] as CFDictionary
        var pixelBuffer: CVPixelBuffer?
        #expect(CVPixelBufferCreate(nil, 10, 3, kCVPixelFormatType_OneComponent8, attributes, &pixelBuffer) == kCVReturnSuccess)
        let buffer = try #require(pixelBuffer)
        #expect(CVPixelBufferGetBytesPerRow(buffer) == 256)
    }

    @Test func invalidArgumentsAndFormats() {
        var pixelBuffer: CVPixelBuffer?
        #expect(CVPixelBufferCreate(nil, 0, 10, kCVPixelFormatType_32BGRA, nil, &pixelBuffer) == kCVReturnInvalidArgument)
        #expect(CVPixelBufferCreate(nil, 10, -1, kCVPixelFormatType_32BGRA, nil, &pixelBuffer) == kCVReturnInvalidArgument)
        #expect(CVPixelBufferCreate(nil, 10, 10, FourCharCode(fourCC: "zzzz"), nil, &pixelBuffer) == kCVReturnInvalidPixelFormat)
        #expect(pixelBuffer == nil)
        #expect(kCVReturnInvalidArgument == -6661)
        #expect(kCVReturnInvalidPixelFormat == -6680)
    }

    @Test func oddSizes420RoundChromaUp() throws {
        for format in [kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, kCVPixelFormatType_420YpCbCr8Planar,
                       kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange] {
            var pixelBuffer: CVPixelBuffer?
            #expect(CVPixelBufferCreate(nil, 5, 3, format, nil, &pixelBuffer) == kCVReturnSuccess)
            let buffer = try #require(pixelBuffer)
            #expect(CVPixelBufferGetWidthOfPlane(buffer, 1) == 3)
            #expect(CVPixelBufferGetHeightOfPlane(buffer, 1) == 2)
        }
        var tri: CVPixelBuffer?
        #expect(CVPixelBufferCreate(nil, 5, 3, kCVPixelFormatType_420YpCbCr8PlanarFullRange, nil, &tri) == kCVReturnSuccess)
        let triPlanar = try #require(tri)
        #expect(CVPixelBufferGetPlaneCount(triPlanar) == 3)
    }

    /// Writes every byte of every plane (run under the address sanitizer to check the bounds) and
    /// reads the pattern back, so planes must not overlap either.
    @Test(arguments: [
        kCVPixelFormatType_32BGRA, kCVPixelFormatType_32ARGB, kCVPixelFormatType_32RGBA, kCVPixelFormatType_32ABGR,
        kCVPixelFormatType_24RGB, kCVPixelFormatType_24BGR, kCVPixelFormatType_422YpCbCr8,
        kCVPixelFormatType_422YpCbCr8_yuvs, kCVPixelFormatType_OneComponent8,
        kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
        kCVPixelFormatType_420YpCbCr8Planar, kCVPixelFormatType_420YpCbCr8PlanarFullRange,
        kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange,
    ])
    func everyByteOfEveryPlaneIsWritable(format: OSType) throws {
        var pixelBuffer: CVPixelBuffer?
        #expect(CVPixelBufferCreate(nil, 37, 11, format, nil, &pixelBuffer) == kCVReturnSuccess)
        let buffer = try #require(pixelBuffer)
        #expect(CVPixelBufferLockBaseAddress(buffer, []) == kCVReturnSuccess)
        defer { _ = CVPixelBufferUnlockBaseAddress(buffer, []) }
        var regions: [(UnsafeMutableRawPointer, Int, Int, Int)] = [] // address, bytesPerRow, height, min row bytes
        let description = try #require(CVPixelFormatDescription.description(for: format))
        if CVPixelBufferIsPlanar(buffer) {
            #expect(CVPixelBufferGetPlaneCount(buffer) == description.planes.count)
            for plane in 0..<CVPixelBufferGetPlaneCount(buffer) {
                regions.append((try #require(CVPixelBufferGetBaseAddressOfPlane(buffer, plane)),
                                CVPixelBufferGetBytesPerRowOfPlane(buffer, plane),
                                CVPixelBufferGetHeightOfPlane(buffer, plane),
                                description.planes[plane].minimumBytesPerRow(forImageWidth: 37)))
            }
        } else {
            regions.append((try #require(CVPixelBufferGetBaseAddress(buffer)), CVPixelBufferGetBytesPerRow(buffer),
                            CVPixelBufferGetHeight(buffer), description.planes[0].minimumBytesPerRow(forImageWidth: 37)))
        }
        for (index, region) in regions.enumerated() {
            #expect(region.1 >= region.3)
            #expect(region.1 % 64 == 0)
            memset(region.0, Int32(index + 1), region.1 * region.2)
        }
        for (index, region) in regions.enumerated() {
            let bytes = UnsafeBufferPointer(start: region.0.assumingMemoryBound(to: UInt8.self), count: region.1 * region.2)
            #expect(bytes.allSatisfy { $0 == UInt8(index + 1) })
        }
        let total = regions.reduce(0) { $0 + $1.1 * $1.2 }
        #expect(CVPixelBufferGetDataSize(buffer) >= total)
    }

    @Test func packageInitializerCallsReleaseExactlyOnce() throws {
        let counter = Counter()
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 64 * 4, alignment: 64)
        do {
            let plane = CVPixelBufferPlane(baseAddress: memory, width: 16, height: 4, bytesPerRow: 64)
            let buffer = CVPixelBuffer(pixelFormatType: kCVPixelFormatType_32BGRA, width: 16, height: 4, planes: [plane]) {
                counter.increment()
            }
            #expect(CVPixelBufferGetBaseAddress(buffer) == memory)
            #expect(CVPixelBufferGetBytesPerRow(buffer) == 64)
            #expect(!CVPixelBufferIsPlanar(buffer))
            #expect(counter.value == 0)
        }
        #expect(counter.value == 1)
        memory.deallocate()
    }

    @Test func createWithBytesCallsCallbackOnceWithRefCon() throws {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 40 * 2, alignment: 16)
        defer { memory.deallocate() }
        let box = Counter()
        let refCon = Unmanaged.passRetained(box).toOpaque()
        let callback: CVPixelBufferReleaseBytesCallback = { refCon, _ in
            let counter = Unmanaged<Counter>.fromOpaque(refCon!).takeRetainedValue()
            counter.increment()
        }
        do {
            var pixelBuffer: CVPixelBuffer?
            #expect(CVPixelBufferCreateWithBytes(nil, 10, 2, kCVPixelFormatType_32BGRA, memory, 40, callback, refCon, nil, &pixelBuffer) == kCVReturnSuccess)
            let buffer = try #require(pixelBuffer)
            #expect(CVPixelBufferGetBaseAddress(buffer) == memory)
            #expect(box.value == 0)
        }
        #expect(box.value == 1)
        var tooNarrow: CVPixelBuffer?
        #expect(CVPixelBufferCreateWithBytes(nil, 10, 2, kCVPixelFormatType_32BGRA, memory, 39, nil, nil, nil, &tooNarrow) == kCVReturnInvalidArgument)
    }

    @Test func createWithPlanarBytesWrapsPlanes() throws {
        let luma = UnsafeMutableRawPointer.allocate(byteCount: 8 * 4, alignment: 16)
        let chroma = UnsafeMutableRawPointer.allocate(byteCount: 8 * 2, alignment: 16)
        defer { luma.deallocate(); chroma.deallocate() }
        var addresses: [UnsafeMutableRawPointer?] = [luma, chroma]
        var widths = [8, 4], heights = [4, 2], strides = [8, 8]
        var pixelBuffer: CVPixelBuffer?
        let status = CVPixelBufferCreateWithPlanarBytes(nil, 8, 4, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, nil, 0, 2,
                                                        &addresses, &widths, &heights, &strides, nil, nil, nil, &pixelBuffer)
        #expect(status == kCVReturnSuccess)
        let buffer = try #require(pixelBuffer)
        #expect(CVPixelBufferGetBaseAddressOfPlane(buffer, 1) == chroma)
        #expect(CVPixelBufferGetHeightOfPlane(buffer, 1) == 2)
        #expect(CVPixelBufferGetDataSize(buffer) == 48)
    }
}

/// A thread-safe counter for release callbacks.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
