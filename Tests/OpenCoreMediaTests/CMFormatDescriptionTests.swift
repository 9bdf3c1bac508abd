import Foundation
import OpenCoreMedia
import OpenCoreVideo
import Testing

@Suite(.timeLimit(.minutes(10))) struct CMFormatDescriptionTests {
    static func aacStereo() -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(mSampleRate: 44_100, mFormatID: kAudioFormatMPEG4AAC, mFormatFlags: 2,
                                    mBytesPerPacket: 0, mFramesPerPacket: 1024, mBytesPerFrame: 0,
                                    mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
    }

    @Test func aacStreamDescriptionRoundTrips() throws {
        var asbd = Self.aacStereo()
        let cookie: [UInt8] = [0x12, 0x10] // AudioSpecificConfig: AAC-LC, 44.1 kHz, stereo
        var desc: CMAudioFormatDescription?
        let status = cookie.withUnsafeBytes { bytes in
            CMAudioFormatDescriptionCreate(allocator: nil, asbd: &asbd, layoutSize: 0, layout: nil,
                                           magicCookieSize: bytes.count, magicCookie: bytes.baseAddress,
                                           extensions: nil, formatDescriptionOut: &desc)
        }
        #expect(status == noErr)
        let description = try #require(desc)
        asbd.mSampleRate = 0 // the description keeps its own copy
        let stored = try #require(CMAudioFormatDescriptionGetStreamBasicDescription(description))
        #expect(stored.pointee == Self.aacStereo())
        #expect(stored.pointee.mSampleRate == 44_100)
        #expect(stored.pointee.mChannelsPerFrame == 2)
        #expect(stored.pointee.mFramesPerPacket == 1024)
        #expect(CMFormatDescriptionGetMediaType(description) == kCMMediaType_Audio)
        #expect(CMFormatDescriptionGetMediaSubType(description) == kAudioFormatMPEG4AAC)
        #expect(description.mediaType == .audio)
        #expect(description.mediaSubType == .mpeg4AAC)
        #expect(description.audioStreamBasicDescription == Self.aacStereo())
        // The pointer is stable for the description's lifetime.
        #expect(CMAudioFormatDescriptionGetStreamBasicDescription(description) == stored)

        var cookieSize = 0
        let cookiePointer = try #require(CMAudioFormatDescriptionGetMagicCookie(description, sizeOut: &cookieSize))
        #expect(cookieSize == 2)
        #expect(Array(UnsafeRawBufferPointer(start: cookiePointer, count: cookieSize)) == cookie)
        #expect(CMAudioFormatDescriptionGetChannelLayout(description, sizeOut: nil) == nil)
    }

    @Test func channelLayoutWithSeveralDescriptionsIsCopiedWhole() throws {
        var asbd = AudioStreamBasicDescription(mSampleRate: 48_000, mFormatID: kAudioFormatLinearPCM,
                                               mFormatFlags: kAudioFormatFlagsNativeFloatPacked, mBytesPerPacket: 12,
                                               mFramesPerPacket: 1, mBytesPerFrame: 12, mChannelsPerFrame: 3,
                                               mBitsPerChannel: 32, mReserved: 0)
        let size = MemoryLayout<AudioChannelLayout>.offset(of: \AudioChannelLayout.mChannelDescriptions)!
            + 3 * MemoryLayout<AudioChannelDescription>.stride
        let raw = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { raw.deallocate() }
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        let layout = raw.bindMemory(to: AudioChannelLayout.self, capacity: 1)
        layout.pointee.mChannelLayoutTag = kAudioChannelLayoutTag_UseChannelDescriptions
        layout.pointee.mNumberChannelDescriptions = 3
        let labels = [kAudioChannelLabel_Left, kAudioChannelLabel_Right, kAudioChannelLabel_Center]
        let descriptions = (raw + 12).bindMemory(to: AudioChannelDescription.self, capacity: 3)
        for index in 0..<3 { descriptions[index].mChannelLabel = labels[index] }

        var desc: CMAudioFormatDescription?
        #expect(CMAudioFormatDescriptionCreate(allocator: nil, asbd: &asbd, layoutSize: size,
                                               layout: UnsafePointer(layout), magicCookieSize: 0, magicCookie: nil,
                                               extensions: nil, formatDescriptionOut: &desc) == noErr)
        descriptions[2].mChannelLabel = kAudioChannelLabel_Mono // must not affect the copy
        var layoutSize = 0
        let description = try #require(desc)
        let stored = try #require(CMAudioFormatDescriptionGetChannelLayout(description, sizeOut: &layoutSize))
        #expect(layoutSize == size)
        #expect(stored.pointee.mNumberChannelDescriptions == 3)
        let storedDescriptions = (UnsafeRawPointer(stored) + 12).assumingMemoryBound(to: AudioChannelDescription.self)
        #expect((0..<3).map { storedDescriptions[$0].mChannelLabel } == labels)
        #expect(description.audioChannelLayout?.mChannelLayoutTag == kAudioChannelLayoutTag_UseChannelDescriptions)
    }

    @Test func h264VideoDescriptionHasDimensionsAndSubtype() throws {
        var desc: CMVideoFormatDescription?
        let status = CMVideoFormatDescriptionCreate(allocator: nil, codecType: kCMVideoCodecType_H264, width: 1920,
                                                    height: 1080, extensions: nil, formatDescriptionOut: &desc)
        #expect(status == noErr)
        let description = try #require(desc)
        #expect(CMVideoFormatDescriptionGetDimensions(description) == CMVideoDimensions(width: 1920, height: 1080))
        #expect(CMFormatDescriptionGetMediaSubType(description) == FourCharCode(fourCC: "avc1"))
        #expect(CMFormatDescriptionGetMediaType(description) == FourCharCode(fourCC: "vide"))
        #expect(description.mediaSubType == .h264)
        #expect(description.mediaType == .video)
        #expect(description.dimensions.width == 1920)
        #expect(CMFormatDescriptionGetExtensions(description) == nil)
        #expect(CMAudioFormatDescriptionGetStreamBasicDescription(description) == nil)
        #expect(CMVideoFormatDescriptionGetPresentationDimensions(description, usePixelAspectRatio: true,
                                                                 useCleanAperture: true) == CGSize(width: 1920, height: 1080))
    }

    @Test func equalDescriptionsCompareEqualAndDifferentOnesDoNot() throws {
        func make(_ width: Int32, depth: Int) throws -> CMVideoFormatDescription {
            var desc: CMVideoFormatDescription?
            let extensions = [kCMFormatDescriptionExtension_Depth: depth] as CFDictionary
            #expect(CMVideoFormatDescriptionCreate(allocator: nil, codecType: kCMVideoCodecType_HEVC, width: width,
                                                   height: 720, extensions: extensions, formatDescriptionOut: &desc) == noErr)
            return try #require(desc)
        }
        let a = try make(1280, depth: 24), b = try make(1280, depth: 24)
        #expect(a !== b)
        #expect(CMFormatDescriptionEqual(a, otherFormatDescription: b))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(!CMFormatDescriptionEqual(a, otherFormatDescription: try make(1281, depth: 24)))
        #expect(!CMFormatDescriptionEqual(a, otherFormatDescription: try make(1280, depth: 32)))
        #expect(!CMFormatDescriptionEqual(a, otherFormatDescription: nil))
    }

    @Test func extensionsAreReadBackAsFoundationObjects() throws {
        let extensions: [String: Any] = [
            kCMFormatDescriptionExtension_FormatName: "H.264",
            kCMFormatDescriptionExtension_FullRangeVideo: true,
            kCMFormatDescriptionExtension_CleanAperture: [
                kCMFormatDescriptionKey_CleanApertureWidth: 1904,
                kCMFormatDescriptionKey_CleanApertureHeight: 1072,
                kCMFormatDescriptionKey_CleanApertureHorizontalOffset: 0,
                kCMFormatDescriptionKey_CleanApertureVerticalOffset: 0,
            ],
            kCMFormatDescriptionExtension_PixelAspectRatio: [
                kCMFormatDescriptionKey_PixelAspectRatioHorizontalSpacing: 4,
                kCMFormatDescriptionKey_PixelAspectRatioVerticalSpacing: 3,
            ],
        ]
        var desc: CMVideoFormatDescription?
        #expect(CMVideoFormatDescriptionCreate(allocator: nil, codecType: kCMVideoCodecType_H264, width: 1920,
                                               height: 1080, extensions: extensions as CFDictionary,
                                               formatDescriptionOut: &desc) == noErr)
        let description = try #require(desc)
        #expect(CMFormatDescriptionGetExtension(description, extensionKey: kCMFormatDescriptionExtension_FormatName)
            as? String == "H.264")
        #expect(CMFormatDescriptionGetExtension(description, extensionKey: kCMFormatDescriptionExtension_FullRangeVideo)
            as? Bool == true)
        #expect(CMFormatDescriptionGetExtension(description, extensionKey: kCMFormatDescriptionExtension_Depth) == nil)
        #expect(description.extensions[kCMFormatDescriptionExtension_FormatName] as? String == "H.264")
        #expect(description.extension(by: .formatName)?.propertyListRepresentation as? String == "H.264")
        #expect(CMVideoFormatDescriptionGetCleanAperture(description, originIsAtTopLeft: true)
            == CGRect(x: 8, y: 4, width: 1904, height: 1072))
        #expect(description.presentationDimensions(usePixelAspectRatio: false, useCleanAperture: true)
            == CGSize(width: 1904, height: 1072))
        #expect(description.presentationDimensions(usePixelAspectRatio: true, useCleanAperture: false)
            == CGSize(width: 2560, height: 1080))
    }

    @Test func extensionKeysHaveApplesStrings() {
        #expect(kCMFormatDescriptionExtension_CleanAperture == "CVCleanAperture")
        #expect(kCMFormatDescriptionExtension_PixelAspectRatio == "CVPixelAspectRatio")
        #expect(kCMFormatDescriptionExtension_ColorPrimaries == "CVImageBufferColorPrimaries")
        #expect(kCMFormatDescriptionExtension_SampleDescriptionExtensionAtoms == "SampleDescriptionExtensionAtoms")
        #expect(kCMFormatDescriptionExtension_FieldCount == "CVFieldCount")
        #expect(kCMFormatDescriptionError_InvalidParameter == -12710)
        #expect(kCMVideoCodecType_HEVC == FourCharCode(fourCC: "hvc1"))
        #expect(kCMVideoCodecType_AppleProRes422HQ == FourCharCode(fourCC: "apch"))
        #expect(kCMMediaType_Audio == FourCharCode(fourCC: "soun"))
        #expect(kCMMediaType_Muxed == FourCharCode(fourCC: "muxx"))
    }

    @Test func codecPrivateDataIsExposedTheApplesWays() throws {
        let avcC = Data([1, 0x64, 0, 0x28, 0xFF, 0xE1])
        let video = CMFormatDescription(mediaType: kCMMediaType_Video, mediaSubType: kCMVideoCodecType_H264,
                                        dimensions: CMVideoDimensions(width: 640, height: 360),
                                        codecPrivateData: avcC)
        let atoms = CMFormatDescriptionGetExtension(video,
            extensionKey: kCMFormatDescriptionExtension_SampleDescriptionExtensionAtoms) as? [String: Any]
        #expect(atoms?["avcC"] as? Data == avcC)
        #expect(CMAudioFormatDescriptionGetMagicCookie(video, sizeOut: nil) == nil)
        #expect(video.dimensions == CMVideoDimensions(width: 640, height: 360))

        let config = Data([0x11, 0x90])
        let audio = CMFormatDescription(mediaType: kCMMediaType_Audio, mediaSubType: kAudioFormatMPEG4AAC,
                                        audioStreamBasicDescription: Self.aacStereo(),
                                        channelLayoutTag: kAudioChannelLayoutTag_Stereo, codecPrivateData: config)
        var size = 0
        let cookie = try #require(CMAudioFormatDescriptionGetMagicCookie(audio, sizeOut: &size))
        #expect(Data(bytes: cookie, count: size) == config)
        #expect(CMAudioFormatDescriptionGetChannelLayout(audio, sizeOut: nil)?.pointee.mChannelLayoutTag
            == kAudioChannelLayoutTag_Stereo)
        #expect(CMFormatDescriptionGetExtensions(audio) == nil)
    }

    @Test func imageBufferDescriptionTakesFormatSizeAndAttachments() throws {
        var pixelBuffer: CVPixelBuffer?
        #expect(CVPixelBufferCreate(nil, 320, 240, kCVPixelFormatType_32BGRA, nil, &pixelBuffer) == kCVReturnSuccess)
        let buffer = try #require(pixelBuffer)
        CVBufferSetAttachment(buffer, kCVImageBufferColorPrimariesKey, kCVImageBufferColorPrimaries_ITU_R_709_2,
                              .shouldPropagate)
        var desc: CMVideoFormatDescription?
        #expect(CMVideoFormatDescriptionCreateForImageBuffer(allocator: nil, imageBuffer: buffer,
                                                             formatDescriptionOut: &desc) == noErr)
        let description = try #require(desc)
        #expect(CMFormatDescriptionGetMediaSubType(description) == kCVPixelFormatType_32BGRA)
        #expect(description.dimensions == CMVideoDimensions(width: 320, height: 240))
        #expect(CMFormatDescriptionGetExtension(description, extensionKey: kCMFormatDescriptionExtension_ColorPrimaries)
            as? String == "ITU_R_709_2")
        #expect(CMVideoFormatDescriptionMatchesImageBuffer(description, imageBuffer: buffer))
    }
}
