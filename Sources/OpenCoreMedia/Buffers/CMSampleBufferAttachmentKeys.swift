import Foundation
import OpenCoreVideo

// Per-sample attachment keys (in the dictionaries of CMSampleBufferGetSampleAttachmentsArray),
// with Apple's string values.

/// The sample is not a sync sample (key frame) (`CFBoolean`; absent means sync).
public let kCMSampleAttachmentKey_NotSync: CFString = "NotSync"
/// The sample is a partial sync sample (`CFBoolean`).
public let kCMSampleAttachmentKey_PartialSync: CFString = "PartialSync"
/// The sample contains redundant coding (`CFBoolean`).
public let kCMSampleAttachmentKey_HasRedundantCoding: CFString = "HasRedundantCoding"
/// Other samples depend on this one for decoding (`CFBoolean`).
public let kCMSampleAttachmentKey_IsDependedOnByOthers: CFString = "IsDependedOnByOthers"
/// This sample depends on other samples for decoding (`CFBoolean`).
public let kCMSampleAttachmentKey_DependsOnOthers: CFString = "DependsOnOthers"
/// Samples after this one in decode order may have earlier display times (`CFBoolean`).
public let kCMSampleAttachmentKey_EarlierDisplayTimesAllowed: CFString = "EarlierDisplayTimesAllowed"
/// Display the sample at once, ignoring its timestamp (`CFBoolean`).
public let kCMSampleAttachmentKey_DisplayImmediately: CFString = "DisplayImmediately"
/// Decode but do not display the sample (`CFBoolean`).
public let kCMSampleAttachmentKey_DoNotDisplay: CFString = "DoNotDisplay"

// Sample-buffer attachment keys (set with CMSetAttachment), with Apple's string values.

/// Reset the decoder before decoding this buffer (`CFBoolean`).
public let kCMSampleBufferAttachmentKey_ResetDecoderBeforeDecoding: CFString = "ResetDecoderBeforeDecoding"
/// Why frames were dropped, on a marker buffer sent in their place (`CFString`).
public let kCMSampleBufferAttachmentKey_DroppedFrameReason: CFString = "DroppedFrameReason"
/// More information about dropped frames (`CFString`).
public let kCMSampleBufferAttachmentKey_DroppedFrameReasonInfo: CFString = "DroppedFrameReasonInfo"
/// Duration to trim from the start of the buffer's output (a `CMTime` dictionary).
public let kCMSampleBufferAttachmentKey_TrimDurationAtStart: CFString = "TrimDurationAtStart"
/// Duration to trim from the end of the buffer's output (a `CMTime` dictionary).
public let kCMSampleBufferAttachmentKey_TrimDurationAtEnd: CFString = "TrimDurationAtEnd"

/// Dropped-frame reason: the frame arrived too late to be processed.
public let kCMSampleBufferDroppedFrameReason_FrameWasLate: CFString = "FrameWasLate"
/// Dropped-frame reason: the output had no free buffers.
public let kCMSampleBufferDroppedFrameReason_OutOfBuffers: CFString = "OutOfBuffers"
/// Dropped-frame reason: a discontinuity, such as a device change, interrupted capture.
public let kCMSampleBufferDroppedFrameReason_Discontinuity: CFString = "Discontinuity"

// Sample buffer error codes, with Apple's values.

/// Memory could not be allocated.
public let kCMSampleBufferError_AllocationFailed: OSStatus = -12730
/// A required parameter was missing.
public let kCMSampleBufferError_RequiredParameterMissing: OSStatus = -12731
/// The buffer already has a data buffer.
public let kCMSampleBufferError_AlreadyHasDataBuffer: OSStatus = -12732
/// The buffer's data is not ready.
public let kCMSampleBufferError_BufferNotReady: OSStatus = -12733
/// A sample index is out of range.
public let kCMSampleBufferError_SampleIndexOutOfRange: OSStatus = -12734
/// The buffer has no sample sizes.
public let kCMSampleBufferError_BufferHasNoSampleSizes: OSStatus = -12735
/// The buffer has no sample timing.
public let kCMSampleBufferError_BufferHasNoSampleTimingInfo: OSStatus = -12736
/// The array to fill is too small.
public let kCMSampleBufferError_ArrayTooSmall: OSStatus = -12737
/// An entry count is not valid (not 0, 1 or the number of samples).
public let kCMSampleBufferError_InvalidEntryCount: OSStatus = -12738
/// The buffer cannot be subdivided.
public let kCMSampleBufferError_CannotSubdivide: OSStatus = -12739
/// Sample timing is not valid.
public let kCMSampleBufferError_SampleTimingInfoInvalid: OSStatus = -12740
/// The operation does not apply to the buffer's media type.
public let kCMSampleBufferError_InvalidMediaTypeForOperation: OSStatus = -12741
/// The sample data is not valid.
public let kCMSampleBufferError_InvalidSampleData: OSStatus = -12742
/// The format description does not match the data.
public let kCMSampleBufferError_InvalidMediaFormat: OSStatus = -12743
/// The buffer has been invalidated.
public let kCMSampleBufferError_Invalidated: OSStatus = -12744
/// Loading the buffer's data failed.
public let kCMSampleBufferError_DataFailed: OSStatus = -16750
/// Loading the buffer's data was canceled.
public let kCMSampleBufferError_DataCanceled: OSStatus = -16751
