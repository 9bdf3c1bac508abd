import Foundation
import OpenCoreVideo

/// An object that carries attachments: a `CMSampleBuffer` or a `CVBuffer`.
///
/// As on Apple platforms this is any object (`CFTypeRef` there); the attachment functions act on
/// sample buffers and Core Video buffers and do nothing for other objects.
public typealias CMAttachmentBearer = AnyObject

/// Whether an attachment is copied along by `CMPropagateAttachments`.
public typealias CMAttachmentMode = UInt32

/// The attachment stays on its bearer.
public let kCMAttachmentMode_ShouldNotPropagate: CMAttachmentMode = 0
/// The attachment is copied to bearers derived from this one.
public let kCMAttachmentMode_ShouldPropagate: CMAttachmentMode = 1

/// Thread-safe key/value/mode storage for the attachment bearers of this module.
final class CMAttachmentStore: @unchecked Sendable {
    // All access goes through the lock.
    private let lock = NSLock()
    private var entries: [String: (value: AnyObject, mode: CMAttachmentMode)] = [:]

    func set(_ key: String, _ value: AnyObject, _ mode: CMAttachmentMode) {
        lock.withLock { entries[key] = (value, mode) }
    }

    func get(_ key: String) -> (value: AnyObject, mode: CMAttachmentMode)? {
        lock.withLock { entries[key] }
    }

    func remove(_ key: String) {
        _ = lock.withLock { entries.removeValue(forKey: key) }
    }

    func removeAll() {
        lock.withLock { entries.removeAll() }
    }

    func all(_ mode: CMAttachmentMode) -> [String: AnyObject] {
        lock.withLock { entries.filter { $0.value.mode == mode }.mapValues(\.value) }
    }
}

/// The store of a bearer of this module, or `nil` for a `CVBuffer` or any other object.
private func store(of target: CMAttachmentBearer) -> CMAttachmentStore? {
    (target as? CMSampleBuffer)?.attachmentStore
}

/// Sets or replaces an attachment; a key lives in one mode at a time.
public func CMSetAttachment(_ target: CMAttachmentBearer, key: CFString, value: CFTypeRef?,
                            attachmentMode: CMAttachmentMode) {
    guard let value else { return }
    if let buffer = target as? CVBuffer {
        CVBufferSetAttachment(buffer, key, value, CVAttachmentMode(rawValue: attachmentMode) ?? .shouldNotPropagate)
    } else {
        store(of: target)?.set(key, value, attachmentMode)
    }
}

/// Sets or replaces a string attachment, such as `kCMSampleBufferDroppedFrameReason_FrameWasLate`.
///
/// Linux addition: `CFString` is Swift's `String` here, not a class, so Apple code passing a
/// string constant as the value calls this overload; the value is stored as an `NSString`.
public func CMSetAttachment(_ target: CMAttachmentBearer, key: CFString, value: CFString,
                            attachmentMode: CMAttachmentMode) {
    CMSetAttachment(target, key: key, value: NSString(string: value), attachmentMode: attachmentMode)
}

/// An attachment's value, or `nil`; its mode is written to `attachmentModeOut`.
public func CMGetAttachment(_ target: CMAttachmentBearer, key: CFString,
                            attachmentModeOut: UnsafeMutablePointer<CMAttachmentMode>?) -> CFTypeRef? {
    if let buffer = target as? CVBuffer {
        var mode = CVAttachmentMode.shouldNotPropagate
        guard let value = CVBufferCopyAttachment(buffer, key, &mode) else { return nil }
        attachmentModeOut?.pointee = mode.rawValue
        return value
    }
    guard let found = store(of: target)?.get(key) else { return nil }
    attachmentModeOut?.pointee = found.mode
    return found.value
}

/// Removes an attachment, if present.
public func CMRemoveAttachment(_ target: CMAttachmentBearer, key: CFString) {
    if let buffer = target as? CVBuffer {
        CVBufferRemoveAttachment(buffer, key)
    } else {
        store(of: target)?.remove(key)
    }
}

/// Removes every attachment.
public func CMRemoveAllAttachments(_ target: CMAttachmentBearer) {
    if let buffer = target as? CVBuffer {
        CVBufferRemoveAllAttachments(buffer)
    } else {
        store(of: target)?.removeAll()
    }
}

/// A new dictionary of the attachments in one mode, or `nil` when there are none.
public func CMCopyDictionaryOfAttachments(allocator: CFAllocator?, target: CMAttachmentBearer,
                                          attachmentMode: CMAttachmentMode) -> CFDictionary? {
    if let buffer = target as? CVBuffer {
        guard let mode = CVAttachmentMode(rawValue: attachmentMode) else { return nil }
        return CVBufferCopyAttachments(buffer, mode)
    }
    guard let entries = store(of: target)?.all(attachmentMode), !entries.isEmpty else { return nil }
    return NSDictionary(objects: Array(entries.values), forKeys: entries.keys.map { NSString(string: $0) })
}

/// Sets every key and value of a dictionary as attachments in one mode.
public func CMSetAttachments(_ target: CMAttachmentBearer, attachments theAttachments: CFDictionary,
                             attachmentMode: CMAttachmentMode) {
    for (key, value) in theAttachments {
        guard let key = key as? String else { continue }
        CMSetAttachment(target, key: key, value: value as AnyObject, attachmentMode: attachmentMode)
    }
}

/// Copies every attachment of `source` in `kCMAttachmentMode_ShouldPropagate` mode to `destination`.
public func CMPropagateAttachments(_ source: CMAttachmentBearer, destination: CMAttachmentBearer) {
    guard let attachments = CMCopyDictionaryOfAttachments(
        allocator: nil, target: source, attachmentMode: kCMAttachmentMode_ShouldPropagate) else { return }
    CMSetAttachments(destination, attachments: attachments, attachmentMode: kCMAttachmentMode_ShouldPropagate)
}
