import Foundation
import OpenCoreVideo

/// Callbacks that allocate and free a block buffer's memory block, for memory managed by the caller.
///
/// A `nil` `FreeBlock` means the block buffer never frees the memory.
public struct CMBlockBufferCustomBlockSource {
    /// The structure version: `kCMBlockBufferCustomBlockSourceVersion`.
    public var version: UInt32
    /// Allocates a block of the given size; called with `refCon`.
    public var AllocateBlock: (@convention(c) (UnsafeMutableRawPointer?, Int) -> UnsafeMutableRawPointer?)?
    /// Frees a block: called once with `refCon`, the block and its size when the last buffer using it goes away.
    public var FreeBlock: (@convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer, Int) -> Void)?
    /// A value passed to both callbacks.
    public var refCon: UnsafeMutableRawPointer?

    /// Creates a block source with no callbacks.
    public init() {
        self.init(version: kCMBlockBufferCustomBlockSourceVersion, AllocateBlock: nil, FreeBlock: nil, refCon: nil)
    }

    /// Creates a block source from every field, as Apple's memberwise initializer.
    public init(version: UInt32,
                AllocateBlock: (@convention(c) (UnsafeMutableRawPointer?, Int) -> UnsafeMutableRawPointer?)?,
                FreeBlock: (@convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer, Int) -> Void)?,
                refCon: UnsafeMutableRawPointer?) {
        self.version = version
        self.AllocateBlock = AllocateBlock
        self.FreeBlock = FreeBlock
        self.refCon = refCon
    }
}
