import Foundation
import OpenCoreMedia
import OpenCoreVideo
import Testing

@Suite(.timeLimit(.minutes(10))) struct CMSampleBufferTests {
    /// Three samples of 4, 5 and 6 bytes with per-sample timing, in decode order I P B.
    static func threeSamples() throws -> (CMSampleBuffer, [CMSampleTimingInfo]) {
        let data = CMBlockBufferFromBytes(Array(0..<15))
        var desc: CMVideoFormatDescription?
        _ = CMVideoFormatDescriptionCreate(allocator: nil, codecType: kCMVideoCodecType_H264, width: 64, height: 64,
                                           extensions: nil, formatDescriptionOut: &desc)
        let frame = CMTime(value: 1, timescale: 30)
        let timing = [
            CMSampleTimingInfo(duration: frame, presentationTimeStamp: CMTime(value: 1, timescale: 30),
                               decodeTimeStamp: CMTime(value: 0, timescale: 30)),
            CMSampleTimingInfo(duration: frame, presentationTimeStamp: CMTime(value: 3, timescale: 30),
                               decodeTimeStamp: CMTime(value: 1, timescale: 30)),
            CMSampleTimingInfo(duration: frame, presentationTimeStamp: CMTime(value: 2, timescale: 30),
                               decodeTimeStamp: CMTime(value: 2, timescale: 30)),
        ]
        let sizes = [4, 5, 6]
        var sample: CMSampleBuffer?
        let status = CMSampleBufferCreateReady(allocator: nil, dataBuffer: data, formatDescription: desc,
                                               sampleCount: 3, sampleTimingEntryCount: 3, sampleTimingArray: timing,
                                               sampleSizeEntryCount: 3, sampleSizeArray: sizes,
                                               sampleBufferOut: &sample)
        #expect(status == noErr)
        return (try #require(sample), timing)
    }

    @Test func perSampleTimingIsAnsweredPerIndex() throws {
        let (sample, timing) = try Self.threeSamples()
        #expect(CMSampleBufferGetNumSamples(sample) == 3)
        for index in 0..<3 {
            var info = CMSampleTimingInfo.invalid
            #expect(CMSampleBufferGetSampleTimingInfo(sample, at: index, timingInfoOut: &info) == noErr)
            #expect(info == timing[index])
        }
        var info = CMSampleTimingInfo()
        #expect(CMSampleBufferGetSampleTimingInfo(sample, at: 3, timingInfoOut: &info)
            == kCMSampleBufferError_SampleIndexOutOfRange)
        #expect(try sample.sampleTimingInfos() == timing)
        // Earliest presentation time, first decode time, summed duration.
        #expect(sample.presentationTimeStamp == CMTime(value: 1, timescale: 30))
        #expect(CMSampleBufferGetDecodeTimeStamp(sample) == CMTime(value: 0, timescale: 30))
        #expect(sample.duration == CMTime(value: 3, timescale: 30))
        #expect(CMSampleBufferGetSampleSize(sample, at: 1) == 5)
        #expect(sample.sampleSize(at: 2) == 6)
        #expect(CMSampleBufferGetTotalSampleSize(sample) == 15)
        #expect(sample.totalSampleSize == 15)
        #expect(sample.formatDescription?.mediaSubType == .h264)
        #expect(sample.dataBuffer?.dataLength == 15)
        #expect(sample.imageBuffer == nil)
        #expect(sample.dataReadiness == .ready)

        var entries = [CMSampleTimingInfo](repeating: .invalid, count: 2)
        var needed = 0
        #expect(CMSampleBufferGetSampleTimingInfoArray(sample, entryCount: 2, arrayToFill: &entries,
                                                       entriesNeededOut: &needed) == kCMSampleBufferError_ArrayTooSmall)
        #expect(needed == 3)
    }

    @Test func oneSharedTimingEntryIsExpandedPerSample() throws {
        var timing = CMSampleTimingInfo(duration: CMTime(value: 1024, timescale: 44_100),
                                        presentationTimeStamp: CMTime(value: 2048, timescale: 44_100),
                                        decodeTimeStamp: .invalid)
        var size = 200
        var sample: CMSampleBuffer?
        #expect(CMSampleBufferCreateReady(allocator: nil, dataBuffer: CMBlockBufferFromBytes(Array(repeating: 1, count: 800)),
                                          formatDescription: nil, sampleCount: 4, sampleTimingEntryCount: 1,
                                          sampleTimingArray: &timing, sampleSizeEntryCount: 1, sampleSizeArray: &size,
                                          sampleBufferOut: &sample) == noErr)
        let buffer = try #require(sample)
        var third = CMSampleTimingInfo()
        #expect(CMSampleBufferGetSampleTimingInfo(buffer, at: 2, timingInfoOut: &third) == noErr)
        #expect(third.presentationTimeStamp == CMTime(value: 4096, timescale: 44_100))
        #expect(!third.decodeTimeStamp.isValid)
        #expect(buffer.duration == CMTime(value: 4096, timescale: 44_100))
        #expect(buffer.totalSampleSize == 800)
        #expect(try buffer.sampleTimingInfos().count == 1)
    }

    @Test func entryCountsMustBeZeroOneOrTheSampleCount() {
        var timing = [CMSampleTimingInfo](repeating: .invalid, count: 2)
        var sample: CMSampleBuffer?
        #expect(CMSampleBufferCreateReady(allocator: nil, dataBuffer: CMBlockBufferFromBytes([1, 2, 3]),
                                          formatDescription: nil, sampleCount: 3, sampleTimingEntryCount: 2,
                                          sampleTimingArray: &timing, sampleSizeEntryCount: 0, sampleSizeArray: nil,
                                          sampleBufferOut: &sample) == kCMSampleBufferError_InvalidEntryCount)
        #expect(sample == nil)
    }

    @Test func notSyncSetThroughTheAttachmentsArrayIsVisibleOnTheNextCall() throws {
        let (sample, _) = try Self.threeSamples()
        #expect(CMSampleBufferGetSampleAttachmentsArray(sample, createIfNecessary: false) == nil)
        let array = try #require(CMSampleBufferGetSampleAttachmentsArray(sample, createIfNecessary: true))
        #expect(array.count == 3)
        let second = try #require(array.object(at: 1) as? NSMutableDictionary)
        second[kCMSampleAttachmentKey_NotSync] = true
        // Also the Swift-bridged way Apple code uses.
        let dictionaries = try #require(array as? [NSMutableDictionary])
        dictionaries[2][kCMSampleAttachmentKey_DependsOnOthers] = true

        let again = try #require(CMSampleBufferGetSampleAttachmentsArray(sample, createIfNecessary: false))
        let readBack = try #require(again as? [[String: Any]])
        #expect(readBack[0][kCMSampleAttachmentKey_NotSync] == nil)
        #expect(readBack[1][kCMSampleAttachmentKey_NotSync] as? Bool == true)
        #expect(readBack[2][kCMSampleAttachmentKey_DependsOnOthers] as? Bool == true)
        // And through Apple's Swift surface.
        #expect(sample.sampleAttachments[1][.notSync] as? Bool == true)
        sample.sampleAttachments[0][.dependsOnOthers] = false
        #expect((again.object(at: 0) as? NSMutableDictionary)?[kCMSampleAttachmentKey_DependsOnOthers] as? Bool == false)
    }

    /// The engine marks samples that are not key frames without making their dictionaries;
    /// every public way of reading the attachments still sees NotSync, and copies keep it.
    @Test func samplesMarkedNotSyncShowTheAttachmentWhereverItIsRead() throws {
        let (sample, timing) = try Self.threeSamples()
        #expect(sample.isSyncSample(at: 0) && sample.isSyncSample(at: 2))
        sample.markAllSamplesNotSync()
        #expect(!sample.isSyncSample(at: 0) && !sample.isSyncSample(at: 2))
        var copy: CMSampleBuffer?
        CMSampleBufferCreateCopyWithNewTiming(allocator: nil, sampleBuffer: sample, sampleTimingEntryCount: timing.count,
                                              sampleTimingArray: timing, sampleBufferOut: &copy)
        let copied = try #require(copy)
        #expect(!copied.isSyncSample(at: 1))
        let array = try #require(CMSampleBufferGetSampleAttachmentsArray(sample, createIfNecessary: false) as? [[String: Any]])
        #expect(array.count == 3 && array.allSatisfy { $0[kCMSampleAttachmentKey_NotSync] as? Bool == true })
        #expect(copied.sampleAttachments[2][.notSync] as? Bool == true)
        // Once made, the dictionaries decide.
        sample.sampleAttachments[1][.notSync] = false
        #expect(sample.isSyncSample(at: 1) && !sample.isSyncSample(at: 0))
        sample.sampleAttachments[0][.notSync] = nil
        #expect(sample.isSyncSample(at: 0))
    }

    @Test func bufferAttachmentsWorkOnSampleBuffersAndPixelBuffers() throws {
        let (sample, _) = try Self.threeSamples()
        CMSetAttachment(sample, key: kCMSampleBufferAttachmentKey_DroppedFrameReason,
                        value: kCMSampleBufferDroppedFrameReason_FrameWasLate, attachmentMode: kCMAttachmentMode_ShouldPropagate)
        CMSetAttachment(sample, key: kCMSampleBufferAttachmentKey_ResetDecoderBeforeDecoding,
                        value: NSNumber(value: true), attachmentMode: kCMAttachmentMode_ShouldNotPropagate)
        var mode: CMAttachmentMode = 99
        #expect(CMGetAttachment(sample, key: kCMSampleBufferAttachmentKey_DroppedFrameReason, attachmentModeOut: &mode)
            as? String == "FrameWasLate")
        #expect(mode == kCMAttachmentMode_ShouldPropagate)
        let propagated = CMCopyDictionaryOfAttachments(allocator: nil, target: sample,
                                                       attachmentMode: kCMAttachmentMode_ShouldPropagate) as? [String: Any]
        #expect(propagated?.count == 1)

        // A copy with new timing carries only the propagating attachments.
        var newTiming = CMSampleTimingInfo(duration: CMTime(value: 3, timescale: 30),
                                           presentationTimeStamp: CMTime(value: 10, timescale: 1),
                                           decodeTimeStamp: .invalid)
        var copy: CMSampleBuffer?
        #expect(CMSampleBufferCreateCopyWithNewTiming(allocator: nil, sampleBuffer: sample, sampleTimingEntryCount: 1,
                                                      sampleTimingArray: &newTiming, sampleBufferOut: &copy) == noErr)
        let copied = try #require(copy)
        #expect(copied.presentationTimeStamp == CMTime(value: 10, timescale: 1))
        #expect(copied.dataBuffer === sample.dataBuffer)
        #expect(CMGetAttachment(copied, key: kCMSampleBufferAttachmentKey_DroppedFrameReason, attachmentModeOut: nil) != nil)
        #expect(CMGetAttachment(copied, key: kCMSampleBufferAttachmentKey_ResetDecoderBeforeDecoding,
                                attachmentModeOut: nil) == nil)

        CMRemoveAttachment(sample, key: kCMSampleBufferAttachmentKey_DroppedFrameReason)
        #expect(CMGetAttachment(sample, key: kCMSampleBufferAttachmentKey_DroppedFrameReason, attachmentModeOut: nil) == nil)
        CMRemoveAllAttachments(sample)
        #expect(CMCopyDictionaryOfAttachments(allocator: nil, target: sample,
                                              attachmentMode: kCMAttachmentMode_ShouldNotPropagate) == nil)

        var pixelBuffer: CVPixelBuffer?
        #expect(CVPixelBufferCreate(nil, 16, 16, kCVPixelFormatType_32BGRA, nil, &pixelBuffer) == kCVReturnSuccess)
        let buffer = try #require(pixelBuffer)
        CMSetAttachment(buffer, key: kCVImageBufferYCbCrMatrixKey, value: kCVImageBufferYCbCrMatrix_ITU_R_709_2,
                        attachmentMode: kCMAttachmentMode_ShouldPropagate)
        #expect(CVBufferCopyAttachment(buffer, kCVImageBufferYCbCrMatrixKey, nil) as? String == "ITU_R_709_2")
        var pixelMode: CMAttachmentMode = 99
        #expect(CMGetAttachment(buffer, key: kCVImageBufferYCbCrMatrixKey, attachmentModeOut: &pixelMode) != nil)
        #expect(pixelMode == kCMAttachmentMode_ShouldPropagate)
    }

    @Test func imageBufferSampleCarriesItsFrame() throws {
        var pixelBuffer: CVPixelBuffer?
        #expect(CVPixelBufferCreate(nil, 32, 16, kCVPixelFormatType_32BGRA, nil, &pixelBuffer) == kCVReturnSuccess)
        let buffer = try #require(pixelBuffer)
        var desc: CMVideoFormatDescription?
        #expect(CMVideoFormatDescriptionCreateForImageBuffer(allocator: nil, imageBuffer: buffer,
                                                             formatDescriptionOut: &desc) == noErr)
        var timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: 60),
                                        presentationTimeStamp: CMTime(value: 123, timescale: 1_000_000_000),
                                        decodeTimeStamp: .invalid)
        var sample: CMSampleBuffer?
        #expect(CMSampleBufferCreateReadyWithImageBuffer(allocator: nil, imageBuffer: buffer,
                                                         formatDescription: try #require(desc), sampleTiming: &timing,
                                                         sampleBufferOut: &sample) == noErr)
        let frame = try #require(sample)
        #expect(CMSampleBufferGetImageBuffer(frame) === buffer)
        #expect(frame.numSamples == 1)
        #expect(frame.presentationTimeStamp == CMTime(value: 123, timescale: 1_000_000_000))
        #expect(frame.dataBuffer == nil)

        // A description of another size does not describe this buffer.
        var other: CMVideoFormatDescription?
        _ = CMVideoFormatDescriptionCreate(allocator: nil, codecType: kCVPixelFormatType_32BGRA, width: 64, height: 16,
                                           extensions: nil, formatDescriptionOut: &other)
        #expect(CMSampleBufferCreateReadyWithImageBuffer(allocator: nil, imageBuffer: buffer,
                                                         formatDescription: try #require(other), sampleTiming: &timing,
                                                         sampleBufferOut: &sample) == kCMSampleBufferError_InvalidMediaFormat)
    }

    @Test func validityReadinessAndOutputTime() throws {
        let (sample, _) = try Self.threeSamples()
        #expect(CMSampleBufferIsValid(sample))
        #expect(CMSampleBufferInvalidate(sample) == noErr)
        #expect(!sample.isValid)
        #expect(CMSampleBufferInvalidate(sample) == kCMSampleBufferError_Invalidated)
        #expect(throws: (any Error).self) { try sample.invalidate() }

        #expect(CMSampleBufferGetOutputPresentationTimeStamp(sample) == CMTime(value: 1, timescale: 30))
        #expect(CMSampleBufferSetOutputPresentationTimeStamp(sample, newValue: CMTime(value: 9, timescale: 1)) == noErr)
        #expect(sample.outputPresentationTimeStamp == CMTime(value: 9, timescale: 1))
        #expect(CMSampleBufferSetOutputPresentationTimeStamp(sample, newValue: .invalid) == noErr)
        #expect(sample.outputPresentationTimeStamp == CMTime(value: 1, timescale: 30))
        #expect(sample.outputDuration == CMTime(value: 3, timescale: 30))

        var notReady: CMSampleBuffer?
        let calls = LockedCount()
        #expect(CMSampleBufferCreate(allocator: nil, dataBuffer: nil, dataReady: false,
                                     makeDataReadyCallback: { _, _ in calls.increment(); return noErr }, refcon: nil,
                                     formatDescription: nil, sampleCount: 1, sampleTimingEntryCount: 0,
                                     sampleTimingArray: nil, sampleSizeEntryCount: 0, sampleSizeArray: nil,
                                     sampleBufferOut: &notReady) == noErr)
        let pending = try #require(notReady)
        #expect(!CMSampleBufferDataIsReady(pending))
        #expect(pending.dataReadiness == .notReady)
        #expect(CMSampleBufferMakeDataReady(pending) == noErr)
        #expect(calls.value == 1)
        #expect(pending.dataReadiness == .ready)
        try pending.makeDataReady()
        #expect(calls.value == 1)
    }

    @Test func readinessChangesArePosted() throws {
        let timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: 30), presentationTimeStamp: .zero, decodeTimeStamp: .invalid)
        let buffer = try CMSampleBuffer(dataBuffer: nil, dataReady: false, formatDescription: nil, numSamples: 1,
                                        sampleTimings: [timing], sampleSizes: [4]) { _ in noErr }
        nonisolated(unsafe) let posted = NSMutableArray()
        let observers = [CMSampleBuffer.dataBecameReady, CMSampleBuffer.dataFailed].map { name in
            NotificationCenter.default.addObserver(forName: name, object: buffer, queue: nil) { note in
                posted.add("\(note.name.rawValue) \(note.userInfo?[kCMSampleBufferNotificationKey_Status] ?? "")")
            }
        }
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        #expect(CMSampleBufferSetDataFailed(buffer, status: -1) == noErr)
        try buffer.setDataReadiness(.ready)
        try buffer.setDataReadiness(.ready)
        #expect(posted as? [String] == ["\(kCMSampleBufferNotification_DataFailed) -1", "\(kCMSampleBufferNotification_DataBecameReady) "])
    }
}

/// A thread-safe counter.
private final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// A contiguous block buffer holding a copy of `bytes`.
private func CMBlockBufferFromBytes(_ bytes: [UInt8]) -> CMBlockBuffer {
    var buffer: CMBlockBuffer?
    _ = CMBlockBufferCreateWithMemoryBlock(allocator: nil, memoryBlock: nil, blockLength: bytes.count,
                                           blockAllocator: nil, customBlockSource: nil, offsetToData: 0,
                                           dataLength: bytes.count, flags: 0, blockBufferOut: &buffer)
    _ = bytes.withUnsafeBytes {
        CMBlockBufferReplaceDataBytes(with: $0.baseAddress!, blockBuffer: buffer!, offsetIntoDestination: 0,
                                      dataLength: bytes.count)
    }
    return buffer!
}
