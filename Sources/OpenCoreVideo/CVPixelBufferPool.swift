import Foundation

/// A pool that recycles pixel buffers of one size and format.
///
/// When the last reference to a buffer from the pool goes away, its memory returns to the pool
/// and the next `CVPixelBufferPoolCreatePixelBuffer` reuses it, so steady-state capture and
/// decoding allocate nothing. Thread-safe. Differs from Apple: free buffers age out
/// (`kCVPixelBufferPoolMaximumBufferAgeKey`, default 1 second) only when the pool is next used
/// or flushed, not on a timer.
public final class CVPixelBufferPool: @unchecked Sendable {
    private let lock = NSLock()
    private let description: CVPixelFormatDescription
    private let layout: CVPixelBufferLayout
    private let minimumBufferCount: Int
    private let maximumBufferAge: TimeInterval
    private var free: [(storage: CVPixelBufferStorage, since: TimeInterval)] = []
    private var allocatedCount = 0

    let poolAttributes: NSDictionary
    let pixelBufferAttributes: NSDictionary
    /// The attachments of `pixelBufferAttributes`, read once for every buffer of the pool.
    private let defaultAttachments: [String: CVBuffer.Attachment]

    fileprivate init?(poolAttributes: NSDictionary?, pixelBufferAttributes: NSDictionary, status: inout CVReturn) {
        guard let format = cvAttributeInt(pixelBufferAttributes, kCVPixelBufferPixelFormatTypeKey),
              let width = cvAttributeInt(pixelBufferAttributes, kCVPixelBufferWidthKey),
              let height = cvAttributeInt(pixelBufferAttributes, kCVPixelBufferHeightKey),
              width > 0, height > 0, let type = OSType(exactly: format) else {
            status = kCVReturnInvalidPixelBufferAttributes
            return nil
        }
        guard let description = CVPixelFormatDescription.description(for: type) else {
            status = kCVReturnInvalidPixelFormat
            return nil
        }
        guard let layout = CVPixelBufferLayout(
            description: description, width: width, height: height,
            bytesPerRowAlignment: cvAttributeInt(pixelBufferAttributes, kCVPixelBufferBytesPerRowAlignmentKey),
            planeAlignment: cvAttributeInt(pixelBufferAttributes, kCVPixelBufferPlaneAlignmentKey)) else {
            status = kCVReturnInvalidSize
            return nil
        }
        let minimum = cvAttributeInt(poolAttributes, kCVPixelBufferPoolMinimumBufferCountKey) ?? 0
        let age = cvAttributeDouble(poolAttributes, kCVPixelBufferPoolMaximumBufferAgeKey) ?? 1
        guard minimum >= 0, age >= 0 else {
            status = kCVReturnInvalidPoolAttributes
            return nil
        }
        self.description = description
        self.layout = layout
        self.minimumBufferCount = minimum
        self.maximumBufferAge = age
        self.poolAttributes = poolAttributes ?? NSDictionary()
        self.pixelBufferAttributes = pixelBufferAttributes.copy() as? NSDictionary ?? pixelBufferAttributes
        defaultAttachments = CVBuffer.defaultAttachments(from: pixelBufferAttributes)
        let now = ProcessInfo.processInfo.systemUptime
        for _ in 0..<minimum {
            free.append((CVPixelBufferStorage(layout: layout), now))
        }
        allocatedCount = minimum
        status = kCVReturnSuccess
    }

    /// Hands out a buffer, recycling free memory first; nil when `threshold` forbids a new allocation.
    fileprivate func makeBuffer(threshold: Int?) -> CVPixelBuffer? {
        let storage: CVPixelBufferStorage? = lock.withLock {
            discardAgedBuffers(now: ProcessInfo.processInfo.systemUptime)
            if let recycled = free.popLast() { return recycled.storage }
            if let threshold, allocatedCount >= threshold { return nil }
            allocatedCount += 1
            return CVPixelBufferStorage(layout: layout)
        }
        guard let storage else { return nil }
        let buffer = CVPixelBuffer(storage: storage, isPlanar: description.isPlanar) { [weak self] in
            self?.recycle(storage)
        }
        buffer.applyDefaultAttachments(defaultAttachments)
        buffer.creationAttributes = pixelBufferAttributes
        return buffer
    }

    private func recycle(_ storage: CVPixelBufferStorage) {
        lock.withLock { free.append((storage, ProcessInfo.processInfo.systemUptime)) }
    }

    /// Frees buffers idle longer than the maximum age, keeping the minimum count. Lock held.
    private func discardAgedBuffers(now: TimeInterval) {
        guard maximumBufferAge > 0 else { return }
        free.removeAll { entry in
            guard allocatedCount > minimumBufferCount, now - entry.since > maximumBufferAge else { return false }
            allocatedCount -= 1
            return true
        }
    }

    fileprivate func flush(_ options: CVPixelBufferPoolFlushFlags) {
        lock.withLock {
            if options.contains(.excessBuffers) {
                allocatedCount -= free.count
                free.removeAll()
            } else {
                discardAgedBuffers(now: ProcessInfo.processInfo.systemUptime)
            }
        }
    }

    /// The number of buffers whose memory the pool owns: handed out and alive, plus free.
    ///
    /// Linux addition (package access) for tests and diagnostics.
    package var allocatedBufferCount: Int {
        lock.withLock { allocatedCount }
    }

    /// The number of free buffers waiting to be reused.
    ///
    /// Linux addition (package access) for tests and diagnostics.
    package var freeBufferCount: Int {
        lock.withLock { free.count }
    }
}

/// Pool attribute key for the number of buffers allocated up front and kept through aging (a number).
public let kCVPixelBufferPoolMinimumBufferCountKey: CFString = "MinimumBufferCount"

/// Pool attribute key for how long, in seconds, a free buffer is kept before it is released
/// (a number; default 1; 0 keeps free buffers until a flush).
///
/// Differs from Apple: aging is applied when the pool is next used or flushed, not on a timer.
public let kCVPixelBufferPoolMaximumBufferAgeKey: CFString = "MaximumBufferAge"

/// Auxiliary attribute key for `CVPixelBufferPoolCreatePixelBufferWithAuxAttributes`: do not
/// allocate a new buffer if the pool already owns this many (a number); free buffers are still
/// recycled.
public let kCVPixelBufferPoolAllocationThresholdKey: CFString = "AllocationThreshold"

/// Creates a pixel buffer pool.
///
/// `pixelBufferAttributes` must give `kCVPixelBufferPixelFormatTypeKey`, `kCVPixelBufferWidthKey`
/// and `kCVPixelBufferHeightKey` (otherwise `kCVReturnInvalidPixelBufferAttributes`); an
/// unsupported format returns `kCVReturnInvalidPixelFormat`; a negative minimum count or age
/// returns `kCVReturnInvalidPoolAttributes`.
@discardableResult
public func CVPixelBufferPoolCreate(_ allocator: CFAllocator?, _ poolAttributes: CFDictionary?,
                                    _ pixelBufferAttributes: CFDictionary?,
                                    _ poolOut: UnsafeMutablePointer<CVPixelBufferPool?>) -> CVReturn {
    poolOut.pointee = nil
    guard let pixelBufferAttributes else { return kCVReturnInvalidPixelBufferAttributes }
    var status = kCVReturnSuccess
    poolOut.pointee = CVPixelBufferPool(poolAttributes: poolAttributes, pixelBufferAttributes: pixelBufferAttributes,
                                        status: &status)
    return status
}

/// Returns the pool attributes the pool was created with.
public func CVPixelBufferPoolGetAttributes(_ pool: CVPixelBufferPool) -> CFDictionary? {
    pool.poolAttributes
}

/// Returns the attributes of the pixel buffers the pool creates.
public func CVPixelBufferPoolGetPixelBufferAttributes(_ pool: CVPixelBufferPool) -> CFDictionary? {
    pool.pixelBufferAttributes
}

/// Creates a pixel buffer from the pool, reusing released memory when there is some.
///
/// The buffer carries only the attachments named in the pool's pixel buffer attributes
/// (`kCVBufferPropagatedAttachmentsKey`, `kCVBufferNonPropagatedAttachmentsKey`).
@discardableResult
public func CVPixelBufferPoolCreatePixelBuffer(_ allocator: CFAllocator?, _ pixelBufferPool: CVPixelBufferPool,
                                              _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>) -> CVReturn {
    CVPixelBufferPoolCreatePixelBufferWithAuxAttributes(allocator, pixelBufferPool, nil, pixelBufferOut)
}

/// Creates a pixel buffer from the pool, honouring `kCVPixelBufferPoolAllocationThresholdKey` in
/// `auxAttributes`: `kCVReturnWouldExceedAllocationThreshold` when no free buffer exists and the
/// pool already owns that many.
@discardableResult
public func CVPixelBufferPoolCreatePixelBufferWithAuxAttributes(
    _ allocator: CFAllocator?, _ pixelBufferPool: CVPixelBufferPool, _ auxAttributes: CFDictionary?,
    _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>
) -> CVReturn {
    pixelBufferOut.pointee = nil
    let threshold = cvAttributeInt(auxAttributes, kCVPixelBufferPoolAllocationThresholdKey)
    guard let buffer = pixelBufferPool.makeBuffer(threshold: threshold) else {
        return kCVReturnWouldExceedAllocationThreshold
    }
    pixelBufferOut.pointee = buffer
    return kCVReturnSuccess
}

/// Frees the pool's unused buffers: those past the maximum age, or with `.excessBuffers` all of
/// them regardless of age.
public func CVPixelBufferPoolFlush(_ pool: CVPixelBufferPool, _ options: CVPixelBufferPoolFlushFlags) {
    pool.flush(options)
}
