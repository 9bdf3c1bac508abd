import Foundation
import OpenCoreVideo

/// An immutable array of a sample buffer's own mutable attachment dictionaries.
///
/// Foundation on Linux bridges the elements of a plain `NSArray` to Swift dictionary copies;
/// this subclass hands out the dictionaries themselves, so that `object(at:)`, subscripting and
/// `as? [NSMutableDictionary]` all reach the sample buffer's storage, as on Apple platforms.
final class CMSampleAttachmentsCFArray: NSArray {
    private var items: [NSMutableDictionary] = []

    convenience init(items: [NSMutableDictionary]) {
        self.init()
        self.items = items
    }

    override init() { super.init() }

    required init(objects: UnsafePointer<AnyObject>?, count cnt: Int) {
        items = (0..<cnt).compactMap { objects?[$0] as? NSMutableDictionary }
        super.init(objects: objects, count: cnt)
    }

    required init?(coder: NSCoder) { nil }

    required convenience init(arrayLiteral elements: Any...) {
        self.init(items: elements.compactMap { $0 as? NSMutableDictionary })
    }

    override var count: Int { items.count }

    override func object(at index: Int) -> Any { items[index] }
}

private func validEntryCount(_ count: CMItemCount, samples: CMItemCount) -> Bool {
    count == 0 || count == 1 || count == samples
}

/// Creates a sample buffer; when `dataReady` is false, `makeDataReadyCallback` is run by
/// `CMSampleBufferMakeDataReady` to load the data.
///
/// Timing and size arrays have 0 entries, 1 entry shared by every sample, or one per sample.
@discardableResult
public func CMSampleBufferCreate(
    allocator: CFAllocator?, dataBuffer: CMBlockBuffer?, dataReady: Bool,
    makeDataReadyCallback: CMSampleBufferMakeDataReadyCallback?, refcon makeDataReadyRefcon: UnsafeMutableRawPointer?,
    formatDescription: CMFormatDescription?, sampleCount numSamples: CMItemCount,
    sampleTimingEntryCount numSampleTimingEntries: CMItemCount, sampleTimingArray: UnsafePointer<CMSampleTimingInfo>?,
    sampleSizeEntryCount numSampleSizeEntries: CMItemCount, sampleSizeArray: UnsafePointer<Int>?,
    sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus {
    sampleBufferOut.pointee = nil
    guard numSamples >= 0, numSampleTimingEntries >= 0, numSampleSizeEntries >= 0 else {
        return kCMSampleBufferError_InvalidEntryCount
    }
    guard validEntryCount(numSampleTimingEntries, samples: numSamples),
          validEntryCount(numSampleSizeEntries, samples: numSamples) else {
        return kCMSampleBufferError_InvalidEntryCount
    }
    guard numSampleTimingEntries == 0 || sampleTimingArray != nil,
          numSampleSizeEntries == 0 || sampleSizeArray != nil else {
        return kCMSampleBufferError_RequiredParameterMissing
    }
    // A ready buffer with samples needs their data (marker buffers have no samples).
    guard numSamples == 0 || dataBuffer != nil || !dataReady else {
        return kCMSampleBufferError_RequiredParameterMissing
    }
    let timing = sampleTimingArray.map { Array(UnsafeBufferPointer(start: $0, count: numSampleTimingEntries)) } ?? []
    let sizes = sampleSizeArray.map { Array(UnsafeBufferPointer(start: $0, count: numSampleSizeEntries)) } ?? []
    guard sizes.allSatisfy({ $0 >= 0 }) else { return kCMSampleBufferError_InvalidSampleData }
    sampleBufferOut.pointee = CMSampleBuffer(
        dataBuffer: dataBuffer, imageBuffer: nil, dataReady: dataReady, makeDataReadyCallback: makeDataReadyCallback,
        refcon: makeDataReadyRefcon, formatDescription: formatDescription, numSamples: numSamples,
        timing: timing, sizes: sizes)
    return noErr
}

/// Creates a sample buffer whose data is ready.
@discardableResult
public func CMSampleBufferCreateReady(
    allocator: CFAllocator?, dataBuffer: CMBlockBuffer?, formatDescription: CMFormatDescription?,
    sampleCount numSamples: CMItemCount, sampleTimingEntryCount numSampleTimingEntries: CMItemCount,
    sampleTimingArray: UnsafePointer<CMSampleTimingInfo>?, sampleSizeEntryCount numSampleSizeEntries: CMItemCount,
    sampleSizeArray: UnsafePointer<Int>?, sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus {
    CMSampleBufferCreate(
        allocator: allocator, dataBuffer: dataBuffer, dataReady: true, makeDataReadyCallback: nil, refcon: nil,
        formatDescription: formatDescription, sampleCount: numSamples, sampleTimingEntryCount: numSampleTimingEntries,
        sampleTimingArray: sampleTimingArray, sampleSizeEntryCount: numSampleSizeEntries,
        sampleSizeArray: sampleSizeArray, sampleBufferOut: sampleBufferOut)
}

/// Whether a video format description describes an image buffer: same pixel format and dimensions.
public func CMVideoFormatDescriptionMatchesImageBuffer(
    _ videoDesc: CMVideoFormatDescription, imageBuffer: CVImageBuffer
) -> Bool {
    videoDesc.storedMediaType == kCMMediaType_Video
        && videoDesc.storedMediaSubType == CVPixelBufferGetPixelFormatType(imageBuffer)
        && Int(videoDesc.dimensions.width) == CVPixelBufferGetWidth(imageBuffer)
        && Int(videoDesc.dimensions.height) == CVPixelBufferGetHeight(imageBuffer)
}

/// Creates a one-sample buffer holding a video frame in an image buffer.
///
/// Returns `kCMSampleBufferError_InvalidMediaFormat` if the format description does not
/// describe the image buffer (see `CMVideoFormatDescriptionMatchesImageBuffer`).
@discardableResult
public func CMSampleBufferCreateForImageBuffer(
    allocator: CFAllocator?, imageBuffer: CVImageBuffer, dataReady: Bool,
    makeDataReadyCallback: CMSampleBufferMakeDataReadyCallback?, refcon makeDataReadyRefcon: UnsafeMutableRawPointer?,
    formatDescription: CMVideoFormatDescription, sampleTiming: UnsafePointer<CMSampleTimingInfo>,
    sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus {
    sampleBufferOut.pointee = nil
    guard CMVideoFormatDescriptionMatchesImageBuffer(formatDescription, imageBuffer: imageBuffer) else {
        return kCMSampleBufferError_InvalidMediaFormat
    }
    sampleBufferOut.pointee = CMSampleBuffer(
        dataBuffer: nil, imageBuffer: imageBuffer, dataReady: dataReady, makeDataReadyCallback: makeDataReadyCallback,
        refcon: makeDataReadyRefcon, formatDescription: formatDescription, numSamples: 1,
        timing: [sampleTiming.pointee], sizes: [])
    return noErr
}

/// Creates a ready one-sample buffer holding a video frame in an image buffer.
@discardableResult
public func CMSampleBufferCreateReadyWithImageBuffer(
    allocator: CFAllocator?, imageBuffer: CVImageBuffer, formatDescription: CMVideoFormatDescription,
    sampleTiming: UnsafePointer<CMSampleTimingInfo>, sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus {
    CMSampleBufferCreateForImageBuffer(
        allocator: allocator, imageBuffer: imageBuffer, dataReady: true, makeDataReadyCallback: nil, refcon: nil,
        formatDescription: formatDescription, sampleTiming: sampleTiming, sampleBufferOut: sampleBufferOut)
}

/// Makes a copy of `original` that shares its data and format: propagatable attachments and
/// per-sample attachments are copied, timing and sizes kept.
private func copy(of original: CMSampleBuffer, timing: [CMSampleTimingInfo]) -> CMSampleBuffer {
    let copy = CMSampleBuffer(
        dataBuffer: original.dataBufferValue, imageBuffer: original.imageBufferStored,
        dataReady: original.dataReadinessValue == .ready, makeDataReadyCallback: nil, refcon: nil,
        formatDescription: original.formatDescriptionStored, numSamples: original.numSamplesStored,
        timing: timing, sizes: original.sizeEntries)
    CMPropagateAttachments(original, destination: copy)
    copy.copySampleAttachments(from: original)
    return copy
}

/// Creates a shallow copy of a sample buffer: the data and format description are shared,
/// propagatable attachments are copied.
@discardableResult
public func CMSampleBufferCreateCopy(
    allocator: CFAllocator?, sampleBuffer sbuf: CMSampleBuffer, sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus {
    sampleBufferOut.pointee = copy(of: sbuf, timing: sbuf.timingEntries)
    return noErr
}

/// Creates a shallow copy of a sample buffer with new timing (0, 1 or one entry per sample).
@discardableResult
public func CMSampleBufferCreateCopyWithNewTiming(
    allocator: CFAllocator?, sampleBuffer originalSBuf: CMSampleBuffer,
    sampleTimingEntryCount numSampleTimingEntries: CMItemCount, sampleTimingArray: UnsafePointer<CMSampleTimingInfo>?,
    sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus {
    sampleBufferOut.pointee = nil
    guard numSampleTimingEntries >= 0, validEntryCount(numSampleTimingEntries, samples: originalSBuf.numSamplesStored)
    else { return kCMSampleBufferError_InvalidEntryCount }
    guard numSampleTimingEntries == 0 || sampleTimingArray != nil else {
        return kCMSampleBufferError_RequiredParameterMissing
    }
    let timing = sampleTimingArray.map { Array(UnsafeBufferPointer(start: $0, count: numSampleTimingEntries)) } ?? []
    sampleBufferOut.pointee = copy(of: originalSBuf, timing: timing)
    return noErr
}

/// Attaches a data buffer to a sample buffer created without one.
@discardableResult
public func CMSampleBufferSetDataBuffer(_ sbuf: CMSampleBuffer, newValue dataBuffer: CMBlockBuffer) -> OSStatus {
    sbuf.setDataBuffer(dataBuffer)
}

/// The sample buffer's data buffer, or `nil` (for instance when it holds an image buffer).
public func CMSampleBufferGetDataBuffer(_ sbuf: CMSampleBuffer) -> CMBlockBuffer? {
    sbuf.dataBufferValue
}

/// The sample buffer's image buffer, or `nil` when it holds a data buffer.
public func CMSampleBufferGetImageBuffer(_ sbuf: CMSampleBuffer) -> CVImageBuffer? {
    sbuf.imageBufferStored
}

/// The sample buffer's format description, or `nil`.
public func CMSampleBufferGetFormatDescription(_ sbuf: CMSampleBuffer) -> CMFormatDescription? {
    sbuf.formatDescriptionStored
}

/// The number of samples.
public func CMSampleBufferGetNumSamples(_ sbuf: CMSampleBuffer) -> CMItemCount {
    sbuf.numSamplesStored
}

/// The earliest presentation timestamp of the samples, or `.invalid` without timing.
public func CMSampleBufferGetPresentationTimeStamp(_ sbuf: CMSampleBuffer) -> CMTime {
    sbuf.earliestPresentationTimeStamp
}

/// The decode timestamp of the first sample in decode order, or `.invalid`.
public func CMSampleBufferGetDecodeTimeStamp(_ sbuf: CMSampleBuffer) -> CMTime {
    sbuf.timingEntries.first?.decodeTimeStamp ?? .invalid
}

/// The total duration of the samples, or `.invalid` without timing.
public func CMSampleBufferGetDuration(_ sbuf: CMSampleBuffer) -> CMTime {
    sbuf.totalDuration
}

/// The output presentation timestamp: the one set with `CMSampleBufferSetOutputPresentationTimeStamp`,
/// otherwise the presentation timestamp moved later by `kCMSampleBufferAttachmentKey_TrimDurationAtStart`.
///
/// Differs from Apple: speed and reverse attachments are not applied.
public func CMSampleBufferGetOutputPresentationTimeStamp(_ sbuf: CMSampleBuffer) -> CMTime {
    if let explicit = sbuf.outputPresentationTimeStampValue { return explicit }
    let pts = sbuf.earliestPresentationTimeStamp
    let trim = sbuf.trim(kCMSampleBufferAttachmentKey_TrimDurationAtStart)
    return pts.isNumeric ? CMTimeAdd(pts, trim) : pts
}

/// Sets the output presentation timestamp to use instead of the calculated one; `.invalid`
/// goes back to the calculation.
@discardableResult
public func CMSampleBufferSetOutputPresentationTimeStamp(
    _ sbuf: CMSampleBuffer, newValue outputPresentationTimeStamp: CMTime
) -> OSStatus {
    sbuf.outputPresentationTimeStampValue = outputPresentationTimeStamp.isValid ? outputPresentationTimeStamp : nil
    return noErr
}

/// The output duration: the duration less the trims at start and end.
///
/// Differs from Apple: speed attachments are not applied.
public func CMSampleBufferGetOutputDuration(_ sbuf: CMSampleBuffer) -> CMTime {
    let duration = sbuf.totalDuration
    guard duration.isNumeric else { return duration }
    return CMTimeSubtract(CMTimeSubtract(duration, sbuf.trim(kCMSampleBufferAttachmentKey_TrimDurationAtStart)),
                          sbuf.trim(kCMSampleBufferAttachmentKey_TrimDurationAtEnd))
}

/// The timing of one sample; a single shared entry is expanded to the sample's own timestamps.
@discardableResult
public func CMSampleBufferGetSampleTimingInfo(
    _ sbuf: CMSampleBuffer, at sampleIndex: CMItemIndex, timingInfoOut: UnsafeMutablePointer<CMSampleTimingInfo>
) -> OSStatus {
    guard !sbuf.timingEntries.isEmpty else { return kCMSampleBufferError_BufferHasNoSampleTimingInfo }
    guard let timing = sbuf.timing(at: sampleIndex) else { return kCMSampleBufferError_SampleIndexOutOfRange }
    timingInfoOut.pointee = timing
    return noErr
}

/// The timing entries as stored (1 shared entry, or one per sample); with no array to fill, only
/// the number of entries needed.
@discardableResult
public func CMSampleBufferGetSampleTimingInfoArray(
    _ sbuf: CMSampleBuffer, entryCount numSampleTimingEntries: CMItemCount,
    arrayToFill timingArrayOut: UnsafeMutablePointer<CMSampleTimingInfo>?,
    entriesNeededOut timingArrayEntriesNeededOut: UnsafeMutablePointer<CMItemCount>?
) -> OSStatus {
    let entries = sbuf.timingEntries
    timingArrayEntriesNeededOut?.pointee = entries.count
    guard !entries.isEmpty else { return kCMSampleBufferError_BufferHasNoSampleTimingInfo }
    guard let timingArrayOut else { return noErr }
    guard numSampleTimingEntries >= entries.count else { return kCMSampleBufferError_ArrayTooSmall }
    for (index, entry) in entries.enumerated() { timingArrayOut[index] = entry }
    return noErr
}

/// The size in bytes of one sample; 0 when out of range or without sizes.
public func CMSampleBufferGetSampleSize(_ sbuf: CMSampleBuffer, at sampleIndex: CMItemIndex) -> Int {
    sbuf.size(at: sampleIndex)
}

/// The size entries as stored (1 shared entry, or one per sample); with no array to fill, only
/// the number of entries needed.
@discardableResult
public func CMSampleBufferGetSampleSizeArray(
    _ sbuf: CMSampleBuffer, entryCount: CMItemCount, arrayToFill sizeArrayOut: UnsafeMutablePointer<Int>?,
    entriesNeededOut sizeArrayEntriesNeededOut: UnsafeMutablePointer<CMItemCount>?
) -> OSStatus {
    let entries = sbuf.sizeEntries
    sizeArrayEntriesNeededOut?.pointee = entries.count
    guard !entries.isEmpty else { return kCMSampleBufferError_BufferHasNoSampleSizes }
    guard let sizeArrayOut else { return noErr }
    guard entryCount >= entries.count else { return kCMSampleBufferError_ArrayTooSmall }
    for (index, entry) in entries.enumerated() { sizeArrayOut[index] = entry }
    return noErr
}

/// The total size in bytes of all samples; 0 without sizes.
public func CMSampleBufferGetTotalSampleSize(_ sbuf: CMSampleBuffer) -> Int {
    sbuf.totalSize
}

/// The per-sample attachment dictionaries, one per sample; `nil` if there are none and
/// `createIfNecessary` is false.
///
/// The dictionaries are the sample buffer's own: changing one (for example
/// `(array.object(at: 0) as! NSMutableDictionary)[kCMSampleAttachmentKey_NotSync] = true`) is
/// seen by the next call, as on Apple platforms.
public func CMSampleBufferGetSampleAttachmentsArray(_ sbuf: CMSampleBuffer, createIfNecessary: Bool) -> CFArray? {
    sbuf.sampleAttachmentDictionaries(create: createIfNecessary).map { CMSampleAttachmentsCFArray(items: $0) }
}

/// Whether the sample buffer has not been invalidated.
public func CMSampleBufferIsValid(_ sbuf: CMSampleBuffer) -> Bool {
    sbuf.isValidValue
}

/// Marks the sample buffer invalid; a second call returns `kCMSampleBufferError_Invalidated`.
@discardableResult
public func CMSampleBufferInvalidate(_ sbuf: CMSampleBuffer) -> OSStatus {
    sbuf.invalidateValue()
}

/// Whether the sample buffer's data is ready.
public func CMSampleBufferDataIsReady(_ sbuf: CMSampleBuffer) -> Bool {
    sbuf.dataReadinessValue == .ready
}

/// Marks the sample buffer's data ready.
@discardableResult
public func CMSampleBufferSetDataReady(_ sbuf: CMSampleBuffer) -> OSStatus {
    sbuf.markDataReady()
}

/// Marks loading the sample buffer's data as failed with `status`.
@discardableResult
public func CMSampleBufferSetDataFailed(_ sbuf: CMSampleBuffer, status: OSStatus) -> OSStatus {
    sbuf.markDataFailed(status)
}

/// Whether loading the sample buffer's data failed (`CMSampleBufferSetDataFailed`); the failure
/// status is written to `statusOut`.
public func CMSampleBufferHasDataFailed(_ sbuf: CMSampleBuffer, statusOut: UnsafeMutablePointer<OSStatus>?) -> Bool {
    guard case .failed(let status) = sbuf.dataReadinessValue else { return false }
    statusOut?.pointee = status
    return true
}

/// Makes the data ready by running the make-data-ready callback given at creation.
@discardableResult
public func CMSampleBufferMakeDataReady(_ sbuf: CMSampleBuffer) -> OSStatus {
    sbuf.makeDataReadyValue()
}
