import Foundation
import OpenCoreVideo

/// One memory block shared by the block buffers that reference it; frees its memory exactly
/// once, when the last of them goes away.
final class CMBlockBufferMemoryBlock: @unchecked Sendable {
    // The pointer and length never change; the release runs in deinit, which runs once.
    let pointer: UnsafeMutableRawPointer
    let length: Int
    private let release: (() -> Void)?

    init(pointer: UnsafeMutableRawPointer, length: Int, release: (() -> Void)?) {
        self.pointer = pointer
        self.length = length
        self.release = release
    }

    /// A zero-filled block this library allocated and frees: from `allocator` when it is one
    /// (a `CMMemoryPool`'s), else from the system allocator.
    static func allocate(length: Int, allocator: CFAllocator? = nil) -> CMBlockBufferMemoryBlock {
        let count = max(length, 1)
        let pointer = allocator?.allocateBlock(count) ?? UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
        pointer.initializeMemory(as: UInt8.self, repeating: 0, count: count)
        return CMBlockBufferMemoryBlock(pointer: pointer, length: length) {
            if let allocator { allocator.deallocateBlock(pointer, count) } else { pointer.deallocate() }
        }
    }

    deinit { release?() }
}
