import Foundation

// The CoreFoundation calls that Apple-platform media code makes on attachment arrays and
// dictionaries (`CMSampleBufferGetSampleAttachmentsArray` → `CFArrayGetValueAtIndex` →
// `CFDictionarySetValue`), over the Foundation objects the CF aliases stand for. Values and keys
// travel as unretained object pointers, as in CoreFoundation: a key or value pointer comes from
// `Unmanaged.passUnretained(…).toOpaque()` (a `CFString` constant too, see
// `Unmanaged.passUnretained(_:)` for strings), and a pointer handed out stays valid while its
// array or dictionary holds the object.

/// An index or a count in CoreFoundation's functions.
public typealias CFIndex = Int

/// A boolean value object; on Linux, Foundation's `NSNumber`.
public typealias CFBoolean = NSNumber

/// The true boolean object (`kCFBooleanTrue`), one for the process.
public let kCFBooleanTrue: CFBoolean! = NSNumber(value: true)

/// The false boolean object (`kCFBooleanFalse`), one for the process.
public let kCFBooleanFalse: CFBoolean! = NSNumber(value: false)

/// The object a CoreFoundation pointer stands for (a `String` key as the `NSString` it bridges
/// to, for dictionary keys).
private func object(at pointer: UnsafeRawPointer) -> AnyObject {
    Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue()
}

/// A dictionary key for a key pointer: strings as Swift strings (how the dictionaries of
/// attachments and attributes store their keys), other objects as they are.
private func key(at pointer: UnsafeRawPointer) -> AnyHashable {
    let key = object(at: pointer)
    if let string = key as? NSString { return String(describing: string) }
    if let object = key as? NSObject { return AnyHashable(object) }
    return AnyHashable(ObjectIdentifier(key))
}

/// How many values `theArray` holds.
public func CFArrayGetCount(_ theArray: CFArray!) -> CFIndex {
    theArray.count
}

/// The value at `idx`, unretained: valid while the array holds it (cast it with
/// `unsafeBitCast(_:to:)`, as on Apple platforms).
public func CFArrayGetValueAtIndex(_ theArray: CFArray!, _ idx: CFIndex) -> UnsafeRawPointer! {
    UnsafeRawPointer(Unmanaged.passUnretained(theArray.object(at: idx) as AnyObject).toOpaque())
}

/// Sets the value for a key (both object pointers), replacing what was there.
public func CFDictionarySetValue(_ theDict: CFMutableDictionary!, _ key: UnsafeRawPointer!, _ value: UnsafeRawPointer!) {
    theDict[OpenCoreVideo.key(at: key)] = object(at: value)
}

/// The value for a key pointer, unretained (valid while the dictionary holds it); nil when
/// absent.
public func CFDictionaryGetValue(_ theDict: CFDictionary!, _ key: UnsafeRawPointer!) -> UnsafeRawPointer! {
    guard let value = theDict[OpenCoreVideo.key(at: key)] else { return nil }
    return UnsafeRawPointer(Unmanaged.passUnretained(value as AnyObject).toOpaque())
}

/// Whether the dictionary has a value for a key pointer.
public func CFDictionaryContainsKey(_ theDict: CFDictionary!, _ key: UnsafeRawPointer!) -> Bool {
    theDict[OpenCoreVideo.key(at: key)] != nil
}

/// Removes the value for a key pointer, if there is one.
public func CFDictionaryRemoveValue(_ theDict: CFMutableDictionary!, _ key: UnsafeRawPointer!) {
    theDict.removeObject(forKey: OpenCoreVideo.key(at: key))
}

/// The value of a boolean object.
public func CFBooleanGetValue(_ boolean: CFBoolean!) -> Bool {
    boolean.boolValue
}

/// A new empty mutable data object (`capacity` is a hint; 0 for no limit).
public func CFDataCreateMutable(_ allocator: CFAllocator!, _ capacity: CFIndex) -> CFMutableData! {
    NSMutableData(capacity: max(0, capacity))
}

/// How many key-value pairs `theDict` holds.
public func CFDictionaryGetCount(_ theDict: CFDictionary!) -> CFIndex {
    theDict.count
}

/// How many bytes `theData` holds.
public func CFDataGetLength(_ theData: CFData!) -> CFIndex {
    theData.length
}

/// The first byte of `theData`, valid while the data object lives and is not changed.
public func CFDataGetBytePtr(_ theData: CFData!) -> UnsafePointer<UInt8>! {
    theData.bytes.assumingMemoryBound(to: UInt8.self)
}
