import Foundation
import OpenCoreVideo

/// Makes the memory block for a create or append call: the caller's memory (freed by the
/// custom block source's `FreeBlock`, or with `free` when there is no source) or new memory.
private func makeMemoryBlock(
    memoryBlock: UnsafeMutableRawPointer?, length: Int, blockAllocator: CFAllocator?,
    customBlockSource: UnsafePointer<CMBlockBufferCustomBlockSource>?
) -> (CMBlockBufferMemoryBlock?, OSStatus) {
    guard length >= 0 else { return (nil, kCMBlockBufferBadLengthParameterErr) }
    if let source = customBlockSource?.pointee {
        guard source.version == kCMBlockBufferCustomBlockSourceVersion else {
            return (nil, kCMBlockBufferBadCustomBlockSourceErr)
        }
        var pointer = memoryBlock
        if pointer == nil {
            guard let allocate = source.AllocateBlock else { return (nil, kCMBlockBufferBadCustomBlockSourceErr) }
            pointer = allocate(source.refCon, length)
            guard pointer != nil else { return (nil, kCMBlockBufferBlockAllocationFailedErr) }
        }
        let free = source.FreeBlock
        let refCon = source.refCon
        let block = pointer!
        return (CMBlockBufferMemoryBlock(pointer: block, length: length, release: free.map { free in
            { free(refCon, block, length) }
        }), noErr)
    }
    if let memoryBlock {
        return (CMBlockBufferMemoryBlock(pointer: memoryBlock, length: length) { Foundation.free(memoryBlock) }, noErr)
    }
    return (CMBlockBufferMemoryBlock.allocate(length: length, allocator: blockAllocator), noErr)
}

/// Creates an empty block buffer, to which memory blocks and buffer references can be appended.
@discardableResult
public func CMBlockBufferCreateEmpty(
    allocator structureAllocator: CFAllocator?, capacity subBlockCapacity: UInt32, flags: CMBlockBufferFlags,
    blockBufferOut: UnsafeMutablePointer<CMBlockBuffer?>
) -> OSStatus {
    blockBufferOut.pointee = CMBlockBuffer(segments: [])
    return kCMBlockBufferNoErr
}

/// Creates a block buffer over one memory block: the caller's memory (`memoryBlock`) or, when
/// `nil`, new zeroed memory of `blockLength` bytes. The buffer covers `offsetToData` and
/// `dataLength` bytes of the block.
///
/// Memory passed in is freed with `free` when no longer used, or with the custom block source's
/// `FreeBlock` when one is given (never, if that is `nil`). New memory comes from
/// `blockAllocator` when it is a `CMMemoryPool`'s. Differs from Apple: memory passed in is never
/// freed with `blockAllocator` (there is no `kCFAllocatorNull`; use a custom block source
/// without `FreeBlock` for memory you keep), and new memory is always allocated at once.
@discardableResult
public func CMBlockBufferCreateWithMemoryBlock(
    allocator structureAllocator: CFAllocator?, memoryBlock: UnsafeMutableRawPointer?, blockLength: Int,
    blockAllocator: CFAllocator?, customBlockSource: UnsafePointer<CMBlockBufferCustomBlockSource>?,
    offsetToData: Int, dataLength: Int, flags: CMBlockBufferFlags,
    blockBufferOut: UnsafeMutablePointer<CMBlockBuffer?>
) -> OSStatus {
    blockBufferOut.pointee = nil
    guard offsetToData >= 0, offsetToData <= blockLength else { return kCMBlockBufferBadOffsetParameterErr }
    guard dataLength >= 0, offsetToData + dataLength <= blockLength else { return kCMBlockBufferBadLengthParameterErr }
    let (block, status) = makeMemoryBlock(memoryBlock: memoryBlock, length: blockLength, blockAllocator: blockAllocator,
                                            customBlockSource: customBlockSource)
    guard let block else { return status }
    blockBufferOut.pointee = CMBlockBuffer(
        segments: dataLength > 0 ? [.init(block: block, offset: offsetToData, length: dataLength)] : [])
    return kCMBlockBufferNoErr
}

/// Creates a block buffer that refers to `dataLength` bytes of another at `offsetToData`, without
/// copying; `dataLength` 0 means to the end.
@discardableResult
public func CMBlockBufferCreateWithBufferReference(
    allocator: CFAllocator?, referenceBuffer: CMBlockBuffer, offsetToData: Int, dataLength: Int,
    flags: CMBlockBufferFlags, blockBufferOut: UnsafeMutablePointer<CMBlockBuffer?>
) -> OSStatus {
    blockBufferOut.pointee = nil
    let buffer = CMBlockBuffer(segments: [])
    let status = CMBlockBufferAppendBufferReference(
        buffer, targetBBuf: referenceBuffer, offsetToData: offsetToData, dataLength: dataLength, flags: flags)
    if status == kCMBlockBufferNoErr { blockBufferOut.pointee = buffer }
    return status
}

/// Appends one memory block: the caller's memory or, when `memoryBlock` is `nil`, new zeroed
/// memory of `length` bytes. Ownership is as in `CMBlockBufferCreateWithMemoryBlock`.
@discardableResult
public func CMBlockBufferAppendMemoryBlock(
    _ theBuffer: CMBlockBuffer, memoryBlock: UnsafeMutableRawPointer?, length blockLength: Int,
    blockAllocator: CFAllocator?, customBlockSource: UnsafePointer<CMBlockBufferCustomBlockSource>?,
    offsetToData: Int, dataLength: Int, flags: CMBlockBufferFlags
) -> OSStatus {
    guard offsetToData >= 0, offsetToData <= blockLength else { return kCMBlockBufferBadOffsetParameterErr }
    guard dataLength >= 0, offsetToData + dataLength <= blockLength else { return kCMBlockBufferBadLengthParameterErr }
    let (block, status) = makeMemoryBlock(memoryBlock: memoryBlock, length: blockLength, blockAllocator: blockAllocator,
                                            customBlockSource: customBlockSource)
    guard let block else { return status }
    if dataLength > 0 { theBuffer.append([.init(block: block, offset: offsetToData, length: dataLength)]) }
    return kCMBlockBufferNoErr
}

/// Appends a reference to `dataLength` bytes of another block buffer at `offsetToData`, without
/// copying; `dataLength` 0 means to the end of the target.
@discardableResult
public func CMBlockBufferAppendBufferReference(
    _ theBuffer: CMBlockBuffer, targetBBuf targetBuffer: CMBlockBuffer, offsetToData: Int, dataLength: Int,
    flags: CMBlockBufferFlags
) -> OSStatus {
    let targetLength = targetBuffer.dataLength
    if targetLength == 0 {
        return flags & kCMBlockBufferPermitEmptyReferenceFlag != 0 ? kCMBlockBufferNoErr : kCMBlockBufferEmptyBBufErr
    }
    guard offsetToData >= 0, offsetToData < targetLength else { return kCMBlockBufferBadOffsetParameterErr }
    let length = dataLength == 0 ? targetLength - offsetToData : dataLength
    guard length > 0, let pieces = targetBuffer.segments(in: offsetToData, length: length) else {
        return kCMBlockBufferBadLengthParameterErr
    }
    if flags & kCMBlockBufferAlwaysCopyDataFlag != 0 {
        let copy = CMBlockBufferMemoryBlock.allocate(length: length)
        var at = 0
        for piece in pieces {
            (copy.pointer + at).copyMemory(from: piece.pointer, byteCount: piece.length)
            at += piece.length
        }
        theBuffer.append([.init(block: copy, offset: 0, length: length)])
    } else {
        theBuffer.append(pieces)
    }
    return kCMBlockBufferNoErr
}

/// Makes sure every memory block is allocated; always true here, since blocks are allocated when added.
@discardableResult
public func CMBlockBufferAssureBlockMemory(_ theBuffer: CMBlockBuffer) -> OSStatus {
    kCMBlockBufferNoErr
}

/// Total number of bytes in the buffer.
public func CMBlockBufferGetDataLength(_ theBuffer: CMBlockBuffer) -> Int {
    theBuffer.dataLength
}

/// Whether the buffer holds no bytes.
public func CMBlockBufferIsEmpty(_ theBuffer: CMBlockBuffer) -> Bool {
    theBuffer.isEmpty
}

/// A pointer to the byte at `offset`, with how many bytes follow it contiguously and the total length.
@discardableResult
public func CMBlockBufferGetDataPointer(
    _ theBuffer: CMBlockBuffer, atOffset offset: Int, lengthAtOffsetOut: UnsafeMutablePointer<Int>?,
    totalLengthOut: UnsafeMutablePointer<Int>?, dataPointerOut: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> OSStatus {
    let total = theBuffer.dataLength
    totalLengthOut?.pointee = total
    guard total > 0 else {
        lengthAtOffsetOut?.pointee = 0
        dataPointerOut?.pointee = nil
        return kCMBlockBufferEmptyBBufErr
    }
    guard offset >= 0, let (segment, within) = theBuffer.locate(offset) else {
        lengthAtOffsetOut?.pointee = 0
        dataPointerOut?.pointee = nil
        return kCMBlockBufferBadOffsetParameterErr
    }
    lengthAtOffsetOut?.pointee = segment.length - within
    dataPointerOut?.pointee = (segment.pointer + within).assumingMemoryBound(to: CChar.self)
    return kCMBlockBufferNoErr
}

/// A pointer to `length` contiguous bytes at `offset`: into the buffer when they are contiguous
/// there, otherwise into `temporaryBlock` after copying them there.
@discardableResult
public func CMBlockBufferAccessDataBytes(
    _ theBuffer: CMBlockBuffer, atOffset offset: Int, length: Int, temporaryBlock: UnsafeMutableRawPointer,
    returnedPointerOut: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
) -> OSStatus {
    returnedPointerOut.pointee = nil
    guard offset >= 0, offset < theBuffer.dataLength else { return kCMBlockBufferBadOffsetParameterErr }
    guard length > 0, offset + length <= theBuffer.dataLength else { return kCMBlockBufferBadLengthParameterErr }
    if let (segment, within) = theBuffer.locate(offset), segment.length - within >= length {
        returnedPointerOut.pointee = (segment.pointer + within).assumingMemoryBound(to: CChar.self)
        return kCMBlockBufferNoErr
    }
    let status = CMBlockBufferCopyDataBytes(theBuffer, atOffset: offset, dataLength: length, destination: temporaryBlock)
    if status == kCMBlockBufferNoErr { returnedPointerOut.pointee = temporaryBlock.assumingMemoryBound(to: CChar.self) }
    return status
}

/// Copies `dataLength` bytes at `offsetToData` into `destination`, across memory blocks.
@discardableResult
public func CMBlockBufferCopyDataBytes(
    _ theSourceBuffer: CMBlockBuffer, atOffset offsetToData: Int, dataLength: Int,
    destination: UnsafeMutableRawPointer
) -> OSStatus {
    let total = theSourceBuffer.dataLength
    guard total > 0 else { return kCMBlockBufferEmptyBBufErr }
    guard offsetToData >= 0, offsetToData <= total else { return kCMBlockBufferBadOffsetParameterErr }
    guard dataLength >= 0, offsetToData + dataLength <= total else { return kCMBlockBufferBadLengthParameterErr }
    _ = theSourceBuffer.forEachPiece(offset: offsetToData, length: dataLength) { piece, at in
        (destination + at).copyMemory(from: piece.baseAddress!, byteCount: piece.count)
    }
    return kCMBlockBufferNoErr
}

/// Overwrites `dataLength` bytes of the buffer at `offsetIntoDestination` with `sourceBytes`,
/// across memory blocks.
@discardableResult
public func CMBlockBufferReplaceDataBytes(
    with sourceBytes: UnsafeRawPointer, blockBuffer destinationBuffer: CMBlockBuffer, offsetIntoDestination: Int,
    dataLength: Int
) -> OSStatus {
    let total = destinationBuffer.dataLength
    guard total > 0 else { return kCMBlockBufferEmptyBBufErr }
    guard offsetIntoDestination >= 0, offsetIntoDestination <= total else { return kCMBlockBufferBadOffsetParameterErr }
    guard dataLength >= 0, offsetIntoDestination + dataLength <= total else { return kCMBlockBufferBadLengthParameterErr }
    _ = destinationBuffer.forEachPiece(offset: offsetIntoDestination, length: dataLength) { piece, at in
        piece.baseAddress!.copyMemory(from: sourceBytes + at, byteCount: piece.count)
    }
    return kCMBlockBufferNoErr
}

/// Fills `dataLength` bytes of the buffer at `offsetIntoDestination` with `fillByte`.
@discardableResult
public func CMBlockBufferFillDataBytes(
    with fillByte: CChar, blockBuffer destinationBuffer: CMBlockBuffer, offsetIntoDestination: Int, dataLength: Int
) -> OSStatus {
    let total = destinationBuffer.dataLength
    guard total > 0 else { return kCMBlockBufferEmptyBBufErr }
    guard offsetIntoDestination >= 0, offsetIntoDestination <= total else { return kCMBlockBufferBadOffsetParameterErr }
    guard dataLength >= 0, offsetIntoDestination + dataLength <= total else { return kCMBlockBufferBadLengthParameterErr }
    _ = destinationBuffer.forEachPiece(offset: offsetIntoDestination, length: dataLength) { piece, _ in
        piece.initializeMemory(as: UInt8.self, repeating: UInt8(bitPattern: fillByte))
    }
    return kCMBlockBufferNoErr
}

/// Whether `length` bytes at `offset` lie in one memory block; `length` 0 means to the end.
public func CMBlockBufferIsRangeContiguous(_ theBuffer: CMBlockBuffer, atOffset offset: Int, length: Int) -> Bool {
    let total = theBuffer.dataLength
    let length = length == 0 ? total - offset : length
    guard offset >= 0, length > 0, offset + length <= total,
          let pieces = theBuffer.segments(in: offset, length: length) else { return false }
    return pieces.count == 1
}

/// Makes a block buffer whose `dataLength` bytes at `offsetToData` are contiguous: a reference
/// when they already are (unless `kCMBlockBufferAlwaysCopyDataFlag`), otherwise a copy.
/// `dataLength` 0 means to the end.
///
/// Differs from Apple: `blockAllocator` and `customBlockSource` are ignored for the copy.
@discardableResult
public func CMBlockBufferCreateContiguous(
    allocator structureAllocator: CFAllocator?, sourceBuffer theSourceBuffer: CMBlockBuffer,
    blockAllocator: CFAllocator?, customBlockSource: UnsafePointer<CMBlockBufferCustomBlockSource>?,
    offsetToData: Int, dataLength: Int, flags: CMBlockBufferFlags,
    blockBufferOut: UnsafeMutablePointer<CMBlockBuffer?>
) -> OSStatus {
    blockBufferOut.pointee = nil
    let total = theSourceBuffer.dataLength
    guard total > 0 else { return kCMBlockBufferEmptyBBufErr }
    guard offsetToData >= 0, offsetToData < total else { return kCMBlockBufferBadOffsetParameterErr }
    let length = dataLength == 0 ? total - offsetToData : dataLength
    guard length > 0, offsetToData + length <= total else { return kCMBlockBufferBadLengthParameterErr }
    var copyFlags = flags
    if !CMBlockBufferIsRangeContiguous(theSourceBuffer, atOffset: offsetToData, length: length) {
        copyFlags |= kCMBlockBufferAlwaysCopyDataFlag
    }
    return CMBlockBufferCreateWithBufferReference(
        allocator: structureAllocator, referenceBuffer: theSourceBuffer, offsetToData: offsetToData,
        dataLength: length, flags: copyFlags, blockBufferOut: blockBufferOut)
}
