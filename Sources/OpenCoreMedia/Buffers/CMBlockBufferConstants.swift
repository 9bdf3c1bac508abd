import Foundation
import OpenCoreVideo

/// Success.
public let kCMBlockBufferNoErr: OSStatus = 0
/// The block buffer object itself could not be allocated.
public let kCMBlockBufferStructureAllocationFailedErr: OSStatus = -12700
/// A memory block could not be allocated.
public let kCMBlockBufferBlockAllocationFailedErr: OSStatus = -12701
/// The custom block source is not valid.
public let kCMBlockBufferBadCustomBlockSourceErr: OSStatus = -12702
/// An offset is out of range.
public let kCMBlockBufferBadOffsetParameterErr: OSStatus = -12703
/// A length is out of range or zero where it may not be.
public let kCMBlockBufferBadLengthParameterErr: OSStatus = -12704
/// A required pointer was `nil`.
public let kCMBlockBufferBadPointerParameterErr: OSStatus = -12705
/// The block buffer is empty.
public let kCMBlockBufferEmptyBBufErr: OSStatus = -12706
/// A memory block has not been allocated yet.
public let kCMBlockBufferUnallocatedBlockErr: OSStatus = -12707
/// The destination has too little room.
public let kCMBlockBufferInsufficientSpaceErr: OSStatus = -12708

/// Flags for creating and appending to block buffers.
public typealias CMBlockBufferFlags = UInt32

/// Allocate memory blocks right away. Differs from Apple: blocks are always allocated at once.
public let kCMBlockBufferAssureMemoryNowFlag: CMBlockBufferFlags = 1 << 0
/// Always copy data, even when a reference would do.
public let kCMBlockBufferAlwaysCopyDataFlag: CMBlockBufferFlags = 1 << 1
/// Keep buffer references nested rather than flattened. Differs from Apple: ignored, references
/// are always flattened.
public let kCMBlockBufferDontOptimizeDepthFlag: CMBlockBufferFlags = 1 << 2
/// Allow appending a reference to an empty block buffer.
public let kCMBlockBufferPermitEmptyReferenceFlag: CMBlockBufferFlags = 1 << 3

/// The version of `CMBlockBufferCustomBlockSource` this library understands.
public let kCMBlockBufferCustomBlockSourceVersion: UInt32 = 0
