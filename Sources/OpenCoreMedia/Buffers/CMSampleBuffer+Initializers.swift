import Foundation
import OpenCoreVideo

/// Loads a sample buffer's data when it was made not ready; returns `noErr` on success. The
/// Swift initializers' form of `CMSampleBufferMakeDataReadyCallback`.
public typealias CMSampleBufferMakeDataReadyHandler = (CMSampleBuffer) -> OSStatus

/// The Swift initializers of Apple's Core Media overlay. Each throws an `NSError` in
/// `NSOSStatusErrorDomain` with the status the matching `CMSampleBufferCreate…` function returns.
extension CMSampleBuffer {
    /// A ready sample buffer of `numSamples` samples in `dataBuffer`, with their timings and
    /// sizes (none, one for all, or one each).
    public convenience init(dataBuffer: CMBlockBuffer?, formatDescription: CMFormatDescription?, numSamples: CMItemCount,
                            sampleTimings: [CMSampleTimingInfo], sampleSizes: [Int]) throws {
        try self.init(made: { out in
            CMSampleBufferCreateReady(allocator: nil, dataBuffer: dataBuffer, formatDescription: formatDescription,
                                      sampleCount: numSamples, sampleTimingEntryCount: sampleTimings.count,
                                      sampleTimingArray: sampleTimings, sampleSizeEntryCount: sampleSizes.count,
                                      sampleSizeArray: sampleSizes, sampleBufferOut: out)
        })
    }

    /// A sample buffer whose data `makeDataReadyHandler` makes ready when asked (unless
    /// `dataReady`).
    public convenience init(dataBuffer: CMBlockBuffer?, dataReady: Bool = false, formatDescription: CMFormatDescription?,
                            numSamples: CMItemCount, sampleTimings: [CMSampleTimingInfo], sampleSizes: [Int],
                            makeDataReadyHandler: @escaping CMSampleBufferMakeDataReadyHandler) throws {
        try self.init(made: { out in
            CMSampleBufferCreate(allocator: nil, dataBuffer: dataBuffer, dataReady: dataReady,
                                 makeDataReadyCallback: { buffer, _ in makeDataReadyHandler(buffer) }, refcon: nil,
                                 formatDescription: formatDescription, sampleCount: numSamples,
                                 sampleTimingEntryCount: sampleTimings.count, sampleTimingArray: sampleTimings,
                                 sampleSizeEntryCount: sampleSizes.count, sampleSizeArray: sampleSizes, sampleBufferOut: out)
        })
    }

    /// A ready one-sample buffer holding a video frame; `formatDescription` must describe it.
    public convenience init(imageBuffer: CVImageBuffer, formatDescription: CMVideoFormatDescription,
                            sampleTiming: CMSampleTimingInfo) throws {
        var timing = sampleTiming
        try self.init(made: { out in
            CMSampleBufferCreateReadyWithImageBuffer(allocator: nil, imageBuffer: imageBuffer, formatDescription: formatDescription,
                                                     sampleTiming: &timing, sampleBufferOut: out)
        })
    }

    /// A one-sample buffer holding a video frame that `makeDataReadyHandler` makes ready when
    /// asked (unless `dataReady`).
    public convenience init(imageBuffer: CVImageBuffer, dataReady: Bool = false, formatDescription: CMVideoFormatDescription,
                            sampleTiming: CMSampleTimingInfo,
                            makeDataReadyHandler: @escaping CMSampleBufferMakeDataReadyHandler) throws {
        var timing = sampleTiming
        try self.init(made: { out in
            CMSampleBufferCreateForImageBuffer(allocator: nil, imageBuffer: imageBuffer, dataReady: dataReady,
                                               makeDataReadyCallback: { buffer, _ in makeDataReadyHandler(buffer) }, refcon: nil,
                                               formatDescription: formatDescription, sampleTiming: &timing, sampleBufferOut: out)
        })
    }

    /// A copy of `sampleBuffer` sharing its data and format, with its propagated attachments.
    public convenience init(copying sampleBuffer: CMSampleBuffer) throws {
        try self.init(made: { out in CMSampleBufferCreateCopy(allocator: nil, sampleBuffer: sampleBuffer, sampleBufferOut: out) })
    }

    /// A copy of `sampleBuffer` with new timings (none, one for all, or one each).
    public convenience init(copying sampleBuffer: CMSampleBuffer, withNewTiming sampleTimings: [CMSampleTimingInfo]) throws {
        try self.init(made: { out in
            CMSampleBufferCreateCopyWithNewTiming(allocator: nil, sampleBuffer: sampleBuffer,
                                                  sampleTimingEntryCount: sampleTimings.count,
                                                  sampleTimingArray: sampleTimings, sampleBufferOut: out)
        })
    }

    /// Adopts the sample buffer a C-style function made, or throws its status.
    private convenience init(made: (UnsafeMutablePointer<CMSampleBuffer?>) -> OSStatus) throws {
        var out: CMSampleBuffer?
        let status = made(&out)
        guard status == noErr, let out else { throw Self.error(status) }
        self.init(adopting: out)
    }
}
