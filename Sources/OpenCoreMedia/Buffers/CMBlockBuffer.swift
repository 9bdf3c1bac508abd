import Foundation
import OpenCoreVideo
import Synchronization

/// A run of bytes, offsets `0..<dataLength`, made of one or more memory blocks that need not be
/// contiguous in memory; appending memory blocks or ranges of other block buffers never copies.
///
/// Differs from Apple: a Swift class rather than a CoreFoundation type; memory blocks are
/// allocated when the buffer is made (never deferred); references to other block buffers are
/// always flattened to the memory blocks they cover.
public final class CMBlockBuffer: @unchecked Sendable {
    // Appends mutate the segment list; a lock makes concurrent readers and appenders safe. A
    // `Mutex` is stored inline, not allocated as an `NSLock` is: one block buffer is made per
    // packet read.
    struct Segment {
        let block: CMBlockBufferMemoryBlock
        let offset: Int
        let length: Int
        var pointer: UnsafeMutableRawPointer { block.pointer + offset }
    }

    private let lock = Mutex(())
    private var storedSegments: [Segment] = []

    init(segments: [Segment] = [], memoryOwner: AnyObject? = nil) {
        storedSegments = segments
        self.memoryOwner = memoryOwner
    }

    /// Wraps memory owned elsewhere, such as an FFmpeg packet's data, without copying.
    ///
    /// Package access, for the FFmpeg layer. `release` is called exactly once, when the last
    /// block buffer (or sample buffer) using the memory goes away, on whatever thread drops that
    /// last reference.
    /// `owner`, when given, is the object the memory belongs to (such as the packet), kept
    /// so that the engine can recognise its own memory and share it again instead of copying.
    package convenience init(wrapping pointer: UnsafeMutableRawPointer, length: Int, owner: AnyObject? = nil,
                             release: @escaping () -> Void) {
        let block = CMBlockBufferMemoryBlock(pointer: pointer, length: length, release: release)
        self.init(segments: length > 0 ? [Segment(block: block, offset: 0, length: length)] : [], memoryOwner: owner)
    }

    /// The object owning the wrapped memory, for a buffer made by `init(wrapping:length:owner:release:)`
    /// with an owner; nil otherwise. Package access.
    package let memoryOwner: AnyObject?

    /// A block buffer holding a copy of `data` in one contiguous memory block. Package access.
    package convenience init(copying data: Data) {
        let block = CMBlockBufferMemoryBlock.allocate(length: data.count)
        data.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { block.pointer.copyMemory(from: base, byteCount: bytes.count) }
        }
        self.init(segments: data.isEmpty ? [] : [Segment(block: block, offset: 0, length: data.count)])
    }

    var segments: [Segment] {
        lock.withLock { _ in storedSegments }
    }

    func append(_ newSegments: [Segment]) {
        lock.withLock { _ in storedSegments += newSegments }
    }

    /// The segments covering `offset..<offset+length`, trimmed to that range; `nil` if out of range.
    func segments(in offset: Int, length: Int) -> [Segment]? {
        let all = segments
        let total = all.reduce(0) { $0 + $1.length }
        guard offset >= 0, length >= 0, offset + length <= total else { return nil }
        var result: [Segment] = []
        var position = 0
        let end = offset + length
        for segment in all {
            let segmentEnd = position + segment.length
            defer { position = segmentEnd }
            guard segmentEnd > offset, position < end else { continue }
            let start = max(offset, position) - position
            let stop = min(end, segmentEnd) - position
            result.append(Segment(block: segment.block, offset: segment.offset + start, length: stop - start))
        }
        return result
    }

    /// The segment holding byte `offset` and the offset within it.
    func locate(_ offset: Int) -> (segment: Segment, within: Int)? {
        var position = 0
        for segment in segments {
            if offset < position + segment.length { return (segment, offset - position) }
            position += segment.length
        }
        return nil
    }

    /// Visits the bytes of `offset..<offset+length` piece by piece; false if out of range.
    func forEachPiece(offset: Int, length: Int, _ body: (UnsafeMutableRawBufferPointer, Int) -> Void) -> Bool {
        guard let pieces = segments(in: offset, length: length) else { return false }
        var done = 0
        for piece in pieces {
            body(UnsafeMutableRawBufferPointer(start: piece.pointer, count: piece.length), done)
            done += piece.length
        }
        return true
    }

    /// Total number of bytes.
    public var dataLength: Int { segments.reduce(0) { $0 + $1.length } }

    /// Whether the buffer holds no bytes.
    public var isEmpty: Bool { segments.isEmpty }

    /// Calls `body` with the contiguous bytes from `offset` to the end of the buffer.
    ///
    /// Throws an `NSError` in `NSOSStatusErrorDomain` (`kCMBlockBufferBadOffsetParameterErr`
    /// when out of range, `kCMBlockBufferBadLengthParameterErr` when the bytes from `offset` are
    /// not contiguous), as Apple does.
    public func withUnsafeMutableBytes<R>(atOffset offset: Int = 0,
                                          _ body: (UnsafeMutableRawBufferPointer) throws -> R) throws -> R {
        let total = dataLength
        guard total > 0 else { throw CMBlockBuffer.error(kCMBlockBufferEmptyBBufErr) }
        guard offset >= 0, offset < total, let (segment, within) = locate(offset) else {
            throw CMBlockBuffer.error(kCMBlockBufferBadOffsetParameterErr)
        }
        guard segment.length - within == total - offset else {
            throw CMBlockBuffer.error(kCMBlockBufferBadLengthParameterErr)
        }
        return try body(UnsafeMutableRawBufferPointer(start: segment.pointer + within, count: total - offset))
    }

    /// A copy of all the bytes.
    public func dataBytes() throws -> Data {
        var data = Data(count: dataLength)
        data.withUnsafeMutableBytes { destination in
            _ = forEachPiece(offset: 0, length: destination.count) { piece, at in
                (destination.baseAddress! + at).copyMemory(from: piece.baseAddress!, byteCount: piece.count)
            }
        }
        return data
    }

    static func error(_ status: OSStatus) -> NSError {
        NSError(domain: NSOSStatusErrorDomain, code: Int(status))
    }
}
