import Foundation
import OpenCoreVideo

extension CMSampleBuffer {
    /// The earliest presentation timestamp of the samples.
    public var presentationTimeStamp: CMTime { CMSampleBufferGetPresentationTimeStamp(self) }
    /// The decode timestamp of the first sample.
    public var decodeTimeStamp: CMTime { CMSampleBufferGetDecodeTimeStamp(self) }
    /// The total duration of the samples.
    public var duration: CMTime { CMSampleBufferGetDuration(self) }
    /// The output presentation timestamp, after trimming (see `CMSampleBufferGetOutputPresentationTimeStamp`).
    public var outputPresentationTimeStamp: CMTime { CMSampleBufferGetOutputPresentationTimeStamp(self) }
    /// The output duration, after trimming.
    public var outputDuration: CMTime { CMSampleBufferGetOutputDuration(self) }
    /// The format description, or `nil`.
    public var formatDescription: CMFormatDescription? { formatDescriptionStored }
    /// The image buffer of a video frame, or `nil`.
    public var imageBuffer: CVImageBuffer? { imageBufferStored }
    /// The data buffer, or `nil`.
    public var dataBuffer: CMBlockBuffer? { dataBufferValue }
    /// The number of samples.
    public var numSamples: CMItemCount { numSamplesStored }
    /// The total size in bytes of the samples.
    public var totalSampleSize: Int { totalSize }
    /// Whether the buffer has not been invalidated.
    public var isValid: Bool { isValidValue }
    /// Whether the data is ready, not ready, or failed to load.
    public var dataReadiness: DataReadiness { dataReadinessValue }

    /// The per-sample attachments, created empty if there were none.
    public var sampleAttachments: SampleAttachmentsArray {
        SampleAttachmentsArray(dictionaries: sampleAttachmentDictionaries(create: true) ?? [])
    }

    /// The timing entries: one shared by every sample, or one per sample.
    ///
    /// Throws an `NSError` in `NSOSStatusErrorDomain` (`kCMSampleBufferError_BufferHasNoSampleTimingInfo`).
    public func sampleTimingInfos() throws -> [CMSampleTimingInfo] {
        guard !timingEntries.isEmpty else { throw CMSampleBuffer.error(kCMSampleBufferError_BufferHasNoSampleTimingInfo) }
        return timingEntries
    }

    /// The timing of one sample; a single shared entry is expanded to the sample's own timestamps.
    ///
    /// Throws an `NSError` in `NSOSStatusErrorDomain` (`kCMSampleBufferError_BufferHasNoSampleTimingInfo`,
    /// `kCMSampleBufferError_SampleIndexOutOfRange`).
    public func sampleTimingInfo(at sampleIndex: CMItemIndex) throws -> CMSampleTimingInfo {
        var timing = CMSampleTimingInfo()
        let status = CMSampleBufferGetSampleTimingInfo(self, at: sampleIndex, timingInfoOut: &timing)
        guard status == noErr else { throw CMSampleBuffer.error(status) }
        return timing
    }

    /// The size entries: one shared by every sample, or one per sample; empty when the buffer
    /// has no sizes (an image buffer, non-interleaved audio).
    public func sampleSizes() throws -> [Int] { sizeEntries }

    /// The size in bytes of one sample; 0 when out of range or without sizes.
    public func sampleSize(at sampleIndex: Int) -> Int { size(at: sampleIndex) }

    /// Attaches a data buffer to a sample buffer created without one.
    ///
    /// Throws an `NSError` in `NSOSStatusErrorDomain` (`kCMSampleBufferError_AlreadyHasDataBuffer`).
    public func setDataBuffer(_ dataBuffer: CMBlockBuffer) throws {
        let status = CMSampleBufferSetDataBuffer(self, newValue: dataBuffer)
        guard status == noErr else { throw CMSampleBuffer.error(status) }
    }

    /// Sets the output presentation timestamp to use instead of the calculated one; `.invalid`
    /// goes back to the calculation (see `CMSampleBufferSetOutputPresentationTimeStamp`).
    public func setOutputPresentationTimeStamp(_ newValue: CMTime) throws {
        let status = CMSampleBufferSetOutputPresentationTimeStamp(self, newValue: newValue)
        guard status == noErr else { throw CMSampleBuffer.error(status) }
    }

    /// Sets the data readiness: `.ready` marks the data ready, `.failed` records the failure.
    ///
    /// Readiness cannot be undone, so `.notReady` throws (`kCMSampleBufferError_InvalidEntryCount`).
    public func setDataReadiness(_ newValue: DataReadiness) throws {
        switch newValue {
        case .ready: _ = markDataReady()
        case .failed(let status): _ = markDataFailed(status)
        case .notReady: throw CMSampleBuffer.error(kCMSampleBufferError_InvalidEntryCount)
        }
    }

    /// Runs the make-data-ready callback given at creation, if the data is not ready.
    public func makeDataReady() throws {
        let status = makeDataReadyValue()
        guard status == noErr else { throw CMSampleBuffer.error(status) }
    }

    /// Marks the buffer invalid.
    public func invalidate() throws {
        let status = invalidateValue()
        guard status == noErr else { throw CMSampleBuffer.error(status) }
    }
}
