import Foundation
import OpenCoreMedia
import Testing

@Suite(.timeLimit(.minutes(10))) struct CMMemoryPoolTests {
    /// The address of a block buffer's data.
    private func address(_ buffer: CMBlockBuffer) throws -> UnsafeMutableRawPointer {
        var pointer: UnsafeMutablePointer<CChar>?
        #expect(CMBlockBufferGetDataPointer(buffer, atOffset: 0, lengthAtOffsetOut: nil, totalLengthOut: nil, dataPointerOut: &pointer) == noErr)
        return UnsafeMutableRawPointer(try #require(pointer))
    }

    @Test func freedBlocksAreReusedZeroed() throws {
        let pool = CMMemoryPoolCreate(options: nil)
        let allocator = CMMemoryPoolGetAllocator(pool)
        var first: CMBlockBuffer? = try CMBlockBuffer(length: 100_000, allocator: allocator)
        let firstAddress = try address(try #require(first))
        firstAddress.initializeMemory(as: UInt8.self, repeating: 0xAB, count: 100_000)
        first = nil
        #expect(pool.heldBlockCount == 1)
        let second = try CMBlockBuffer(length: 99_000, allocator: allocator)
        #expect(try address(second) == firstAddress, "a block of the same pages is reused")
        #expect(pool.heldBlockCount == 0)
        #expect(try second.dataBytes().allSatisfy { $0 == 0 }, "reused memory is zeroed, as new memory is")
        // Another size does not take it; buffers without the pool's allocator never come to it.
        var other: CMBlockBuffer? = try CMBlockBuffer(length: 500_000, allocator: allocator)
        var plain: CMBlockBuffer? = try CMBlockBuffer(length: 100_000)
        other = nil
        plain = nil
        #expect(pool.heldBlockCount == 1)
        CMMemoryPoolFlush(pool)
        #expect(pool.heldBlockCount == 0)
        _ = (other, plain)
    }

    @Test func blocksAgeOutAndInvalidationStopsPooling() throws {
        // An age-out period of 0: a block held is freed at the allocator's next use.
        let eager = CMMemoryPoolCreate(options: [kCMMemoryPoolOption_AgeOutPeriod: 0] as CFDictionary)
        var a: CMBlockBuffer? = try CMBlockBuffer(length: 10_000, allocator: CMMemoryPoolGetAllocator(eager))
        var b: CMBlockBuffer? = try CMBlockBuffer(length: 10_000, allocator: CMMemoryPoolGetAllocator(eager))
        a = nil
        b = nil
        #expect(eager.heldBlockCount == 1, "the first block aged out when the second came back")
        // The default half second keeps both.
        let pool = CMMemoryPoolCreate(options: nil)
        var c: CMBlockBuffer? = try CMBlockBuffer(length: 10_000, allocator: CMMemoryPoolGetAllocator(pool))
        var d: CMBlockBuffer? = try CMBlockBuffer(length: 10_000, allocator: CMMemoryPoolGetAllocator(pool))
        c = nil
        d = nil
        #expect(pool.heldBlockCount == 2)
        CMMemoryPoolInvalidate(pool)
        #expect(pool.heldBlockCount == 0)
        var e: CMBlockBuffer? = try CMBlockBuffer(length: 10_000, allocator: CMMemoryPoolGetAllocator(pool))
        e = nil
        #expect(pool.heldBlockCount == 0, "an invalid pool holds nothing")
        _ = (a, b, c, d, e)
    }

    @Test func theAllocatorOutlivesItsPool() throws {
        var pool: CMMemoryPool? = CMMemoryPoolCreate(options: nil)
        let allocator = CMMemoryPoolGetAllocator(pool!)
        var buffer: CMBlockBuffer? = try CMBlockBuffer(length: 10_000, allocator: allocator)
        pool = nil
        buffer = nil
        let later = try CMBlockBuffer(length: 10_000, allocator: allocator)
        #expect(later.dataLength == 10_000)
        #expect(kCMMemoryPoolError_AllocationFailed == -15490 && kCMMemoryPoolError_InvalidParameter == -15491)
        _ = (pool, buffer)
    }
}
