import Foundation

/// A Core Video image buffer that holds pixels in main memory; the same class as `CVBuffer`.
public typealias CVPixelBuffer = CVImageBuffer

/// The function `CVPixelBufferCreateWithBytes` calls when the buffer is destroyed:
/// `(releaseRefCon, baseAddress)`.
public typealias CVPixelBufferReleaseBytesCallback = @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?) -> Void

/// The function `CVPixelBufferCreateWithPlanarBytes` calls when the buffer is destroyed:
/// `(releaseRefCon, dataPtr, dataSize, numberOfPlanes, planeAddresses)`.
public typealias CVPixelBufferReleasePlanarBytesCallback = @convention(c) (
    UnsafeMutableRawPointer?, UnsafeRawPointer?, Int, Int, UnsafeMutablePointer<UnsafeRawPointer?>?
) -> Void

// MARK: Creating

/// Allocates a pixel buffer of the given size and pixel format.
///
/// Memory is one allocation aligned to 64 bytes; every row's stride is a multiple of 64 bytes
/// (and of `kCVPixelBufferBytesPerRowAlignmentKey` when given). 4:2:0 chroma planes of odd-sized
/// images round up. Returns `kCVReturnInvalidArgument` for a zero or negative size and
/// `kCVReturnInvalidPixelFormat` for a format OpenCoreVideo cannot allocate.
/// Differs from Apple: the contents are not cleared.
@discardableResult
public func CVPixelBufferCreate(_ allocator: CFAllocator?, _ width: Int, _ height: Int, _ pixelFormatType: OSType,
                                _ pixelBufferAttributes: CFDictionary?,
                                _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>) -> CVReturn {
    pixelBufferOut.pointee = nil
    guard width > 0, height > 0 else { return kCVReturnInvalidArgument }
    guard let description = CVPixelFormatDescription.description(for: pixelFormatType) else {
        return kCVReturnInvalidPixelFormat
    }
    guard let layout = CVPixelBufferLayout(
        description: description, width: width, height: height,
        bytesPerRowAlignment: cvAttributeInt(pixelBufferAttributes, kCVPixelBufferBytesPerRowAlignmentKey),
        planeAlignment: cvAttributeInt(pixelBufferAttributes, kCVPixelBufferPlaneAlignmentKey)) else {
        return kCVReturnInvalidSize
    }
    let storage = CVPixelBufferStorage(layout: layout)
    let buffer = CVPixelBuffer(storage: storage, isPlanar: description.isPlanar) {
        withExtendedLifetime(storage) {}
    }
    buffer.applyDefaultAttachments(from: pixelBufferAttributes)
    buffer.creationAttributes = pixelBufferAttributes?.copy() as? NSDictionary
    pixelBufferOut.pointee = buffer
    return kCVReturnSuccess
}

extension CVBuffer {
    /// A buffer over OpenCoreVideo-allocated storage; `release` runs when the buffer goes away.
    convenience init(storage: CVPixelBufferStorage, isPlanar: Bool, release: @escaping () -> Void) {
        self.init(pixelFormatType: storage.layout.pixelFormatType, width: storage.layout.width,
                  height: storage.layout.height, planes: storage.planes, isPlanar: isPlanar,
                  dataSize: storage.layout.byteCount, release: release)
    }
}

/// Creates a pixel buffer over memory the caller owns; `releaseCallback` is called once, with
/// `releaseRefCon` and `baseAddress`, when the buffer is destroyed.
///
/// Planar formats return `kCVReturnInvalidPixelFormat` (use
/// `CVPixelBufferCreateWithPlanarBytes`); a `bytesPerRow` too small for the width returns
/// `kCVReturnInvalidArgument`. Formats outside OpenCoreVideo's table are accepted as one plane.
@discardableResult
public func CVPixelBufferCreateWithBytes(_ allocator: CFAllocator?, _ width: Int, _ height: Int,
                                         _ pixelFormatType: OSType, _ baseAddress: UnsafeMutableRawPointer,
                                         _ bytesPerRow: Int, _ releaseCallback: CVPixelBufferReleaseBytesCallback?,
                                         _ releaseRefCon: UnsafeMutableRawPointer?,
                                         _ pixelBufferAttributes: CFDictionary?,
                                         _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>) -> CVReturn {
    pixelBufferOut.pointee = nil
    guard width > 0, height > 0, bytesPerRow > 0 else { return kCVReturnInvalidArgument }
    let description = CVPixelFormatDescription.description(for: pixelFormatType)
    if let description {
        guard !description.isPlanar else { return kCVReturnInvalidPixelFormat }
        guard bytesPerRow >= description.planes[0].minimumBytesPerRow(forImageWidth: width) else {
            return kCVReturnInvalidArgument
        }
    }
    let plane = CVPixelBufferPlane(baseAddress: baseAddress, width: width, height: height, bytesPerRow: bytesPerRow)
    let refCon = UncheckedPointer(releaseRefCon)
    let address = UncheckedPointer(baseAddress)
    let buffer = CVPixelBuffer(
        pixelFormatType: pixelFormatType, width: width, height: height, planes: [plane], isPlanar: false,
        dataSize: bytesPerRow * height,
        release: releaseCallback.map { callback in { callback(refCon.pointer, UnsafeRawPointer(address.pointer)) } })
    buffer.applyDefaultAttachments(from: pixelBufferAttributes)
    buffer.creationAttributes = pixelBufferAttributes?.copy() as? NSDictionary
    pixelBufferOut.pointee = buffer
    return kCVReturnSuccess
}

/// Creates a planar pixel buffer over plane memory the caller owns; `releaseCallback` is called
/// once, with the arguments given here, when the buffer is destroyed.
///
/// `dataPtr` is passed back to the callback only (OpenCoreVideo does not read a plane descriptor
/// block from it). The plane count must match the format's (2 for `'420v'`, 3 for `'y420'`);
/// otherwise `kCVReturnInvalidArgument`. Formats outside OpenCoreVideo's table are accepted as given.
@discardableResult
public func CVPixelBufferCreateWithPlanarBytes(
    _ allocator: CFAllocator?, _ width: Int, _ height: Int, _ pixelFormatType: OSType,
    _ dataPtr: UnsafeMutableRawPointer?, _ dataSize: Int, _ numberOfPlanes: Int,
    _ planeBaseAddress: UnsafeMutablePointer<UnsafeMutableRawPointer?>,
    _ planeWidth: UnsafeMutablePointer<Int>, _ planeHeight: UnsafeMutablePointer<Int>,
    _ planeBytesPerRow: UnsafeMutablePointer<Int>,
    _ releaseCallback: CVPixelBufferReleasePlanarBytesCallback?, _ releaseRefCon: UnsafeMutableRawPointer?,
    _ pixelBufferAttributes: CFDictionary?, _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>
) -> CVReturn {
    pixelBufferOut.pointee = nil
    guard width > 0, height > 0, numberOfPlanes > 0 else { return kCVReturnInvalidArgument }
    if let description = CVPixelFormatDescription.description(for: pixelFormatType) {
        guard description.isPlanar else { return kCVReturnInvalidPixelFormat }
        guard description.planes.count == numberOfPlanes else { return kCVReturnInvalidArgument }
    }
    var planes: [CVPixelBufferPlane] = []
    for index in 0..<numberOfPlanes {
        guard let address = planeBaseAddress[index], planeWidth[index] > 0, planeHeight[index] > 0,
              planeBytesPerRow[index] > 0 else { return kCVReturnInvalidArgument }
        planes.append(CVPixelBufferPlane(baseAddress: address, width: planeWidth[index], height: planeHeight[index],
                                         bytesPerRow: planeBytesPerRow[index]))
    }
    let refCon = UncheckedPointer(releaseRefCon)
    let data = UncheckedPointer(dataPtr)
    let addresses = planes.map { UncheckedPointer(UnsafeMutableRawPointer($0.baseAddress)) }
    let release: (() -> Void)? = releaseCallback.map { callback in
        {
            var list: [UnsafeRawPointer?] = addresses.map { $0.pointer.map(UnsafeRawPointer.init) }
            list.withUnsafeMutableBufferPointer { pointers in
                callback(refCon.pointer, data.pointer.map(UnsafeRawPointer.init), dataSize, numberOfPlanes,
                         pointers.baseAddress)
            }
        }
    }
    let size = dataSize > 0 ? dataSize : planes.reduce(0) { $0 + $1.bytesPerRow * $1.height }
    let buffer = CVPixelBuffer(pixelFormatType: pixelFormatType, width: width, height: height, planes: planes,
                               isPlanar: true, dataSize: size, release: release)
    buffer.applyDefaultAttachments(from: pixelBufferAttributes)
    buffer.creationAttributes = pixelBufferAttributes?.copy() as? NSDictionary
    pixelBufferOut.pointee = buffer
    return kCVReturnSuccess
}

/// A raw pointer carried into a release closure.
struct UncheckedPointer: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer?
    init(_ pointer: UnsafeMutableRawPointer?) { self.pointer = pointer }
}

// MARK: Locking

/// Locks the base address so the CPU may access the pixels; balance with
/// `CVPixelBufferUnlockBaseAddress(_:_:)` and the same flags.
///
/// Differs from Apple: pixels are always in main memory, so the lock is only counted; the
/// accessors work without it.
@discardableResult
public func CVPixelBufferLockBaseAddress(_ pixelBuffer: CVPixelBuffer, _ lockFlags: CVPixelBufferLockFlags) -> CVReturn {
    pixelBuffer.lockBaseAddress()
    return kCVReturnSuccess
}

/// Unlocks a base address locked with `CVPixelBufferLockBaseAddress(_:_:)`.
///
/// Returns `kCVReturnError` when the buffer is not locked.
@discardableResult
public func CVPixelBufferUnlockBaseAddress(_ pixelBuffer: CVPixelBuffer, _ unlockFlags: CVPixelBufferLockFlags) -> CVReturn {
    pixelBuffer.unlockBaseAddress() ? kCVReturnSuccess : kCVReturnError
}

// MARK: Inspecting

/// Returns the width of the buffer in pixels.
public func CVPixelBufferGetWidth(_ pixelBuffer: CVPixelBuffer) -> Int {
    pixelBuffer.width
}

/// Returns the height of the buffer in pixels.
public func CVPixelBufferGetHeight(_ pixelBuffer: CVPixelBuffer) -> Int {
    pixelBuffer.height
}

/// Returns the pixel format's four-character code.
public func CVPixelBufferGetPixelFormatType(_ pixelBuffer: CVPixelBuffer) -> OSType {
    pixelBuffer.pixelFormatType
}

/// Returns the address of the first pixel.
///
/// Differs from Apple: for planar buffers Apple returns a plane descriptor block; here it is the
/// first plane's address. Use `CVPixelBufferGetBaseAddressOfPlane(_:_:)` for planar buffers.
public func CVPixelBufferGetBaseAddress(_ pixelBuffer: CVPixelBuffer) -> UnsafeMutableRawPointer? {
    pixelBuffer.planes[0].baseAddress
}

/// Returns the row stride in bytes.
///
/// Differs from Apple: for planar buffers it is the first plane's stride.
public func CVPixelBufferGetBytesPerRow(_ pixelBuffer: CVPixelBuffer) -> Int {
    pixelBuffer.planes[0].bytesPerRow
}

/// Returns the size in bytes of the buffer's memory (all planes, including row padding).
///
/// Differs from Apple: no plane descriptor block is counted.
public func CVPixelBufferGetDataSize(_ pixelBuffer: CVPixelBuffer) -> Int {
    pixelBuffer.dataSize
}

/// Returns whether the buffer is planar.
public func CVPixelBufferIsPlanar(_ pixelBuffer: CVPixelBuffer) -> Bool {
    pixelBuffer.isPlanar
}

/// Returns the number of planes; 0 for non-planar buffers, as Apple.
public func CVPixelBufferGetPlaneCount(_ pixelBuffer: CVPixelBuffer) -> Int {
    pixelBuffer.isPlanar ? pixelBuffer.planes.count : 0
}

private func cvPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> CVPixelBufferPlane? {
    guard pixelBuffer.isPlanar, planeIndex >= 0, planeIndex < pixelBuffer.planes.count else { return nil }
    return pixelBuffer.planes[planeIndex]
}

/// Returns the width of a plane in plane samples; 0 for non-planar buffers or a bad index.
public func CVPixelBufferGetWidthOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    cvPlane(pixelBuffer, planeIndex)?.width ?? 0
}

/// Returns the height of a plane in rows; 0 for non-planar buffers or a bad index.
public func CVPixelBufferGetHeightOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    cvPlane(pixelBuffer, planeIndex)?.height ?? 0
}

/// Returns the row stride of a plane in bytes; 0 for non-planar buffers or a bad index.
public func CVPixelBufferGetBytesPerRowOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    cvPlane(pixelBuffer, planeIndex)?.bytesPerRow ?? 0
}

/// Returns the address of a plane's first sample; nil for non-planar buffers or a bad index.
public func CVPixelBufferGetBaseAddressOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> UnsafeMutableRawPointer? {
    cvPlane(pixelBuffer, planeIndex)?.baseAddress
}

/// Writes the buffer's extended (padding) pixels on each side; always 0 here.
///
/// Differs from Apple: OpenCoreVideo never allocates extended pixels.
public func CVPixelBufferGetExtendedPixels(_ pixelBuffer: CVPixelBuffer,
                                           _ extraColumnsOnLeft: UnsafeMutablePointer<Int>?,
                                           _ extraColumnsOnRight: UnsafeMutablePointer<Int>?,
                                           _ extraRowsOnTop: UnsafeMutablePointer<Int>?,
                                           _ extraRowsOnBottom: UnsafeMutablePointer<Int>?) {
    extraColumnsOnLeft?.pointee = 0
    extraColumnsOnRight?.pointee = 0
    extraRowsOnTop?.pointee = 0
    extraRowsOnBottom?.pointee = 0
}

/// Fills the extended pixels by replicating edge pixels; a successful no-op here, since
/// OpenCoreVideo buffers have no extended pixels.
@discardableResult
public func CVPixelBufferFillExtendedPixels(_ pixelBuffer: CVPixelBuffer) -> CVReturn {
    kCVReturnSuccess
}

// MARK: Attributes

/// Returns the pixel buffer attributes the buffer was created with, completed with its width,
/// height and pixel format, so that the dictionary can create similar buffers.
///
/// Buffers made by OpenAVFoundation itself (decoded frames) report their width, height and pixel
/// format only.
public func CVPixelBufferCopyCreationAttributes(_ pixelBuffer: CVPixelBuffer) -> CFDictionary {
    let attributes = NSMutableDictionary()
    if let given = pixelBuffer.creationAttributes {
        for (key, value) in cvEntries(given) { attributes[key] = value }
    }
    attributes[kCVPixelBufferWidthKey] = NSNumber(value: pixelBuffer.width)
    attributes[kCVPixelBufferHeightKey] = NSNumber(value: pixelBuffer.height)
    attributes[kCVPixelBufferPixelFormatTypeKey] = NSNumber(value: pixelBuffer.pixelFormatType)
    return attributes
}

/// Returns whether the buffer satisfies a pixel buffer attributes dictionary: its width, height
/// and pixel format (one number, or an array of acceptable ones), row and plane alignment, and no
/// extended pixels requested. Other keys are not checked; nil attributes are always satisfied.
public func CVPixelBufferIsCompatibleWithAttributes(_ pixelBuffer: CVPixelBuffer, _ attributes: CFDictionary?) -> Bool {
    guard let attributes else { return true }
    if let width = cvAttributeInt(attributes, kCVPixelBufferWidthKey), width != pixelBuffer.width { return false }
    if let height = cvAttributeInt(attributes, kCVPixelBufferHeightKey), height != pixelBuffer.height { return false }
    let formats = cvAttributeInts(attributes, kCVPixelBufferPixelFormatTypeKey)
    if !formats.isEmpty, !formats.contains(Int(pixelBuffer.pixelFormatType)) { return false }
    if let alignment = cvAttributeInt(attributes, kCVPixelBufferBytesPerRowAlignmentKey), alignment > 1,
       pixelBuffer.planes.contains(where: { $0.bytesPerRow % alignment != 0 }) { return false }
    if let alignment = cvAttributeInt(attributes, kCVPixelBufferPlaneAlignmentKey), alignment > 1,
       pixelBuffer.planes.contains(where: { Int(bitPattern: $0.baseAddress) % alignment != 0 }) { return false }
    let extended = [kCVPixelBufferExtendedPixelsLeftKey, kCVPixelBufferExtendedPixelsTopKey,
                    kCVPixelBufferExtendedPixelsRightKey, kCVPixelBufferExtendedPixelsBottomKey]
    return !extended.contains { (cvAttributeInt(attributes, $0) ?? 0) > 0 }
}
