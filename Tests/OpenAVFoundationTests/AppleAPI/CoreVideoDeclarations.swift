import Testing
import OpenAVFoundation

// The machine-checked record of Core Video's Swift declarations (and of the CoreFoundation and
// Core Graphics stand-ins that OpenCoreVideo provides), spelled as in Apple's SDK: every
// reference is typed, so a rename, a label change, an optionality or a throwing change breaks
// this file's build. Values are checked where Apple's headers give them. Written as an Apple
// client file is: only `import OpenAVFoundation` (for `import AVFoundation`).

@Suite(.timeLimit(.minutes(10))) struct CoreVideoAppleDeclarationTests {
    // https://developer.apple.com/documentation/corevideo/cvreturn
    @Test func returnCodes() {
        let _: CVReturn.Type = Int32.self
        let codes: [(CVReturn, CVReturn)] = [
            (kCVReturnSuccess, 0), (kCVReturnFirst, -6660), (kCVReturnError, -6660),
            (kCVReturnInvalidArgument, -6661), (kCVReturnAllocationFailed, -6662), (kCVReturnUnsupported, -6663),
            (kCVReturnInvalidDisplay, -6670), (kCVReturnDisplayLinkAlreadyRunning, -6671),
            (kCVReturnDisplayLinkNotRunning, -6672), (kCVReturnDisplayLinkCallbacksNotSet, -6673),
            (kCVReturnInvalidPixelFormat, -6680), (kCVReturnInvalidSize, -6681),
            (kCVReturnInvalidPixelBufferAttributes, -6682), (kCVReturnPixelBufferNotOpenGLCompatible, -6683),
            (kCVReturnPixelBufferNotMetalCompatible, -6684), (kCVReturnWouldExceedAllocationThreshold, -6689),
            (kCVReturnPoolAllocationFailed, -6690), (kCVReturnInvalidPoolAttributes, -6691),
            (kCVReturnRetry, -6692), (kCVReturnLast, -6699),
        ]
        for (code, value) in codes { #expect(code == value) }
    }

    // CVPixelBuffer.h's pixel format type enumeration, with its values.
    @Test func pixelFormatTypes() {
        let formats: [(OSType, OSType)] = [
            (kCVPixelFormatType_1Monochrome, 0x0000_0001), (kCVPixelFormatType_2Indexed, 0x0000_0002),
            (kCVPixelFormatType_4Indexed, 0x0000_0004), (kCVPixelFormatType_8Indexed, 0x0000_0008),
            (kCVPixelFormatType_1IndexedGray_WhiteIsZero, 0x0000_0021),
            (kCVPixelFormatType_2IndexedGray_WhiteIsZero, 0x0000_0022),
            (kCVPixelFormatType_4IndexedGray_WhiteIsZero, 0x0000_0024),
            (kCVPixelFormatType_8IndexedGray_WhiteIsZero, 0x0000_0028),
            (kCVPixelFormatType_16BE555, 0x0000_0010), (kCVPixelFormatType_16LE555, 0x4C35_3535),
            (kCVPixelFormatType_16LE5551, 0x3535_3531), (kCVPixelFormatType_16BE565, 0x4235_3635),
            (kCVPixelFormatType_16LE565, 0x4C35_3635), (kCVPixelFormatType_24RGB, 0x0000_0018),
            (kCVPixelFormatType_24BGR, 0x3234_4247), (kCVPixelFormatType_32ARGB, 0x0000_0020),
            (kCVPixelFormatType_32BGRA, 0x4247_5241), (kCVPixelFormatType_32ABGR, 0x4142_4752),
            (kCVPixelFormatType_32RGBA, 0x5247_4241), (kCVPixelFormatType_64ARGB, 0x6236_3461),
            (kCVPixelFormatType_64RGBALE, 0x6C36_3472), (kCVPixelFormatType_48RGB, 0x6234_3872),
            (kCVPixelFormatType_32AlphaGray, 0x6233_3261), (kCVPixelFormatType_16Gray, 0x6231_3667),
            (kCVPixelFormatType_30RGB, 0x5231_306B), (kCVPixelFormatType_422YpCbCr8, 0x3276_7579),
            (kCVPixelFormatType_4444YpCbCrA8, 0x7634_3038), (kCVPixelFormatType_4444YpCbCrA8R, 0x7234_3038),
            (kCVPixelFormatType_4444AYpCbCr8, 0x7934_3038), (kCVPixelFormatType_4444AYpCbCr16, 0x7934_3136),
            (kCVPixelFormatType_4444AYpCbCrFloat, 0x7234_666C), (kCVPixelFormatType_444YpCbCr8, 0x7633_3038),
            (kCVPixelFormatType_422YpCbCr16, 0x7632_3136), (kCVPixelFormatType_422YpCbCr10, 0x7632_3130),
            (kCVPixelFormatType_444YpCbCr10, 0x7634_3130), (kCVPixelFormatType_420YpCbCr8Planar, 0x7934_3230),
            (kCVPixelFormatType_420YpCbCr8PlanarFullRange, 0x6634_3230),
            (kCVPixelFormatType_422YpCbCr_4A_8BiPlanar, 0x6132_7679),
            (kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, 0x3432_3076),
            (kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, 0x3432_3066),
            (kCVPixelFormatType_422YpCbCr8BiPlanarVideoRange, 0x3432_3276),
            (kCVPixelFormatType_422YpCbCr8BiPlanarFullRange, 0x3432_3266),
            (kCVPixelFormatType_444YpCbCr8BiPlanarVideoRange, 0x3434_3476),
            (kCVPixelFormatType_444YpCbCr8BiPlanarFullRange, 0x3434_3466),
            (kCVPixelFormatType_422YpCbCr8_yuvs, 0x7975_7673), (kCVPixelFormatType_422YpCbCr8FullRange, 0x7975_7666),
            (kCVPixelFormatType_OneComponent8, 0x4C30_3038), (kCVPixelFormatType_TwoComponent8, 0x3243_3038),
            (kCVPixelFormatType_30RGBLEPackedWideGamut, 0x7733_3072),
            (kCVPixelFormatType_ARGB2101010LEPacked, 0x6C31_3072),
            (kCVPixelFormatType_40ARGBLEWideGamut, 0x7734_3061),
            (kCVPixelFormatType_40ARGBLEWideGamutPremultiplied, 0x7734_306D),
            (kCVPixelFormatType_OneComponent10, 0x4C30_3130), (kCVPixelFormatType_OneComponent12, 0x4C30_3132),
            (kCVPixelFormatType_OneComponent16, 0x4C30_3136), (kCVPixelFormatType_TwoComponent16, 0x3243_3136),
            (kCVPixelFormatType_OneComponent16Half, 0x4C30_3068), (kCVPixelFormatType_OneComponent32Float, 0x4C30_3066),
            (kCVPixelFormatType_TwoComponent16Half, 0x3243_3068), (kCVPixelFormatType_TwoComponent32Float, 0x3243_3066),
            (kCVPixelFormatType_64RGBAHalf, 0x5247_6841), (kCVPixelFormatType_128RGBAFloat, 0x5247_6641),
            (kCVPixelFormatType_14Bayer_GRBG, 0x6772_6234), (kCVPixelFormatType_14Bayer_RGGB, 0x7267_6734),
            (kCVPixelFormatType_14Bayer_BGGR, 0x6267_6734), (kCVPixelFormatType_14Bayer_GBRG, 0x6762_7234),
            (kCVPixelFormatType_DisparityFloat16, 0x6864_6973), (kCVPixelFormatType_DisparityFloat32, 0x6664_6973),
            (kCVPixelFormatType_DepthFloat16, 0x6864_6570), (kCVPixelFormatType_DepthFloat32, 0x6664_6570),
            (kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange, 0x7834_3230),
            (kCVPixelFormatType_422YpCbCr10BiPlanarVideoRange, 0x7834_3232),
            (kCVPixelFormatType_444YpCbCr10BiPlanarVideoRange, 0x7834_3434),
            (kCVPixelFormatType_420YpCbCr10BiPlanarFullRange, 0x7866_3230),
            (kCVPixelFormatType_422YpCbCr10BiPlanarFullRange, 0x7866_3232),
            (kCVPixelFormatType_444YpCbCr10BiPlanarFullRange, 0x7866_3434),
            (kCVPixelFormatType_420YpCbCr8VideoRange_8A_TriPlanar, 0x7630_6138),
            (kCVPixelFormatType_16VersatileBayer, 0x6270_3136),
            (kCVPixelFormatType_64RGBA_DownscaledProResRAW, 0x6270_3634),
            (kCVPixelFormatType_422YpCbCr16BiPlanarVideoRange, 0x7376_3232),
            (kCVPixelFormatType_444YpCbCr16BiPlanarVideoRange, 0x7376_3434),
            (kCVPixelFormatType_444YpCbCr16VideoRange_16A_TriPlanar, 0x7334_6173),
            (kCVPixelFormatType_Lossless_32BGRA, 0x2642_4741),
            (kCVPixelFormatType_Lossless_420YpCbCr8BiPlanarVideoRange, 0x2638_7630),
            (kCVPixelFormatType_Lossless_420YpCbCr8BiPlanarFullRange, 0x2638_6630),
            (kCVPixelFormatType_Lossless_420YpCbCr10PackedBiPlanarVideoRange, 0x2678_7630),
            (kCVPixelFormatType_Lossless_422YpCbCr10PackedBiPlanarVideoRange, 0x2678_7632),
            (kCVPixelFormatType_Lossy_32BGRA, 0x2D42_4741),
            (kCVPixelFormatType_Lossy_420YpCbCr8BiPlanarVideoRange, 0x2D38_7630),
            (kCVPixelFormatType_Lossy_420YpCbCr8BiPlanarFullRange, 0x2D38_6630),
            (kCVPixelFormatType_Lossy_420YpCbCr10PackedBiPlanarVideoRange, 0x2D78_7630),
            (kCVPixelFormatType_Lossy_422YpCbCr10PackedBiPlanarVideoRange, 0x2D78_7632),
        ]
        for (format, value) in formats { #expect(format == value) }
        // A format Core Video names but cannot allocate here.
        var buffer: CVPixelBuffer?
        #expect(CVPixelBufferCreate(nil, 8, 8, kCVPixelFormatType_14Bayer_RGGB, nil, &buffer) == kCVReturnInvalidPixelFormat)
    }

    // https://developer.apple.com/documentation/corevideo/cvbuffer-nfm
    @Test func bufferAttachments() throws {
        let _: (CVBuffer, CFString, CFTypeRef, CVAttachmentMode) -> Void = CVBufferSetAttachment
        let _: (CVBuffer, CFString, UnsafeMutablePointer<CVAttachmentMode>?) -> CFTypeRef? = CVBufferCopyAttachment
        let _: (CVBuffer, CFString) -> Bool = CVBufferHasAttachment
        let _: (CVBuffer, CFString) -> Void = CVBufferRemoveAttachment
        let _: (CVBuffer) -> Void = CVBufferRemoveAllAttachments
        let _: (CVBuffer, CVAttachmentMode) -> CFDictionary? = CVBufferCopyAttachments
        let _: (CVBuffer, CFDictionary, CVAttachmentMode) -> Void = CVBufferSetAttachments
        let _: (CVBuffer, CVBuffer) -> Void = CVBufferPropagateAttachments
        let _: [CVAttachmentMode] = [.shouldNotPropagate, .shouldPropagate]
        #expect(CVAttachmentMode.shouldNotPropagate.rawValue == 0 && CVAttachmentMode.shouldPropagate.rawValue == 1)
        let _: UInt32 = CVAttachmentMode.shouldPropagate.rawValue
        #expect(kCVBufferPropagatedAttachmentsKey as String == "PropagatedAttachments")
        #expect(kCVBufferNonPropagatedAttachmentsKey as String == "NonPropagatedAttachments")
        #expect(kCVBufferMovieTimeKey as String == "QTMovieTime")
        #expect(kCVBufferTimeValueKey as String == "TimeValue")
        #expect(kCVBufferTimeScaleKey as String == "TimeScale")

        var made: CVPixelBuffer?
        CVPixelBufferCreate(kCFAllocatorDefault, 4, 4, kCVPixelFormatType_32BGRA, nil, &made)
        let buffer = try #require(made)
        // A string constant as the value, as Apple code passes one.
        CVBufferSetAttachment(buffer, kCVImageBufferYCbCrMatrixKey, kCVImageBufferYCbCrMatrix_ITU_R_709_2, .shouldPropagate)
        var mode = CVAttachmentMode.shouldNotPropagate
        let value = CVBufferCopyAttachment(buffer, kCVImageBufferYCbCrMatrixKey, &mode)
        #expect(value as? String == kCVImageBufferYCbCrMatrix_ITU_R_709_2 as String && mode == .shouldPropagate)
    }

    // The spellings Apple deprecated in macOS 12 and iOS 15; compiled, never run (no warnings).
    @available(*, deprecated, message: "compile-only record of deprecated Apple spellings")
    private func deprecatedSpellings() {
        let _: (CVBuffer, CFString, UnsafeMutablePointer<CVAttachmentMode>?) -> Unmanaged<CFTypeRef>? = CVBufferGetAttachment
        let _: (CVBuffer, CVAttachmentMode) -> CFDictionary? = CVBufferGetAttachments
        let _: [CFString] = [kCVImageBufferYCbCrMatrix_DCI_P3, kCVImageBufferYCbCrMatrix_P3_D65]
    }

    // https://developer.apple.com/documentation/corevideo/image-buffer-attachment-keys
    @Test func imageBufferKeysAndFunctions() throws {
        let _: CVImageBuffer.Type = CVBuffer.self
        let _: (CVImageBuffer) -> CGSize = CVImageBufferGetEncodedSize
        let _: (CVImageBuffer) -> CGSize = CVImageBufferGetDisplaySize
        let _: (CVImageBuffer) -> CGRect = CVImageBufferGetCleanRect
        let _: (CVImageBuffer) -> Bool = CVImageBufferIsFlipped
        let _: (CFString?) -> Int32 = CVYCbCrMatrixGetIntegerCodePointForString
        let _: (CFString?) -> Int32 = CVColorPrimariesGetIntegerCodePointForString
        let _: (CFString?) -> Int32 = CVTransferFunctionGetIntegerCodePointForString
        let keys: [(CFString, String)] = [
            (kCVImageBufferCGColorSpaceKey, "CGColorSpace"), (kCVImageBufferCleanApertureKey, "CVCleanAperture"),
            (kCVImageBufferCleanApertureWidthKey, "Width"), (kCVImageBufferCleanApertureHeightKey, "Height"),
            (kCVImageBufferCleanApertureHorizontalOffsetKey, "HorizontalOffset"),
            (kCVImageBufferCleanApertureVerticalOffsetKey, "VerticalOffset"),
            (kCVImageBufferPreferredCleanApertureKey, "CVPreferredCleanAperture"),
            (kCVImageBufferFieldCountKey, "CVFieldCount"), (kCVImageBufferFieldDetailKey, "CVFieldDetail"),
            (kCVImageBufferFieldDetailTemporalTopFirst, "TemporalTopFirst"),
            (kCVImageBufferFieldDetailTemporalBottomFirst, "TemporalBottomFirst"),
            (kCVImageBufferFieldDetailSpatialFirstLineEarly, "SpatialFirstLineEarly"),
            (kCVImageBufferFieldDetailSpatialFirstLineLate, "SpatialFirstLineLate"),
            (kCVImageBufferPixelAspectRatioKey, "CVPixelAspectRatio"),
            (kCVImageBufferPixelAspectRatioHorizontalSpacingKey, "HorizontalSpacing"),
            (kCVImageBufferPixelAspectRatioVerticalSpacingKey, "VerticalSpacing"),
            (kCVImageBufferDisplayDimensionsKey, "CVDisplayDimensions"),
            (kCVImageBufferDisplayWidthKey, "Width"), (kCVImageBufferDisplayHeightKey, "Height"),
            (kCVImageBufferGammaLevelKey, "CVImageBufferGammaLevel"), (kCVImageBufferICCProfileKey, "CVImageBufferICCProfile"),
            (kCVImageBufferYCbCrMatrixKey, "CVImageBufferYCbCrMatrix"),
            (kCVImageBufferYCbCrMatrix_ITU_R_709_2, "ITU_R_709_2"), (kCVImageBufferYCbCrMatrix_ITU_R_601_4, "ITU_R_601_4"),
            (kCVImageBufferYCbCrMatrix_SMPTE_240M_1995, "SMPTE_240M_1995"),
            (kCVImageBufferYCbCrMatrix_ITU_R_2020, "ITU_R_2020"),
            (kCVImageBufferColorPrimariesKey, "CVImageBufferColorPrimaries"),
            (kCVImageBufferColorPrimaries_ITU_R_709_2, "ITU_R_709_2"), (kCVImageBufferColorPrimaries_EBU_3213, "EBU_3213"),
            (kCVImageBufferColorPrimaries_SMPTE_C, "SMPTE_C"), (kCVImageBufferColorPrimaries_P22, "P22"),
            (kCVImageBufferColorPrimaries_DCI_P3, "DCI_P3"), (kCVImageBufferColorPrimaries_P3_D65, "P3_D65"),
            (kCVImageBufferColorPrimaries_ITU_R_2020, "ITU_R_2020"),
            (kCVImageBufferTransferFunctionKey, "CVImageBufferTransferFunction"),
            (kCVImageBufferTransferFunction_ITU_R_709_2, "ITU_R_709_2"),
            (kCVImageBufferTransferFunction_SMPTE_240M_1995, "SMPTE_240M_1995"),
            (kCVImageBufferTransferFunction_UseGamma, "UseGamma"), (kCVImageBufferTransferFunction_sRGB, "IEC_sRGB"),
            (kCVImageBufferTransferFunction_ITU_R_2020, "ITU_R_2020"),
            (kCVImageBufferTransferFunction_SMPTE_ST_428_1, "SMPTE_ST_428_1"),
            (kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ, "SMPTE_ST_2084_PQ"),
            (kCVImageBufferTransferFunction_ITU_R_2100_HLG, "ITU_R_2100_HLG"),
            (kCVImageBufferTransferFunction_Linear, "Linear"),
            (kCVImageBufferChromaLocationTopFieldKey, "CVImageBufferChromaLocationTopField"),
            (kCVImageBufferChromaLocationBottomFieldKey, "CVImageBufferChromaLocationBottomField"),
            (kCVImageBufferChromaLocation_Left, "Left"), (kCVImageBufferChromaLocation_Center, "Center"),
            (kCVImageBufferChromaLocation_TopLeft, "TopLeft"), (kCVImageBufferChromaLocation_Top, "Top"),
            (kCVImageBufferChromaLocation_BottomLeft, "BottomLeft"), (kCVImageBufferChromaLocation_Bottom, "Bottom"),
            (kCVImageBufferChromaLocation_DV420, "DV 4:2:0"),
            (kCVImageBufferChromaSubsamplingKey, "CVImageBufferChromaSubsampling"),
            (kCVImageBufferChromaSubsampling_420, "4:2:0"), (kCVImageBufferChromaSubsampling_422, "4:2:2"),
            (kCVImageBufferChromaSubsampling_411, "4:1:1"),
            (kCVImageBufferAlphaChannelIsOpaque, "AlphaChannelIsOpaque"),
            (kCVImageBufferMasteringDisplayColorVolumeKey, "MasteringDisplayColorVolume"),
            (kCVImageBufferContentLightLevelInfoKey, "ContentLightLevelInfo"),
        ]
        for (key, value) in keys { #expect(key as String == value) }
        // Apple publishes no value for these: the names only.
        let _: [CFString] = [
            kCVImageBufferAlphaChannelModeKey, kCVImageBufferAlphaChannelMode_StraightAlpha,
            kCVImageBufferAlphaChannelMode_PremultipliedAlpha, kCVImageBufferAmbientViewingEnvironmentKey,
        ]

        #expect(CVYCbCrMatrixGetIntegerCodePointForString(kCVImageBufferYCbCrMatrix_ITU_R_709_2) == 1)
        #expect(CVColorPrimariesGetIntegerCodePointForString(kCVImageBufferColorPrimaries_ITU_R_2020) == 9)
        #expect(CVTransferFunctionGetIntegerCodePointForString(kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ) == 16)
        #expect(CVTransferFunctionGetIntegerCodePointForString(nil) == 2)
        // Apple returns `Unmanaged<CFString>?`; both spell the result the same way.
        #expect(CVYCbCrMatrixGetStringForIntegerCodePoint(6)?.takeUnretainedValue() as String? == "ITU_R_601_4")
        #expect(CVColorPrimariesGetStringForIntegerCodePoint(12)?.takeUnretainedValue() as String? == "P3_D65")
        #expect(CVTransferFunctionGetStringForIntegerCodePoint(18)?.takeUnretainedValue() as String? == "ITU_R_2100_HLG")
        #expect(CVTransferFunctionGetStringForIntegerCodePoint(2) == nil)

        var made: CVPixelBuffer?
        CVPixelBufferCreate(nil, 16, 8, kCVPixelFormatType_32BGRA, nil, &made)
        let buffer = try #require(made)
        #expect(CVImageBufferGetEncodedSize(buffer) == CGSize(width: 16, height: 8))
        #expect(CVImageBufferIsFlipped(buffer))
    }

    // https://developer.apple.com/documentation/corevideo/cvpixelbuffer-q2e
    @Test func pixelBufferFunctions() throws {
        let _: CVPixelBuffer.Type = CVImageBuffer.self
        let _: (CFAllocator?, Int, Int, OSType, CFDictionary?, UnsafeMutablePointer<CVPixelBuffer?>) -> CVReturn = CVPixelBufferCreate
        let _: CVPixelBufferReleaseBytesCallback = { _, _ in }
        let _: (CFAllocator?, Int, Int, OSType, UnsafeMutableRawPointer, Int, CVPixelBufferReleaseBytesCallback?,
                UnsafeMutableRawPointer?, CFDictionary?, UnsafeMutablePointer<CVPixelBuffer?>) -> CVReturn
            = CVPixelBufferCreateWithBytes
        let _: CVPixelBufferReleasePlanarBytesCallback = { _, _, _, _, _ in }
        let _: (CFAllocator?, Int, Int, OSType, UnsafeMutableRawPointer?, Int, Int,
                UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>, UnsafeMutablePointer<Int>,
                UnsafeMutablePointer<Int>, CVPixelBufferReleasePlanarBytesCallback?, UnsafeMutableRawPointer?,
                CFDictionary?, UnsafeMutablePointer<CVPixelBuffer?>) -> CVReturn = CVPixelBufferCreateWithPlanarBytes
        let _: (CVPixelBuffer, CVPixelBufferLockFlags) -> CVReturn = CVPixelBufferLockBaseAddress
        let _: (CVPixelBuffer, CVPixelBufferLockFlags) -> CVReturn = CVPixelBufferUnlockBaseAddress
        let _: (CVPixelBuffer) -> Int = CVPixelBufferGetWidth
        let _: (CVPixelBuffer) -> Int = CVPixelBufferGetHeight
        let _: (CVPixelBuffer) -> OSType = CVPixelBufferGetPixelFormatType
        let _: (CVPixelBuffer) -> UnsafeMutableRawPointer? = CVPixelBufferGetBaseAddress
        let _: (CVPixelBuffer) -> Int = CVPixelBufferGetBytesPerRow
        let _: (CVPixelBuffer) -> Int = CVPixelBufferGetDataSize
        let _: (CVPixelBuffer) -> Bool = CVPixelBufferIsPlanar
        let _: (CVPixelBuffer) -> Int = CVPixelBufferGetPlaneCount
        let _: (CVPixelBuffer, Int) -> Int = CVPixelBufferGetWidthOfPlane
        let _: (CVPixelBuffer, Int) -> Int = CVPixelBufferGetHeightOfPlane
        let _: (CVPixelBuffer, Int) -> UnsafeMutableRawPointer? = CVPixelBufferGetBaseAddressOfPlane
        let _: (CVPixelBuffer, Int) -> Int = CVPixelBufferGetBytesPerRowOfPlane
        let _: (CVPixelBuffer, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<Int>?,
                UnsafeMutablePointer<Int>?) -> Void = CVPixelBufferGetExtendedPixels
        let _: (CVPixelBuffer) -> CVReturn = CVPixelBufferFillExtendedPixels
        let _: (CVPixelBuffer) -> CFDictionary = CVPixelBufferCopyCreationAttributes
        let _: (CVPixelBuffer, CFDictionary?) -> Bool = CVPixelBufferIsCompatibleWithAttributes

        // CVPixelBufferLockFlags: an option set over CVOptionFlags.
        let _: CVOptionFlags.Type = UInt64.self
        let _: (CVOptionFlags) -> CVPixelBufferLockFlags = CVPixelBufferLockFlags.init(rawValue:)
        #expect(CVPixelBufferLockFlags.readOnly.rawValue == 1)
        let _: CVPixelBufferLockFlags = []

        let attributes: [String: Any] = [kCVPixelBufferBytesPerRowAlignmentKey as String: 64]
        var made: CVPixelBuffer?
        #expect(CVPixelBufferCreate(kCFAllocatorDefault, 32, 16, kCVPixelFormatType_32BGRA, attributes as CFDictionary, &made)
                == kCVReturnSuccess)
        let buffer = try #require(made)
        #expect(CVPixelBufferLockBaseAddress(buffer, .readOnly) == kCVReturnSuccess)
        #expect(CVPixelBufferUnlockBaseAddress(buffer, .readOnly) == kCVReturnSuccess)
        let creation = CVPixelBufferCopyCreationAttributes(buffer) as? [String: Any]
        #expect(creation?[kCVPixelBufferWidthKey as String] as? Int == 32)
        #expect(creation?[kCVPixelBufferPixelFormatTypeKey as String] as? OSType == kCVPixelFormatType_32BGRA)
        #expect(CVPixelBufferIsCompatibleWithAttributes(buffer, CVPixelBufferCopyCreationAttributes(buffer)))
        #expect(CVPixelBufferIsCompatibleWithAttributes(buffer, nil))
        let otherFormat: [String: Any] = [kCVPixelBufferPixelFormatTypeKey as String: [kCVPixelFormatType_32ARGB]]
        #expect(!CVPixelBufferIsCompatibleWithAttributes(buffer, otherFormat as CFDictionary))
    }

    // https://developer.apple.com/documentation/corevideo/pixel-buffer-attribute-keys
    @Test func pixelBufferAttributeKeys() {
        let keys: [(CFString, String)] = [
            (kCVPixelBufferPixelFormatTypeKey, "PixelFormatType"), (kCVPixelBufferMemoryAllocatorKey, "MemoryAllocator"),
            (kCVPixelBufferWidthKey, "Width"), (kCVPixelBufferHeightKey, "Height"),
            (kCVPixelBufferExtendedPixelsLeftKey, "ExtendedPixelsLeft"),
            (kCVPixelBufferExtendedPixelsTopKey, "ExtendedPixelsTop"),
            (kCVPixelBufferExtendedPixelsRightKey, "ExtendedPixelsRight"),
            (kCVPixelBufferExtendedPixelsBottomKey, "ExtendedPixelsBottom"),
            (kCVPixelBufferBytesPerRowAlignmentKey, "BytesPerRowAlignment"),
            (kCVPixelBufferCGBitmapContextCompatibilityKey, "CGBitmapContextCompatibility"),
            (kCVPixelBufferCGImageCompatibilityKey, "CGImageCompatibility"),
            (kCVPixelBufferOpenGLCompatibilityKey, "OpenGLCompatibility"),
            (kCVPixelBufferPlaneAlignmentKey, "PlaneAlignment"),
            (kCVPixelBufferIOSurfacePropertiesKey, "IOSurfaceProperties"),
            (kCVPixelBufferOpenGLESCompatibilityKey, "OpenGLESCompatibility"),
            (kCVPixelBufferMetalCompatibilityKey, "MetalCompatibility"),
        ]
        for (key, value) in keys { #expect(key as String == value) }
        let _: [CFString] = [kCVPixelBufferOpenGLTextureCacheCompatibilityKey, kCVPixelBufferOpenGLESTextureCacheCompatibilityKey,
                             kCVPixelBufferIOSurfaceOpenGLTextureCompatibilityKey, kCVPixelBufferIOSurfaceOpenGLFBOCompatibilityKey,
                             kCVPixelBufferIOSurfaceCoreAnimationCompatibilityKey, kCVPixelBufferIOSurfaceOpenGLESTextureCompatibilityKey,
                             kCVPixelBufferIOSurfaceOpenGLESFBOCompatibilityKey]
    }

    // https://developer.apple.com/documentation/corevideo/cvpixelbufferpool-ru3
    @Test func pixelBufferPool() throws {
        let _: (CFAllocator?, CFDictionary?, CFDictionary?, UnsafeMutablePointer<CVPixelBufferPool?>) -> CVReturn
            = CVPixelBufferPoolCreate
        let _: (CVPixelBufferPool) -> CFDictionary? = CVPixelBufferPoolGetAttributes
        let _: (CVPixelBufferPool) -> CFDictionary? = CVPixelBufferPoolGetPixelBufferAttributes
        let _: (CFAllocator?, CVPixelBufferPool, UnsafeMutablePointer<CVPixelBuffer?>) -> CVReturn
            = CVPixelBufferPoolCreatePixelBuffer
        let _: (CFAllocator?, CVPixelBufferPool, CFDictionary?, UnsafeMutablePointer<CVPixelBuffer?>) -> CVReturn
            = CVPixelBufferPoolCreatePixelBufferWithAuxAttributes
        let _: (CVPixelBufferPool, CVPixelBufferPoolFlushFlags) -> Void = CVPixelBufferPoolFlush
        let _: (CVOptionFlags) -> CVPixelBufferPoolFlushFlags = CVPixelBufferPoolFlushFlags.init(rawValue:)
        #expect(CVPixelBufferPoolFlushFlags.excessBuffers.rawValue == 1)
        #expect(kCVPixelBufferPoolMinimumBufferCountKey as String == "MinimumBufferCount")
        #expect(kCVPixelBufferPoolMaximumBufferAgeKey as String == "MaximumBufferAge")
        #expect(kCVPixelBufferPoolAllocationThresholdKey as String == "AllocationThreshold")

        let attributes: [String: Any] = [
            kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
            kCVPixelBufferWidthKey as String: 64, kCVPixelBufferHeightKey as String: 32,
        ]
        let poolAttributes: [String: Any] = [kCVPixelBufferPoolMinimumBufferCountKey as String: 1]
        var made: CVPixelBufferPool?
        #expect(CVPixelBufferPoolCreate(nil, poolAttributes as CFDictionary, attributes as CFDictionary, &made) == kCVReturnSuccess)
        let pool = try #require(made)
        let aux: [String: Any] = [kCVPixelBufferPoolAllocationThresholdKey as String: 1]
        var first: CVPixelBuffer?
        var second: CVPixelBuffer?
        #expect(CVPixelBufferPoolCreatePixelBufferWithAuxAttributes(nil, pool, aux as CFDictionary, &first) == kCVReturnSuccess)
        #expect(CVPixelBufferPoolCreatePixelBufferWithAuxAttributes(nil, pool, aux as CFDictionary, &second)
                == kCVReturnWouldExceedAllocationThreshold)
        #expect(second == nil && first.map(CVPixelBufferGetPlaneCount) == 2)
        CVPixelBufferPoolFlush(pool, [.excessBuffers])
    }

    // The CoreFoundation names Core Video's Swift signatures use, and the CF calls media code makes.
    @Test func coreFoundation() throws {
        let _: CFAllocator? = kCFAllocatorDefault
        let _: CFBoolean? = kCFBooleanTrue
        let _: CFBoolean? = kCFBooleanFalse
        let _: OSStatus = noErr
        let _: OSType.Type = FourCharCode.self
        let _: FourCharCode.Type = UInt32.self
        let _: OSStatus.Type = Int32.self
        let _: CFIndex.Type = Int.self
        let _: CFTypeRef = kCFBooleanTrue
        let _: (CFArray?) -> CFIndex = CFArrayGetCount
        let _: (CFArray?, CFIndex) -> UnsafeRawPointer? = CFArrayGetValueAtIndex
        let _: (CFMutableDictionary?, UnsafeRawPointer?, UnsafeRawPointer?) -> Void = CFDictionarySetValue
        let _: (CFDictionary?, UnsafeRawPointer?) -> UnsafeRawPointer? = CFDictionaryGetValue
        let _: (CFDictionary?, UnsafeRawPointer?) -> Bool = CFDictionaryContainsKey
        let _: (CFMutableDictionary?, UnsafeRawPointer?) -> Void = CFDictionaryRemoveValue
        let _: (CFDictionary?) -> CFIndex = CFDictionaryGetCount
        let _: (CFBoolean?) -> Bool = CFBooleanGetValue
        let _: (CFAllocator?, CFIndex) -> CFMutableData? = CFDataCreateMutable
        let _: (CFData?) -> CFIndex = CFDataGetLength
        let _: (CFData?) -> UnsafePointer<UInt8>? = CFDataGetBytePtr
        let _: () -> CGDirectDisplayID = CGMainDisplayID
        let _: CGDirectDisplayID.Type = UInt32.self

        #expect(CFBooleanGetValue(kCFBooleanTrue) && !CFBooleanGetValue(kCFBooleanFalse))
        let data = try #require(CFDataCreateMutable(kCFAllocatorDefault, 0))
        data.append([1, 2, 3] as [UInt8], length: 3)
        #expect(CFDataGetLength(data) == 3 && CFDataGetBytePtr(data)[2] == 3)
        let dictionary: [String: Any] = [kCVImageBufferFieldCountKey as String: 2]
        let cf = dictionary as CFDictionary
        #expect(CFDictionaryGetCount(cf) == 1)
        #expect(CFDictionaryContainsKey(cf, Unmanaged.passUnretained(kCVImageBufferFieldCountKey).toOpaque()))
    }

    // https://developer.apple.com/documentation/corefoundation/cgaffinetransform
    @Test func affineTransform() {
        let _: (CGFloat, CGFloat, CGFloat, CGFloat, CGFloat, CGFloat) -> CGAffineTransform
            = CGAffineTransform.init(a:b:c:d:tx:ty:)
        let _: (CGFloat, CGFloat, CGFloat, CGFloat, CGFloat, CGFloat) -> CGAffineTransform
            = CGAffineTransform.init(_:_:_:_:_:_:)
        let _: () -> CGAffineTransform = CGAffineTransform.init as () -> CGAffineTransform
        let _: (CGFloat) -> CGAffineTransform = CGAffineTransform.init(rotationAngle:)
        let _: (CGFloat, CGFloat) -> CGAffineTransform = CGAffineTransform.init(scaleX:y:)
        let _: (CGFloat, CGFloat) -> CGAffineTransform = CGAffineTransform.init(translationX:y:)
        let _: CGAffineTransform = .identity
        let _: KeyPath<CGAffineTransform, Bool> = \CGAffineTransform.isIdentity
        let _: [WritableKeyPath<CGAffineTransform, CGFloat>] = [\.a, \.b, \.c, \.d, \.tx, \.ty]
        let _: (CGAffineTransform) -> (CGAffineTransform) -> CGAffineTransform = CGAffineTransform.concatenating
        let _: (CGAffineTransform) -> (CGFloat) -> CGAffineTransform = CGAffineTransform.rotated(by:)
        let _: (CGAffineTransform) -> (CGFloat, CGFloat) -> CGAffineTransform = CGAffineTransform.scaledBy(x:y:)
        let _: (CGAffineTransform) -> (CGFloat, CGFloat) -> CGAffineTransform = CGAffineTransform.translatedBy(x:y:)
        let _: (CGAffineTransform) -> () -> CGAffineTransform = CGAffineTransform.inverted
        let _: (CGPoint) -> (CGAffineTransform) -> CGPoint = CGPoint.applying
        let _: (CGSize) -> (CGAffineTransform) -> CGSize = CGSize.applying
        let _: (CGRect) -> (CGAffineTransform) -> CGRect = CGRect.applying
        #expect(CGAffineTransform(2, 0, 0, 2, 1, 1) == CGAffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 1, ty: 1))
    }

    // The Core Graphics image types OpenCoreVideo provides.
    @Test func imagesColorsAndContexts() throws {
        // CGBitmapInfo, CGImageAlphaInfo, CGColorRenderingIntent
        let _: (UInt32) -> CGBitmapInfo = CGBitmapInfo.init(rawValue:)
        let _: [CGBitmapInfo] = [.alphaInfoMask, .floatInfoMask, .floatComponents, .byteOrderMask, .byteOrderDefault,
                                 .byteOrder16Little, .byteOrder32Little, .byteOrder16Big, .byteOrder32Big,
                                 .byteOrder16Host, .byteOrder32Host]
        #expect(CGBitmapInfo.byteOrder32Little.rawValue == 2 << 12 && CGBitmapInfo.floatComponents.rawValue == 1 << 8)
        let alpha: [(CGImageAlphaInfo, UInt32)] = [
            (.none, 0), (.premultipliedLast, 1), (.premultipliedFirst, 2), (.last, 3), (.first, 4),
            (.noneSkipLast, 5), (.noneSkipFirst, 6), (.alphaOnly, 7),
        ]
        for (info, value) in alpha { #expect(info.rawValue == value) }
        let intents: [(CGColorRenderingIntent, Int32)] = [
            (.defaultIntent, 0), (.absoluteColorimetric, 1), (.relativeColorimetric, 2), (.perceptual, 3), (.saturation, 4),
        ]
        for (intent, value) in intents { #expect(intent.rawValue == value) }

        // CGColorSpace
        let _: (CFString) -> CGColorSpace? = CGColorSpace.init(name:)
        let _: KeyPath<CGColorSpace, CFString?> = \CGColorSpace.name
        let _: KeyPath<CGColorSpace, Int> = \CGColorSpace.numberOfComponents
        let _: () -> CGColorSpace = CGColorSpaceCreateDeviceRGB
        let _: () -> CGColorSpace = CGColorSpaceCreateDeviceGray
        let names: [(CFString, String)] = [
            (CGColorSpace.sRGB, "kCGColorSpaceSRGB"), (CGColorSpace.linearSRGB, "kCGColorSpaceLinearSRGB"),
            (CGColorSpace.extendedSRGB, "kCGColorSpaceExtendedSRGB"),
            (CGColorSpace.extendedLinearSRGB, "kCGColorSpaceExtendedLinearSRGB"),
            (CGColorSpace.genericRGB, "kCGColorSpaceGenericRGB"), (CGColorSpace.genericRGBLinear, "kCGColorSpaceGenericRGBLinear"),
            (CGColorSpace.itur_709, "kCGColorSpaceITUR_709"), (CGColorSpace.itur_2020, "kCGColorSpaceITUR_2020"),
            (CGColorSpace.linearITUR_2020, "kCGColorSpaceLinearITUR_2020"),
            (CGColorSpace.extendedITUR_2020, "kCGColorSpaceExtendedITUR_2020"),
            (CGColorSpace.extendedLinearITUR_2020, "kCGColorSpaceExtendedLinearITUR_2020"),
            (CGColorSpace.itur_2100_PQ, "kCGColorSpaceITUR_2100_PQ"), (CGColorSpace.itur_2100_HLG, "kCGColorSpaceITUR_2100_HLG"),
            (CGColorSpace.displayP3, "kCGColorSpaceDisplayP3"), (CGColorSpace.linearDisplayP3, "kCGColorSpaceLinearDisplayP3"),
            (CGColorSpace.extendedDisplayP3, "kCGColorSpaceExtendedDisplayP3"),
            (CGColorSpace.extendedLinearDisplayP3, "kCGColorSpaceExtendedLinearDisplayP3"),
            (CGColorSpace.displayP3_HLG, "kCGColorSpaceDisplayP3_HLG"), (CGColorSpace.displayP3_PQ, "kCGColorSpaceDisplayP3_PQ"),
            (CGColorSpace.dcip3, "kCGColorSpaceDCIP3"), (CGColorSpace.adobeRGB1998, "kCGColorSpaceAdobeRGB1998"),
            (CGColorSpace.genericGrayGamma2_2, "kCGColorSpaceGenericGrayGamma2_2"),
            (CGColorSpace.linearGray, "kCGColorSpaceLinearGray"), (CGColorSpace.extendedGray, "kCGColorSpaceExtendedGray"),
            (CGColorSpace.extendedLinearGray, "kCGColorSpaceExtendedLinearGray"),
        ]
        for (name, value) in names {
            #expect(name as String == value)
            #expect(CGColorSpace(name: name) != nil)
        }

        // CGColor
        let _: (CGFloat, CGFloat, CGFloat, CGFloat) -> CGColor = CGColor.init(red:green:blue:alpha:)
        let _: (CGFloat, CGFloat, CGFloat, CGFloat) -> CGColor = CGColor.init(srgbRed:green:blue:alpha:)
        let _: (CGFloat, CGFloat) -> CGColor = CGColor.init(gray:alpha:)
        let _: (CGFloat, CGFloat) -> CGColor = CGColor.init(genericGrayGamma2_2Gray:alpha:)
        let _: (CGColorSpace, UnsafePointer<CGFloat>) -> CGColor? = CGColor.init(colorSpace:components:)
        let _: [CGColor] = [.black, .white, .clear]
        let _: KeyPath<CGColor, [CGFloat]?> = \CGColor.components
        let _: KeyPath<CGColor, Int> = \CGColor.numberOfComponents
        let _: KeyPath<CGColor, CGFloat> = \CGColor.alpha
        let _: KeyPath<CGColor, CGColorSpace?> = \CGColor.colorSpace
        let _: (CGColor) -> (CGFloat) -> CGColor? = CGColor.copy(alpha:)

        // CGDataProvider
        let _: (CFData) -> CGDataProvider? = CGDataProvider.init(data:)
        let _: KeyPath<CGDataProvider, CFData?> = \CGDataProvider.data

        // CGContext (a bitmap context) and CGImage
        let _: (UnsafeMutableRawPointer?, Int, Int, Int, Int, CGColorSpace?, CGBitmapInfo) -> CGContext?
            = CGContext.init(data:width:height:bitsPerComponent:bytesPerRow:space:bitmapInfo:)
        let _: (UnsafeMutableRawPointer?, Int, Int, Int, Int, CGColorSpace, UInt32) -> CGContext?
            = CGContext.init(data:width:height:bitsPerComponent:bytesPerRow:space:bitmapInfo:)
        let _: [KeyPath<CGContext, Int>] = [\.width, \.height, \.bitsPerComponent, \.bitsPerPixel, \.bytesPerRow]
        let _: KeyPath<CGContext, CGColorSpace?> = \CGContext.colorSpace
        let _: KeyPath<CGContext, CGBitmapInfo> = \CGContext.bitmapInfo
        let _: KeyPath<CGContext, CGImageAlphaInfo> = \CGContext.alphaInfo
        let _: KeyPath<CGContext, UnsafeMutableRawPointer?> = \CGContext.data
        let _: (CGContext) -> () -> CGImage? = CGContext.makeImage
        let _: (Int, Int, Int, Int, Int, CGColorSpace, CGBitmapInfo, CGDataProvider, UnsafePointer<CGFloat>?, Bool,
                CGColorRenderingIntent) -> CGImage?
            = CGImage.init(width:height:bitsPerComponent:bitsPerPixel:bytesPerRow:space:bitmapInfo:provider:decode:shouldInterpolate:intent:)
        let _: [KeyPath<CGImage, Int>] = [\.width, \.height, \.bitsPerComponent, \.bitsPerPixel, \.bytesPerRow]
        let _: KeyPath<CGImage, CGColorSpace?> = \CGImage.colorSpace
        let _: KeyPath<CGImage, CGBitmapInfo> = \CGImage.bitmapInfo
        let _: KeyPath<CGImage, CGImageAlphaInfo> = \CGImage.alphaInfo
        let _: KeyPath<CGImage, CGDataProvider?> = \CGImage.dataProvider
        let _: KeyPath<CGImage, UnsafePointer<CGFloat>?> = \CGImage.decode
        let _: KeyPath<CGImage, Bool> = \CGImage.shouldInterpolate
        let _: KeyPath<CGImage, Bool> = \CGImage.isMask
        let _: KeyPath<CGImage, CGColorRenderingIntent> = \CGImage.renderingIntent
        let _: (CGImage) -> (CGRect) -> CGImage? = CGImage.cropping(to:)

        let context = try #require(CGContext(data: nil, width: 4, height: 2, bitsPerComponent: 8, bytesPerRow: 0,
                                             space: CGColorSpaceCreateDeviceRGB(),
                                             bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue
                                                 | CGBitmapInfo.byteOrder32Little.rawValue))
        #expect(context.alphaInfo == .premultipliedFirst)
        let image = try #require(context.makeImage())
        #expect(image.decode == nil && !image.isMask)
        let cropped = try #require(image.cropping(to: CGRect(x: 1, y: 0, width: 2, height: 2)))
        #expect(cropped.width == 2 && cropped.height == 2 && cropped.bytesPerRow == 8)
    }
}
