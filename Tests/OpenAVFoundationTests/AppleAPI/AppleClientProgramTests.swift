import Testing
import OpenAVFoundation

// Written as an Apple-platform source file is: `import AVFoundation` (here OpenAVFoundation)
// and nothing else, so `URL`, `FileManager`, `Date` and `NSNumber` come through it, as Foundation
// comes with AVFoundation. Each test uses names of Apple's SDK the way real apps spell them; a
// rename in the project breaks this file's build.

/// Apple's SDK spellings that real code uses, compiled and run against the project.
@Suite(.timeLimit(.minutes(10))) struct AppleClientProgramTests {
    @Test func foundationComesWithTheImport() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openav-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let started = Date()
        let url: URL = folder.appendingPathComponent("out.mov")
        // The class-method spelling of the writer's initializer.
        let writer = try AVAssetWriter(url: url, fileType: .mov)
        #expect(writer.outputURL == url && writer.outputFileType == .mov)
        #expect(Date().timeIntervalSince(started) < 60)
    }

    @Test func timeMacrosAsTheSwiftSDKSpellsThem() {
        #expect(CMTIME_IS_POSITIVEINFINITY(.positiveInfinity) && !CMTIME_IS_POSITIVEINFINITY(.zero))
        #expect(CMTIME_IS_NEGATIVEINFINITY(.negativeInfinity) && CMTIME_IS_VALID(.zero) && CMTIME_IS_INVALID(.invalid))
        #expect(CMTIMERANGE_IS_EMPTY(CMTimeRange(start: .zero, duration: .zero)))
    }

    @Test func aSampleBufferGetsItsDataBufferLater() throws {
        var format: CMFormatDescription?
        #expect(CMAudioFormatDescriptionCreate(allocator: nil, asbd: [AudioStreamBasicDescription(
            mSampleRate: 48_000, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
            mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 1, mBitsPerChannel: 32, mReserved: 0)],
            layoutSize: 0, layout: nil, magicCookieSize: 0, magicCookie: nil, extensions: nil, formatDescriptionOut: &format) == noErr)
        var sample: CMSampleBuffer?
        var timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: 48_000), presentationTimeStamp: .zero, decodeTimeStamp: .invalid)
        var size = 4
        #expect(CMSampleBufferCreate(allocator: nil, dataBuffer: nil, dataReady: false, makeDataReadyCallback: nil, refcon: nil,
                                     formatDescription: format, sampleCount: 480, sampleTimingEntryCount: 1, sampleTimingArray: &timing,
                                     sampleSizeEntryCount: 1, sampleSizeArray: &size, sampleBufferOut: &sample) == noErr)
        var block: CMBlockBuffer?
        #expect(CMBlockBufferCreateWithMemoryBlock(allocator: nil, memoryBlock: nil, blockLength: 1920, blockAllocator: nil,
                                                   customBlockSource: nil, offsetToData: 0, dataLength: 1920, flags: 0, blockBufferOut: &block) == noErr)
        let buffer = try #require(sample)
        #expect(CMSampleBufferSetDataBuffer(buffer, newValue: try #require(block)) == noErr)
        #expect(CMSampleBufferGetDataBuffer(buffer).map(CMBlockBufferGetDataLength) == 1920)
    }

    @Test func pixelFormatsOfCoreMediaAreCoreVideos() {
        #expect(kCMPixelFormat_32BGRA == kCVPixelFormatType_32BGRA)
        #expect(kCMPixelFormat_32ARGB == kCVPixelFormatType_32ARGB)
        #expect(kCMPixelFormat_422YpCbCr8 == kCVPixelFormatType_422YpCbCr8)
        let format: CMPixelFormatType = kCMPixelFormat_24RGB
        #expect(format == kCVPixelFormatType_24RGB)
    }

    @Test func captureNamesOfOlderSDKsAndInterruptions() {
        // The notification names of Apple's older Swift SDKs are the session's constants.
        #expect(NSNotification.Name.AVCaptureSessionRuntimeError == AVCaptureSession.runtimeErrorNotification)
        #expect(NSNotification.Name.AVCaptureSessionDidStartRunning == AVCaptureSession.didStartRunningNotification)
        #expect(NSNotification.Name.AVCaptureSessionDidStopRunning == AVCaptureSession.didStopRunningNotification)
        #expect(NSNotification.Name.AVCaptureSessionWasInterrupted == AVCaptureSession.wasInterruptedNotification)
        #expect(NSNotification.Name.AVCaptureSessionInterruptionEnded == AVCaptureSession.interruptionEndedNotification)
        // How an interruption handler reads its reason.
        let userInfo: [AnyHashable: Any] = [AVCaptureSessionInterruptionReasonKey: NSNumber(value: 5)]
        let reason = (userInfo[AVCaptureSessionInterruptionReasonKey] as? NSNumber)
            .flatMap { AVCaptureSession.InterruptionReason(rawValue: $0.intValue) }
        #expect(reason == .videoDeviceNotAvailableDueToSystemPressure)
        #expect(AVCaptureSession.InterruptionReason.videoDeviceNotAvailableInBackground.rawValue == 1)
    }

    @Test func recordingSettingsAndPreparedPhotosFromACaptureSession() async throws {
        let session = AVCaptureSession()
        let camera = try #require(AVCaptureDevice.DiscoverySession(deviceTypes: [.external, .builtInWideAngleCamera], mediaType: .video,
                                                                   position: .unspecified).devices.first { $0.localizedName == "Test Pattern Camera" })
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let videoOutput = AVCaptureVideoDataOutput()
        session.addOutput(videoOutput)
        let photoOutput = AVCapturePhotoOutput()
        session.addOutput(photoOutput)
        #expect(videoOutput.availableVideoCodecTypesForAssetWriter(writingTo: .mov).contains(.hevc))
        let settings = try #require(videoOutput.recommendedVideoSettings(forVideoCodecType: .hevc, assetWriterOutputFileType: .mp4))
        #expect(settings[AVVideoCodecKey] as? String == AVVideoCodecType.hevc.rawValue)
        #expect(AVAssetWriterInput(mediaType: .video, outputSettings: settings).outputSettings != nil)
        #expect(videoOutput.recommendedVideoSettings(forVideoCodecType: .h264, assetWriterOutputFileType: .m4a) == nil)
        // Flash modes as numbers, the Objective-C spelling.
        #expect(photoOutput.__supportedFlashModes.map(\.intValue) == photoOutput.supportedFlashModes.map(\.rawValue))
        let photoSettings = AVCapturePhotoSettings()
        try await photoOutput.setPreparedPhotoSettingsArray([photoSettings])
        #expect(photoOutput.preparedPhotoSettingsArray.count == 1)
    }

    @Test func metadataAndImagePropertyConstants() {
        let item = AVMutableMetadataItem()
        item.value = "A comment" as NSString
        #expect(item.dataType == kCMMetadataBaseDataType_UTF8 as String)
        let properties: [String: Any] = [
            kCGImagePropertyExifDictionary as String: [kCGImagePropertyExifUserComment as String: "A comment"],
            kCGImagePropertyGPSDictionary as String: [String: Any](),
        ]
        #expect((properties[kCGImagePropertyExifDictionary as String] as? [String: Any])?[kCGImagePropertyExifUserComment as String] as? String == "A comment")
    }

    /// A PCM sample buffer of `samples` (float, `channels` channels, interleaved unless
    /// `planar`: then channel after channel).
    static func pcmSampleBuffer(_ samples: [Float], channels: Int, planar: Bool) throws -> CMSampleBuffer {
        let frames = samples.count / channels
        var flags = kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked
        if planar { flags |= kAudioFormatFlagIsNonInterleaved }
        let frameBytes = UInt32(planar ? 4 : 4 * channels)
        var format: CMFormatDescription?
        #expect(CMAudioFormatDescriptionCreate(allocator: nil, asbd: [AudioStreamBasicDescription(
            mSampleRate: 48_000, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags, mBytesPerPacket: frameBytes,
            mFramesPerPacket: 1, mBytesPerFrame: frameBytes, mChannelsPerFrame: UInt32(channels), mBitsPerChannel: 32, mReserved: 0)],
            layoutSize: 0, layout: nil, magicCookieSize: 0, magicCookie: nil, extensions: nil, formatDescriptionOut: &format) == noErr)
        var block: CMBlockBuffer?
        #expect(CMBlockBufferCreateWithMemoryBlock(allocator: nil, memoryBlock: nil, blockLength: samples.count * 4, blockAllocator: nil,
                                                   customBlockSource: nil, offsetToData: 0, dataLength: samples.count * 4, flags: 0,
                                                   blockBufferOut: &block) == noErr)
        _ = samples.withUnsafeBytes { CMBlockBufferReplaceDataBytes(with: $0.baseAddress!, blockBuffer: block!, offsetIntoDestination: 0, dataLength: $0.count) }
        var sample: CMSampleBuffer?
        var timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: 48_000), presentationTimeStamp: .zero, decodeTimeStamp: .invalid)
        var size = Int(frameBytes) * (planar ? channels : 1)
        #expect(CMSampleBufferCreate(allocator: nil, dataBuffer: block, dataReady: true, makeDataReadyCallback: nil, refcon: nil,
                                     formatDescription: format, sampleCount: frames, sampleTimingEntryCount: 1, sampleTimingArray: &timing,
                                     sampleSizeEntryCount: 1, sampleSizeArray: &size, sampleBufferOut: &sample) == noErr)
        return try #require(sample)
    }

    @Test func audioProcessingThroughAnAudioBufferList() throws {
        // Interleaved stereo, the common case: one buffer of both channels.
        let interleaved = try Self.pcmSampleBuffer((0..<960).map { Float($0) }, channels: 2, planar: false)
        var audioBufferList = AudioBufferList()
        var blockBuffer: CMBlockBuffer?
        let status = CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
            interleaved, bufferListSizeNeededOut: nil, bufferListOut: &audioBufferList, bufferListSize: MemoryLayout<AudioBufferList>.size,
            blockBufferAllocator: nil, blockBufferMemoryAllocator: nil, flags: kCMSampleBufferFlag_AudioBufferList_Assure16ByteAlignment,
            blockBufferOut: &blockBuffer)
        #expect(status == noErr && blockBuffer != nil)
        var sum: Float = 0
        for buffer in UnsafeMutableAudioBufferListPointer(&audioBufferList) {
            let samples = UnsafeBufferPointer(start: buffer.mData!.assumingMemoryBound(to: Float.self), count: Int(buffer.mDataByteSize) / 4)
            #expect(buffer.mNumberChannels == 2 && samples.count == 960)
            sum += samples.reduce(0, +)
        }
        #expect(sum == Float(959 * 960 / 2))

        // Planar stereo: the size asked first, then a list allocated for it, a buffer a channel.
        let planar = try Self.pcmSampleBuffer((0..<480).map { _ in Float(1) } + (0..<480).map { _ in Float(2) }, channels: 2, planar: true)
        var needed = 0
        CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(planar, bufferListSizeNeededOut: &needed, bufferListOut: nil, bufferListSize: 0,
                                                                blockBufferAllocator: nil, blockBufferMemoryAllocator: nil, flags: 0, blockBufferOut: nil)
        #expect(needed == AudioBufferList.sizeInBytes(maximumBuffers: 2))
        #expect(CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
            planar, bufferListSizeNeededOut: nil, bufferListOut: &audioBufferList, bufferListSize: MemoryLayout<AudioBufferList>.size,
            blockBufferAllocator: nil, blockBufferMemoryAllocator: nil, flags: 0, blockBufferOut: &blockBuffer) == kCMSampleBufferError_ArrayTooSmall)
        let list = AudioBufferList.allocate(maximumBuffers: 2)
        defer { list.unsafeMutablePointer.deallocate() }
        #expect(CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
            planar, bufferListSizeNeededOut: nil, bufferListOut: list.unsafeMutablePointer, bufferListSize: needed,
            blockBufferAllocator: nil, blockBufferMemoryAllocator: nil, flags: 0, blockBufferOut: &blockBuffer) == noErr)
        #expect(list.count == 2 && list.map(\.mNumberChannels) == [1, 1] && list.map(\.mDataByteSize) == [1920, 1920])
        #expect(list.map { $0.mData!.load(fromByteOffset: 1916, as: Float.self) } == [1, 2])
    }

    /// The CoreFoundation idiom for a sample's key-frame attachment, as real encoder and
    /// packager code writes it: the array, the dictionary by `unsafeBitCast`, the key and value
    /// as unretained pointers. It reaches the sample buffer's own attachments, and `key as String`
    /// and `as? [String: Any]` keep working on the same dictionary.
    @Test func keyFrameAttachmentsThroughCoreFoundation() throws {
        let sampleBuffer = try Self.pcmSampleBuffer([0, 0], channels: 1, planar: false)
        let attachments = try #require(CMSampleBufferGetSampleAttachmentsArray(sampleBuffer, createIfNecessary: true))
        #expect(CFArrayGetCount(attachments) >= 1)
        let dict = unsafeBitCast(CFArrayGetValueAtIndex(attachments, 0), to: CFMutableDictionary.self)
        CFDictionarySetValue(dict, Unmanaged.passUnretained(kCMSampleAttachmentKey_NotSync).toOpaque(),
                             Unmanaged.passUnretained(kCFBooleanTrue).toOpaque())
        #expect(sampleBuffer.sampleAttachments[0][.notSync] as? Bool == true)

        let readBack = unsafeBitCast(CFArrayGetValueAtIndex(attachments, 0), to: CFDictionary.self)
        let notSync = Unmanaged.passUnretained(kCMSampleAttachmentKey_NotSync).toOpaque()
        #expect(CFDictionaryContainsKey(readBack, notSync))
        let value = try #require(CFDictionaryGetValue(readBack, notSync))
        #expect(CFBooleanGetValue(unsafeBitCast(value, to: CFBoolean.self)))
        #expect(!CFDictionaryContainsKey(readBack, Unmanaged.passUnretained(kCMSampleAttachmentKey_DependsOnOthers).toOpaque()))
        #expect((dict as? [String: Any])?[kCMSampleAttachmentKey_NotSync as String] as? Bool == true)

        let data = CFDataCreateMutable(kCFAllocatorDefault, 0)
        data?.append(Data([1, 2, 3]))
        #expect(data?.length == 3)
    }

    /// The README's replacements for the CoreFoundation attachment idiom.
    @Test func keyFrameAttachmentsTheWaysThatCompileHere() throws {
        let sample = try Self.pcmSampleBuffer([0, 0], channels: 1, planar: false)
        sample.sampleAttachments[0][.notSync] = true
        let attachments = try #require(CMSampleBufferGetSampleAttachmentsArray(sample, createIfNecessary: true))
        let first = try #require(attachments.firstObject as? NSMutableDictionary)
        #expect(first[kCMSampleAttachmentKey_NotSync] as? Bool == true)
        first[kCMSampleAttachmentKey_DependsOnOthers] = false
        #expect(sample.sampleAttachments[0][.dependsOnOthers] as? Bool == false)
    }

    @Test func readerLoopsInAnAutoreleasePool() {
        var total = 0
        for index in 0..<3 {
            total += autoreleasepool { index * 2 }
        }
        #expect(total == 6)
    }
}
