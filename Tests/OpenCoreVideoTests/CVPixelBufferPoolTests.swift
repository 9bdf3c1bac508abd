import Foundation
import Testing
@testable import OpenCoreVideo

@Suite(.timeLimit(.minutes(10))) struct CVPixelBufferPoolTests {
    private func makePool(minimum: Int? = nil, age: Double? = 0) throws -> CVPixelBufferPool {
        var poolAttributes: [String: Any] = [:]
        if let minimum { poolAttributes[kCVPixelBufferPoolMinimumBufferCountKey as String] = minimum }
        if let age { poolAttributes[kCVPixelBufferPoolMaximumBufferAgeKey as String] = age }
        let bufferAttributes: [String: Any] = [
            kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange,
            kCVPixelBufferWidthKey as String: 640,
            kCVPixelBufferHeightKey as String: 480,
            kCVPixelBufferIOSurfacePropertiesKey as String: [String: Any](),
        ]
        var pool: CVPixelBufferPool?
        let status = CVPixelBufferPoolCreate(nil, poolAttributes as CFDictionary, bufferAttributes as CFDictionary, &pool)
        #expect(status == kCVReturnSuccess)
        return try #require(pool)
    }

    @Test func releasedMemoryIsReused() throws {
        let pool = try makePool()
        var first: CVPixelBuffer?
        #expect(CVPixelBufferPoolCreatePixelBuffer(nil, pool, &first) == kCVReturnSuccess)
        let address = CVPixelBufferGetBaseAddressOfPlane(try #require(first), 0)
        #expect(CVPixelBufferGetWidth(first!) == 640)
        #expect(CVPixelBufferGetPlaneCount(first!) == 2)
        first = nil
        #expect(pool.freeBufferCount == 1)
        for _ in 0..<5 {
            var next: CVPixelBuffer?
            #expect(CVPixelBufferPoolCreatePixelBuffer(nil, pool, &next) == kCVReturnSuccess)
            let buffer = try #require(next)
            #expect(CVPixelBufferGetBaseAddressOfPlane(buffer, 0) == address)
        }
        #expect(pool.allocatedBufferCount == 1)
    }

    @Test func allocationThresholdCountsLiveBuffers() throws {
        let pool = try makePool()
        let aux = [kCVPixelBufferPoolAllocationThresholdKey as String: 2] as CFDictionary
        var a: CVPixelBuffer?, b: CVPixelBuffer?, c: CVPixelBuffer?
        #expect(CVPixelBufferPoolCreatePixelBufferWithAuxAttributes(nil, pool, aux, &a) == kCVReturnSuccess)
        #expect(CVPixelBufferPoolCreatePixelBufferWithAuxAttributes(nil, pool, aux, &b) == kCVReturnSuccess)
        #expect(CVPixelBufferPoolCreatePixelBufferWithAuxAttributes(nil, pool, aux, &c) == kCVReturnWouldExceedAllocationThreshold)
        #expect(c == nil)
        #expect(kCVReturnWouldExceedAllocationThreshold == -6689)
        a = nil
        #expect(CVPixelBufferPoolCreatePixelBufferWithAuxAttributes(nil, pool, aux, &c) == kCVReturnSuccess)
        #expect(c != nil && b != nil)
        // Without the threshold the pool grows.
        var d: CVPixelBuffer?
        #expect(CVPixelBufferPoolCreatePixelBuffer(nil, pool, &d) == kCVReturnSuccess)
        #expect(pool.allocatedBufferCount == 3)
    }

    @Test func minimumCountPreallocatesAndFlushFrees() throws {
        let pool = try makePool(minimum: 3)
        #expect(pool.allocatedBufferCount == 3)
        #expect(pool.freeBufferCount == 3)
        let aux = [kCVPixelBufferPoolAllocationThresholdKey as String: 3] as CFDictionary
        var buffers: [CVPixelBuffer] = []
        for _ in 0..<3 {
            var buffer: CVPixelBuffer?
            #expect(CVPixelBufferPoolCreatePixelBufferWithAuxAttributes(nil, pool, aux, &buffer) == kCVReturnSuccess)
            buffers.append(try #require(buffer))
        }
        #expect(pool.allocatedBufferCount == 3)
        buffers.removeAll()
        #expect(pool.freeBufferCount == 3)
        CVPixelBufferPoolFlush(pool, [])
        #expect(pool.freeBufferCount == 3) // age 0 disables aging
        CVPixelBufferPoolFlush(pool, .excessBuffers)
        #expect(pool.freeBufferCount == 0)
        #expect(pool.allocatedBufferCount == 0)
    }

    @Test func agedBuffersAreFreedOnFlush() throws {
        let pool = try makePool(age: 0.001)
        var buffer: CVPixelBuffer?
        #expect(CVPixelBufferPoolCreatePixelBuffer(nil, pool, &buffer) == kCVReturnSuccess)
        buffer = nil
        #expect(pool.freeBufferCount == 1)
        let start = ProcessInfo.processInfo.systemUptime
        while ProcessInfo.processInfo.systemUptime - start < 0.01 {} // let the buffer age past 1 ms
        CVPixelBufferPoolFlush(pool, [])
        #expect(pool.freeBufferCount == 0)
    }

    @Test func attributesAreReportedAndValidated() throws {
        let pool = try makePool(minimum: 1)
        let attributes = try #require(CVPixelBufferPoolGetPixelBufferAttributes(pool) as? [String: Any])
        #expect((attributes[kCVPixelBufferWidthKey as String] as? NSNumber)?.intValue == 640)
        let poolAttributes = try #require(CVPixelBufferPoolGetAttributes(pool) as? [String: Any])
        #expect((poolAttributes[kCVPixelBufferPoolMinimumBufferCountKey as String] as? NSNumber)?.intValue == 1)
        var bad: CVPixelBufferPool?
        #expect(CVPixelBufferPoolCreate(nil, nil, [kCVPixelBufferWidthKey as String: 10] as CFDictionary, &bad) == kCVReturnInvalidPixelBufferAttributes)
        let unsupported: [String: Any] = [kCVPixelBufferPixelFormatTypeKey as String: FourCharCode(fourCC: "zzzz"),
                                          kCVPixelBufferWidthKey as String: 2, kCVPixelBufferHeightKey as String: 2]
        #expect(CVPixelBufferPoolCreate(nil, nil, unsupported as CFDictionary, &bad) == kCVReturnInvalidPixelFormat)
        #expect(bad == nil)
    }

    @Test func poolBuffersCarryConfiguredAttachmentsOnly() throws {
        let attributes: [String: Any] = [
            kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA,
            kCVPixelBufferWidthKey as String: 8, kCVPixelBufferHeightKey as String: 8,
            kCVBufferPropagatedAttachmentsKey as String: [kCVImageBufferYCbCrMatrixKey as String: kCVImageBufferYCbCrMatrix_ITU_R_709_2],
        ]
        var pool: CVPixelBufferPool?
        #expect(CVPixelBufferPoolCreate(nil, nil, attributes as CFDictionary, &pool) == kCVReturnSuccess)
        var first: CVPixelBuffer?
        let createdPool = try #require(pool)
        #expect(CVPixelBufferPoolCreatePixelBuffer(nil, createdPool, &first) == kCVReturnSuccess)
        CVBufferSetAttachment(first!, "Extra", "x", .shouldPropagate)
        first = nil
        var second: CVPixelBuffer?
        #expect(CVPixelBufferPoolCreatePixelBuffer(nil, pool!, &second) == kCVReturnSuccess)
        var mode = CVAttachmentMode.shouldNotPropagate
        #expect(CVBufferCopyAttachment(second!, kCVImageBufferYCbCrMatrixKey, &mode) as? String == "ITU_R_709_2")
        #expect(mode == .shouldPropagate)
        #expect(!CVBufferHasAttachment(second!, "Extra"))
    }

    @Test func concurrentCreateAndReleaseIsSafe() async throws {
        let pool = try makePool()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<200 {
                        var buffer: CVPixelBuffer?
                        _ = CVPixelBufferPoolCreatePixelBuffer(nil, pool, &buffer)
                        if let buffer { CVPixelBufferGetBaseAddressOfPlane(buffer, 0)!.storeBytes(of: 1, as: UInt8.self) }
                    }
                }
            }
        }
        #expect(pool.allocatedBufferCount <= 8)
        #expect(pool.freeBufferCount == pool.allocatedBufferCount)
    }
}
