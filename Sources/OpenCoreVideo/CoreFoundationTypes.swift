import Foundation

// Swift on Linux has no CoreFoundation types in Foundation's public interface. Apple's media
// frameworks use a handful of them in their signatures (`CFString` keys, `CFDictionary`
// attributes, `CFAllocator` arguments, `OSStatus` results), so code written for Apple platforms
// names them freely. These aliases and the one small class give that code the same spelling
// here, bridged to the Foundation types Linux does have.

/// A string used as a key or a constant value; on Linux, Swift's `String`.
///
/// Differs from Apple: not a distinct reference type, so `key as String` and
/// `"literal" as CFString` are both no-op casts.
public typealias CFString = String

/// Any reference-type value stored in an attachment or attribute dictionary.
public typealias CFTypeRef = AnyObject

/// A dictionary of attributes or attachments; on Linux, Foundation's `NSDictionary`.
///
/// A Swift `[String: Any]` converts with `as CFDictionary` and back with `as? [String: Any]`,
/// as on Apple platforms.
public typealias CFDictionary = NSDictionary

/// A mutable dictionary of attributes or attachments; on Linux, `NSMutableDictionary`.
public typealias CFMutableDictionary = NSMutableDictionary

/// An array of values; on Linux, Foundation's `NSArray`.
public typealias CFArray = NSArray

/// A block of bytes; on Linux, Foundation's `NSData`.
public typealias CFData = NSData

/// A signed 32-bit status code returned by the C-style functions; `0` (`noErr`) is success.
public typealias OSStatus = Int32

/// A four-character code packed big-endian into 32 bits, such as `'avc1'`.
public typealias FourCharCode = UInt32

/// A four-character code naming a type, such as a pixel format.
public typealias OSType = FourCharCode

/// The status code for success.
public let noErr: OSStatus = 0

/// A memory allocator argument, accepted for source compatibility with Apple's C-style functions.
///
/// Differs from Apple: the only allocators are the default (`kCFAllocatorDefault` or `nil`, the
/// system allocator) and a `CMMemoryPool`'s, which block buffers allocate their memory from when
/// it is their block allocator; elsewhere allocation uses the system allocator.
public final class CFAllocator: Sendable {
    /// Gives a block of at least the byte count, aligned for any value.
    package let allocateBlock: @Sendable (Int) -> UnsafeMutableRawPointer
    /// Takes back a block `allocateBlock` gave, with the byte count it was asked for.
    package let deallocateBlock: @Sendable (UnsafeMutableRawPointer, Int) -> Void

    /// An allocator that allocates and deallocates with these functions.
    package init(allocate: @escaping @Sendable (Int) -> UnsafeMutableRawPointer,
                 deallocate: @escaping @Sendable (UnsafeMutableRawPointer, Int) -> Void) {
        allocateBlock = allocate
        deallocateBlock = deallocate
    }
}

/// The default allocator; `nil`, as on Apple platforms.
public let kCFAllocatorDefault: CFAllocator! = nil

extension FourCharCode {
    /// Packs a four-character ASCII string such as `"avc1"` into a code, big-endian.
    ///
    /// Linux addition (Apple code writes these as C character literals).
    package init(fourCC string: StaticString) {
        precondition(string.utf8CodeUnitCount == 4, "a four-character code has exactly four ASCII characters")
        let bytes = UnsafeBufferPointer(start: string.utf8Start, count: 4)
        self = bytes.reduce(0) { ($0 << 8) | UInt32($1) }
    }

    /// The four characters of a code, for descriptions and logs (`"avc1"`); non-printable
    /// codes are shown as a decimal number.
    package var fourCCString: String {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: self >> $0) }
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7f }) else { return String(self) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Where a method that reports failure through an out-parameter stores the `NSError`
/// (`var error: NSError?` … `error: &error`).
///
/// Differs from Apple: Linux has no `AutoreleasingUnsafeMutablePointer`, so this is a plain
/// optional mutable pointer; call sites written for Apple platforms compile unchanged.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

/// A URL; on Linux, Foundation's `NSURL` (`url as CFURL` compiles as on Apple platforms).
public typealias CFURL = NSURL

/// A mutable block of bytes; on Linux, Foundation's `NSMutableData`.
public typealias CFMutableData = NSMutableData

/// Identifies a display (Core Graphics' `CGDirectDisplayID`). Differs from Apple: on X11, the
/// value is a screen number of the current display; see `CGMainDisplayID()`.
public typealias CGDirectDisplayID = UInt32

/// The main display: on X11, 0, which `AVCaptureScreenInput` takes for the default screen of
/// the current display (`$DISPLAY`).
public func CGMainDisplayID() -> CGDirectDisplayID { 0 }

/// The result of comparing two values, as Core Foundation's comparators return it.
public enum CFComparisonResult: CFIndex, Sendable {
    /// The first value is less than the second.
    case compareLessThan = -1
    /// The values are equal.
    case compareEqualTo = 0
    /// The first value is greater than the second.
    case compareGreaterThan = 1
}
