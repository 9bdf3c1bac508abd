import Foundation

/// A Core Video buffer: pixel storage plus a dictionary of attachments.
///
/// Differs from Apple: `CVImageBuffer` and `CVPixelBuffer` are typealiases of this one class (as
/// they are of `CVBufferRef` in C), so every buffer has pixel storage; there are no OpenGL, Metal
/// or IOSurface-backed buffers. The storage is either allocated by OpenCoreVideo (64-byte aligned
/// rows) or wraps memory owned elsewhere, released through a closure when the buffer goes away.
/// Instances may be used from any thread; attachments and the lock count are guarded by a lock.
public final class CVBuffer: @unchecked Sendable {
    struct Attachment {
        var value: AnyObject
        var mode: CVAttachmentMode
    }

    private let lock = NSLock()
    private var attachments: [String: Attachment] = [:]
    private var baseAddressLockCount = 0
    private var storedCreationAttributes: NSDictionary?
    private let release: (() -> Void)?

    /// The pixel format's four-character code.
    package let pixelFormatType: OSType
    /// Width in pixels.
    package let width: Int
    /// Height in pixels.
    package let height: Int
    /// The storage planes (one for packed formats).
    package let planes: [CVPixelBufferPlane]
    /// Whether the buffer reports itself as planar.
    package let isPlanar: Bool
    /// The value reported by `CVPixelBufferGetDataSize`.
    package let dataSize: Int

    /// Wraps pixel memory owned by someone else, without copying it.
    ///
    /// `release` is called exactly once, from `deinit`, on whatever thread drops the last reference;
    /// it must free (or hand back) the memory the planes point to.
    package init(pixelFormatType: OSType, width: Int, height: Int, planes: [CVPixelBufferPlane],
                 isPlanar: Bool, dataSize: Int, release: (() -> Void)?) {
        precondition(!planes.isEmpty, "a pixel buffer has at least one plane")
        self.pixelFormatType = pixelFormatType
        self.width = width
        self.height = height
        self.planes = planes
        self.isPlanar = isPlanar
        self.dataSize = dataSize
        self.release = release
    }

    /// Wraps pixel memory owned by someone else, deriving planarity from the format table and the
    /// data size from the planes' extents.
    package convenience init(pixelFormatType: OSType, width: Int, height: Int, planes: [CVPixelBufferPlane],
                             release: (() -> Void)?) {
        let planar = CVPixelFormatDescription.description(for: pixelFormatType)?.isPlanar ?? (planes.count > 1)
        let size = planes.reduce(0) { $0 + $1.bytesPerRow * $1.height }
        self.init(pixelFormatType: pixelFormatType, width: width, height: height, planes: planes,
                  isPlanar: planar, dataSize: size, release: release)
    }

    deinit {
        release?()
    }

    // MARK: Attachments

    func setAttachment(_ key: String, _ value: AnyObject, _ mode: CVAttachmentMode) {
        lock.withLock { attachments[key] = Attachment(value: value, mode: mode) }
    }

    func attachment(_ key: String) -> (value: AnyObject, mode: CVAttachmentMode)? {
        lock.withLock { attachments[key].map { ($0.value, $0.mode) } }
    }

    func removeAttachment(_ key: String) {
        _ = lock.withLock { attachments.removeValue(forKey: key) }
    }

    func removeAllAttachments() {
        lock.withLock { attachments.removeAll() }
    }

    func attachments(_ mode: CVAttachmentMode) -> [String: AnyObject] {
        lock.withLock { attachments.filter { $0.value.mode == mode }.mapValues(\.value) }
    }

    /// Applies `kCVBufferPropagatedAttachmentsKey` and `kCVBufferNonPropagatedAttachmentsKey` from a
    /// pixel buffer attributes dictionary.
    func applyDefaultAttachments(from attributes: NSDictionary?) {
        applyDefaultAttachments(Self.defaultAttachments(from: attributes))
    }

    /// Applies attachments read by `defaultAttachments(from:)`. A buffer with no attachments yet
    /// shares the dictionary (no copy until one changes).
    func applyDefaultAttachments(_ defaults: [String: Attachment]) {
        guard !defaults.isEmpty else { return }
        lock.withLock {
            if attachments.isEmpty {
                attachments = defaults
            } else {
                attachments.merge(defaults) { $1 }
            }
        }
    }

    /// The attachments a pixel buffer attributes dictionary gives every buffer made with it
    /// (`kCVBufferPropagatedAttachmentsKey`, then `kCVBufferNonPropagatedAttachmentsKey`), read
    /// once so that a pool does not read its attributes dictionary again for every buffer.
    static func defaultAttachments(from attributes: NSDictionary?) -> [String: Attachment] {
        var defaults: [String: Attachment] = [:]
        if let propagated = cvAttributeDictionary(attributes, kCVBufferPropagatedAttachmentsKey) {
            for (key, value) in cvEntries(propagated) { defaults[key] = Attachment(value: value, mode: .shouldPropagate) }
        }
        if let local = cvAttributeDictionary(attributes, kCVBufferNonPropagatedAttachmentsKey) {
            for (key, value) in cvEntries(local) { defaults[key] = Attachment(value: value, mode: .shouldNotPropagate) }
        }
        return defaults
    }

    /// The pixel buffer attributes the buffer was created with (nil when made inside the
    /// package), for `CVPixelBufferCopyCreationAttributes(_:)`.
    var creationAttributes: NSDictionary? {
        get { lock.withLock { storedCreationAttributes } }
        set { lock.withLock { storedCreationAttributes = newValue } }
    }

    // MARK: Base address lock

    func lockBaseAddress() {
        lock.withLock { baseAddressLockCount += 1 }
    }

    func unlockBaseAddress() -> Bool {
        lock.withLock {
            guard baseAddressLockCount > 0 else { return false }
            baseAddressLockCount -= 1
            return true
        }
    }
}

/// Attribute key whose dictionary value is attached, in `.shouldPropagate` mode, to every buffer
/// created with those attributes (by `CVPixelBufferCreate` or a pool).
public let kCVBufferPropagatedAttachmentsKey: CFString = "PropagatedAttachments"

/// Attribute key whose dictionary value is attached, in `.shouldNotPropagate` mode, to every
/// buffer created with those attributes.
public let kCVBufferNonPropagatedAttachmentsKey: CFString = "NonPropagatedAttachments"

/// Attachment key for a buffer's movie time: a dictionary with `kCVBufferTimeValueKey` and
/// `kCVBufferTimeScaleKey`. Generally only present on frames emitted by QuickTime; OpenCoreVideo
/// never sets it.
public let kCVBufferMovieTimeKey: CFString = "QTMovieTime"

/// The time value in a `kCVBufferMovieTimeKey` dictionary (a number).
public let kCVBufferTimeValueKey: CFString = "TimeValue"

/// The time scale in a `kCVBufferMovieTimeKey` dictionary (a number).
public let kCVBufferTimeScaleKey: CFString = "TimeScale"

/// Sets or replaces the attachment `key` of `buffer`; a key lives in one mode at a time.
public func CVBufferSetAttachment(_ buffer: CVBuffer, _ key: CFString, _ value: CFTypeRef,
                                  _ attachmentMode: CVAttachmentMode) {
    buffer.setAttachment(key, value, attachmentMode)
}

/// Sets or replaces a string attachment, such as `kCVImageBufferColorPrimaries_ITU_R_709_2`.
///
/// Linux addition: `CFString` is Swift's `String` here, which is not a class, so Apple code passing
/// a string constant as the value calls this overload; the value is stored as an `NSString`.
public func CVBufferSetAttachment(_ buffer: CVBuffer, _ key: CFString, _ value: CFString,
                                  _ attachmentMode: CVAttachmentMode) {
    buffer.setAttachment(key, NSString(string: value), attachmentMode)
}

/// Returns the attachment `key` of `buffer`, or nil, and writes its mode to `attachmentMode`.
public func CVBufferCopyAttachment(_ buffer: CVBuffer, _ key: CFString,
                                   _ attachmentMode: UnsafeMutablePointer<CVAttachmentMode>?) -> CFTypeRef? {
    guard let found = buffer.attachment(key) else { return nil }
    attachmentMode?.pointee = found.mode
    return found.value
}

/// Returns the attachment `key` of `buffer` unretained; the older spelling of
/// `CVBufferCopyAttachment(_:_:_:)`, with the same behaviour.
///
/// The value stays valid while it remains attached to the buffer.
@available(*, deprecated, renamed: "CVBufferCopyAttachment")
public func CVBufferGetAttachment(_ buffer: CVBuffer, _ key: CFString,
                                  _ attachmentMode: UnsafeMutablePointer<CVAttachmentMode>?) -> Unmanaged<CFTypeRef>? {
    guard let found = buffer.attachment(key) else { return nil }
    attachmentMode?.pointee = found.mode
    return Unmanaged.passUnretained(found.value)
}

/// Returns whether `buffer` has an attachment named `key`, in either mode.
public func CVBufferHasAttachment(_ buffer: CVBuffer, _ key: CFString) -> Bool {
    buffer.attachment(key) != nil
}

/// Removes the attachment `key` from `buffer`, if present.
public func CVBufferRemoveAttachment(_ buffer: CVBuffer, _ key: CFString) {
    buffer.removeAttachment(key)
}

/// Removes every attachment from `buffer`.
public func CVBufferRemoveAllAttachments(_ buffer: CVBuffer) {
    buffer.removeAllAttachments()
}

/// Returns a new dictionary of the attachments of `buffer` in `attachmentMode`, or nil if there
/// are none.
public func CVBufferCopyAttachments(_ buffer: CVBuffer, _ attachmentMode: CVAttachmentMode) -> CFDictionary? {
    let entries = buffer.attachments(attachmentMode)
    return entries.isEmpty ? nil : cvDictionary(entries)
}

/// Returns a dictionary of the attachments of `buffer` in `attachmentMode`; empty if there are
/// none. The older spelling of `CVBufferCopyAttachments(_:_:)`.
@available(*, deprecated, renamed: "CVBufferCopyAttachments")
public func CVBufferGetAttachments(_ buffer: CVBuffer, _ attachmentMode: CVAttachmentMode) -> CFDictionary? {
    cvDictionary(buffer.attachments(attachmentMode))
}

/// Sets every key-value pair of `theAttachments` on `buffer` in `attachmentMode`.
///
/// Keys that are not strings are ignored.
public func CVBufferSetAttachments(_ buffer: CVBuffer, _ theAttachments: CFDictionary,
                                   _ attachmentMode: CVAttachmentMode) {
    for (key, value) in cvEntries(theAttachments) {
        buffer.setAttachment(key, value, attachmentMode)
    }
}

/// Copies every `.shouldPropagate` attachment of `sourceBuffer` to `destinationBuffer`.
public func CVBufferPropagateAttachments(_ sourceBuffer: CVBuffer, _ destinationBuffer: CVBuffer) {
    for (key, value) in sourceBuffer.attachments(.shouldPropagate) {
        destinationBuffer.setAttachment(key, value, .shouldPropagate)
    }
}
