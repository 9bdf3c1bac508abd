import Foundation
import OpenCoreVideo

extension CMBlockBuffer {
    /// Options for making block buffers: the Swift form of `kCMBlockBufferAssureMemoryNowFlag`
    /// and its siblings.
    public struct Flags: OptionSet, Sendable {
        /// The flags as `CMBlockBufferFlags` bits.
        public let rawValue: CMBlockBufferFlags
        /// Makes flags from their raw `CMBlockBufferFlags` value.
        public init(rawValue: CMBlockBufferFlags) { self.rawValue = rawValue }
        /// Allocate the memory at once (it always is here).
        public static let assureMemoryNow = Flags(rawValue: kCMBlockBufferAssureMemoryNowFlag)
        /// Copy the data instead of referring to it.
        public static let alwaysCopyData = Flags(rawValue: kCMBlockBufferAlwaysCopyDataFlag)
        /// Keep references to other block buffers as they are (here they are always flattened).
        public static let dontOptimizeDepth = Flags(rawValue: kCMBlockBufferDontOptimizeDepthFlag)
        /// Allow a reference to an empty block buffer.
        public static let permitEmptyReference = Flags(rawValue: kCMBlockBufferPermitEmptyReferenceFlag)
    }

    /// Frees a block of memory given to a block buffer: its address and length.
    public typealias CustomBlockDeallocator = (UnsafeMutableRawPointer, Int) -> Void

    /// An empty block buffer, for appending to. `capacity` (how many blocks it expects) is a
    /// hint Linux does not need.
    public convenience init(capacity: Int = 0, flags: Flags = []) throws {
        self.init(segments: [])
    }

    /// A block buffer over new memory of `length` bytes (zeroed), covering `range` of it (all of
    /// it when nil). Throws `kCMBlockBufferBadOffsetParameterErr`/`…BadLengthParameterErr` (in
    /// `NSOSStatusErrorDomain`) for a range outside the memory.
    public convenience init(length: Int, allocator: CFAllocator? = kCFAllocatorDefault, range: Range<Int>? = nil,
                            flags: Flags = []) throws {
        let range = range ?? 0..<max(0, length)
        try self.init(made: { out in
            CMBlockBufferCreateWithMemoryBlock(allocator: nil, memoryBlock: nil, blockLength: length, blockAllocator: allocator,
                                               customBlockSource: nil, offsetToData: range.lowerBound, dataLength: range.count,
                                               flags: flags.rawValue, blockBufferOut: out)
        })
    }

    /// A block buffer over the caller's memory, which it owns from now on and frees (with
    /// `free`) when the last buffer using it goes away.
    public convenience init(buffer: UnsafeMutableRawBufferPointer, allocator: CFAllocator? = kCFAllocatorDefault,
                            flags: Flags = []) throws {
        try self.init(buffer: buffer, deallocator: { pointer, _ in free(pointer) }, flags: flags)
    }

    /// A block buffer over the caller's memory, handed to `deallocator` when the last buffer
    /// using it goes away.
    public convenience init(buffer: UnsafeMutableRawBufferPointer, deallocator: @escaping CustomBlockDeallocator,
                            flags: Flags = []) throws {
        guard let base = buffer.baseAddress, buffer.count > 0 else {
            self.init(segments: [])
            return
        }
        let length = buffer.count
        let block = CMBlockBufferMemoryBlock(pointer: base, length: length) { deallocator(base, length) }
        self.init(segments: [Segment(block: block, offset: 0, length: length)])
    }

    /// Adopts the block buffer a C-style function made, or throws its status.
    private convenience init(made: (UnsafeMutablePointer<CMBlockBuffer?>) -> OSStatus) throws {
        var out: CMBlockBuffer?
        let status = made(&out)
        guard status == kCMBlockBufferNoErr, let out else { throw Self.error(status) }
        self.init(segments: out.segments, memoryOwner: out.memoryOwner)
    }
}
