import Foundation
import OpenCoreVideo

extension CMBlockBuffer {
    /// Whether all the bytes lie in one memory block.
    public var isContiguous: Bool { CMBlockBufferIsRangeContiguous(self, atOffset: 0, length: 0) }

    /// Calls `body` with all the bytes in one piece: the buffer's own memory when it is
    /// contiguous, else a contiguous copy. Throws an `NSError` in `NSOSStatusErrorDomain`
    /// (`kCMBlockBufferEmptyBBufErr`) for an empty buffer.
    public func withContiguousStorage<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        if isContiguous { return try withUnsafeMutableBytes { try body(UnsafeRawBufferPointer($0)) } }
        return try dataBytes().withUnsafeBytes(body)
    }

    /// Copies the bytes into `destination`, which must hold `dataLength` bytes. Throws as
    /// `CMBlockBufferCopyDataBytes` fails (`kCMBlockBufferBadLengthParameterErr` for a smaller one).
    public func copyDataBytes(to destination: UnsafeMutableRawBufferPointer) throws {
        guard let base = destination.baseAddress, destination.count >= dataLength else {
            throw Self.error(kCMBlockBufferBadLengthParameterErr)
        }
        try Self.check(CMBlockBufferCopyDataBytes(self, atOffset: 0, dataLength: dataLength, destination: base))
    }

    /// Overwrites the bytes from the start with `sourceBytes`, across memory blocks. Throws as
    /// `CMBlockBufferReplaceDataBytes` fails (for more bytes than the buffer holds).
    public func replaceDataBytes(with sourceBytes: UnsafeRawBufferPointer) throws {
        guard let base = sourceBytes.baseAddress else { return }
        try Self.check(CMBlockBufferReplaceDataBytes(with: base, blockBuffer: self, offsetIntoDestination: 0,
                                                     dataLength: sourceBytes.count))
    }

    /// Sets every byte to `fillByte`. Throws as `CMBlockBufferFillDataBytes` fails.
    public func fillDataBytes(with fillByte: UInt8) throws {
        try Self.check(CMBlockBufferFillDataBytes(with: CChar(bitPattern: fillByte), blockBuffer: self, offsetIntoDestination: 0,
                                                  dataLength: dataLength))
    }

    /// Throws the status of a block buffer function unless it succeeded.
    private static func check(_ status: OSStatus) throws {
        if status != kCMBlockBufferNoErr { throw error(status) }
    }
}
