import Foundation
import OpenCoreMedia
import OpenCoreVideo
import Testing

/// Counts calls from any thread.
private final class CallCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

@Suite(.timeLimit(.minutes(10))) struct CMBlockBufferTests {
    /// A block buffer made of two malloc'd blocks: 0...9 then 10...19.
    static func twoBlockBuffer() throws -> CMBlockBuffer {
        var buffer: CMBlockBuffer?
        #expect(CMBlockBufferCreateEmpty(allocator: nil, capacity: 2, flags: 0, blockBufferOut: &buffer) == kCMBlockBufferNoErr)
        let blockBuffer = try #require(buffer)
        for start in [0, 10] {
            let memory = malloc(10)!
            for index in 0..<10 { memory.storeBytes(of: UInt8(start + index), toByteOffset: index, as: UInt8.self) }
            #expect(CMBlockBufferAppendMemoryBlock(blockBuffer, memoryBlock: memory, length: 10, blockAllocator: nil,
                                                   customBlockSource: nil, offsetToData: 0, dataLength: 10,
                                                   flags: 0) == kCMBlockBufferNoErr)
        }
        return blockBuffer
    }

    @Test func copiesBytesAcrossTheBoundaryOfTwoMemoryBlocks() throws {
        let buffer = try Self.twoBlockBuffer()
        #expect(CMBlockBufferGetDataLength(buffer) == 20)
        #expect(buffer.dataLength == 20)
        var out = [UInt8](repeating: 0xEE, count: 6)
        #expect(CMBlockBufferCopyDataBytes(buffer, atOffset: 7, dataLength: 6, destination: &out) == kCMBlockBufferNoErr)
        #expect(out == [7, 8, 9, 10, 11, 12])
        #expect(try buffer.dataBytes() == Data(0..<20))
        #expect(!CMBlockBufferIsRangeContiguous(buffer, atOffset: 7, length: 6))
        #expect(CMBlockBufferIsRangeContiguous(buffer, atOffset: 10, length: 10))
        #expect(CMBlockBufferCopyDataBytes(buffer, atOffset: 15, dataLength: 6, destination: &out)
            == kCMBlockBufferBadLengthParameterErr)
    }

    @Test func dataPointerReportsTheContiguousRunAtAnOffset() throws {
        let buffer = try Self.twoBlockBuffer()
        var lengthAtOffset = 0, total = 0
        var pointer: UnsafeMutablePointer<CChar>?
        #expect(CMBlockBufferGetDataPointer(buffer, atOffset: 12, lengthAtOffsetOut: &lengthAtOffset,
                                            totalLengthOut: &total, dataPointerOut: &pointer) == kCMBlockBufferNoErr)
        #expect(lengthAtOffset == 8)
        #expect(total == 20)
        #expect(pointer?.pointee == 12)
    }

    @Test func replaceWritesAcrossBlocksAndContiguousCopyJoinsThem() throws {
        let buffer = try Self.twoBlockBuffer()
        let patch: [UInt8] = [0xA0, 0xA1, 0xA2, 0xA3]
        #expect(CMBlockBufferReplaceDataBytes(with: patch, blockBuffer: buffer, offsetIntoDestination: 8,
                                              dataLength: 4) == kCMBlockBufferNoErr)
        var expected = Array(0..<20).map(UInt8.init)
        expected.replaceSubrange(8..<12, with: patch)
        #expect(try buffer.dataBytes() == Data(expected))

        var joined: CMBlockBuffer?
        #expect(CMBlockBufferCreateContiguous(allocator: nil, sourceBuffer: buffer, blockAllocator: nil,
                                              customBlockSource: nil, offsetToData: 0, dataLength: 0, flags: 0,
                                              blockBufferOut: &joined) == kCMBlockBufferNoErr)
        let contiguous = try #require(joined)
        #expect(CMBlockBufferIsRangeContiguous(contiguous, atOffset: 0, length: 0))
        let bytes = try contiguous.withUnsafeMutableBytes { Array($0) }
        #expect(bytes == expected)
        // A multi-block buffer does not pretend to be contiguous.
        #expect(throws: (any Error).self) { try buffer.withUnsafeMutableBytes { _ in } }
    }

    /// The Swift data methods Apple's overlay adds, across two memory blocks.
    @Test func swiftDataMethodsWorkAcrossMemoryBlocks() throws {
        let buffer = try Self.twoBlockBuffer()
        #expect(!buffer.isContiguous)
        #expect(try buffer.withContiguousStorage { Array($0) } == Array(0..<20).map(UInt8.init))
        try [UInt8](repeating: 7, count: 12).withUnsafeBytes { try buffer.replaceDataBytes(with: $0) }
        var out = [UInt8](repeating: 0, count: 20)
        try out.withUnsafeMutableBytes { try buffer.copyDataBytes(to: $0) }
        #expect(out == [UInt8](repeating: 7, count: 12) + Array(12..<20).map(UInt8.init))
        var small = [UInt8](repeating: 0, count: 4)
        #expect(throws: NSError.self) { try small.withUnsafeMutableBytes { try buffer.copyDataBytes(to: $0) } }
        try buffer.fillDataBytes(with: 0xAB)
        #expect(try buffer.dataBytes() == Data(repeating: 0xAB, count: 20))
        let single = try CMBlockBuffer(length: 4)
        #expect(single.isContiguous)
        #expect(throws: NSError.self) { try [UInt8](repeating: 1, count: 5).withUnsafeBytes { try single.replaceDataBytes(with: $0) } }
    }

    @Test func wrappedMemoryIsReleasedExactlyOnceAfterTheLastReference() throws {
        let counter = CallCounter()
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
        memory.initializeMemory(as: UInt8.self, repeating: 7, count: 8)
        var reference: CMBlockBuffer?
        do {
            let wrapped = CMBlockBuffer(wrapping: memory, length: 8) {
                counter.increment()
                memory.deallocate()
            }
            #expect(CMBlockBufferGetDataLength(wrapped) == 8)
            #expect(CMBlockBufferCreateWithBufferReference(allocator: nil, referenceBuffer: wrapped, offsetToData: 2,
                                                           dataLength: 4, flags: 0,
                                                           blockBufferOut: &reference) == kCMBlockBufferNoErr)
        }
        // The reference keeps the memory alive; no copy was made.
        #expect(counter.value == 0)
        do {
            var out = [UInt8](repeating: 0, count: 4)
            let referenceBuffer = try #require(reference)
            #expect(CMBlockBufferCopyDataBytes(referenceBuffer, atOffset: 0, dataLength: 4, destination: &out) == 0)
            #expect(out == [7, 7, 7, 7])
            var pointer: UnsafeMutablePointer<CChar>?
            _ = CMBlockBufferGetDataPointer(referenceBuffer, atOffset: 0, lengthAtOffsetOut: nil,
                                            totalLengthOut: nil, dataPointerOut: &pointer)
            #expect(UnsafeMutableRawPointer(pointer) == memory + 2)
        }
        reference = nil
        #expect(counter.value == 1)
    }

    @Test func newMemoryBlocksAreZeroedAndOwned() throws {
        var buffer: CMBlockBuffer?
        #expect(CMBlockBufferCreateWithMemoryBlock(allocator: nil, memoryBlock: nil, blockLength: 16,
                                                   blockAllocator: nil, customBlockSource: nil, offsetToData: 4,
                                                   dataLength: 8, flags: kCMBlockBufferAssureMemoryNowFlag,
                                                   blockBufferOut: &buffer) == kCMBlockBufferNoErr)
        let blockBuffer = try #require(buffer)
        #expect(blockBuffer.dataLength == 8)
        #expect(try blockBuffer.dataBytes() == Data(count: 8))
        #expect(!blockBuffer.isEmpty)
        #expect(CMBlockBufferCreateWithMemoryBlock(allocator: nil, memoryBlock: nil, blockLength: 4,
                                                   blockAllocator: nil, customBlockSource: nil, offsetToData: 2,
                                                   dataLength: 8, flags: 0, blockBufferOut: &buffer)
            == kCMBlockBufferBadLengthParameterErr)
    }
}
