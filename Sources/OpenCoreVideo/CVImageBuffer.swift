import Foundation

/// A Core Video buffer that holds an image; the same class as `CVBuffer`.
public typealias CVImageBuffer = CVBuffer

// MARK: Attachment keys (values are Apple's strings)

/// Attachment key for the clean aperture: a dictionary with the `kCVImageBufferCleanAperture…Key` keys.
public let kCVImageBufferCleanApertureKey: CFString = "CVCleanAperture"
/// Clean aperture width, in encoded pixels (a number).
public let kCVImageBufferCleanApertureWidthKey: CFString = "Width"
/// Clean aperture height, in encoded pixels (a number).
public let kCVImageBufferCleanApertureHeightKey: CFString = "Height"
/// Clean aperture horizontal offset from the center of the image (a number).
public let kCVImageBufferCleanApertureHorizontalOffsetKey: CFString = "HorizontalOffset"
/// Clean aperture vertical offset from the center of the image (a number).
public let kCVImageBufferCleanApertureVerticalOffsetKey: CFString = "VerticalOffset"
/// Attachment key for the preferred clean aperture (same keys as the clean aperture).
public let kCVImageBufferPreferredCleanApertureKey: CFString = "CVPreferredCleanAperture"

/// Attachment key for the number of fields in the frame (1 progressive, 2 interlaced).
public let kCVImageBufferFieldCountKey: CFString = "CVFieldCount"
/// Attachment key for the field order of interlaced frames.
public let kCVImageBufferFieldDetailKey: CFString = "CVFieldDetail"
/// Field detail: temporal order, top field first.
public let kCVImageBufferFieldDetailTemporalTopFirst: CFString = "TemporalTopFirst"
/// Field detail: temporal order, bottom field first.
public let kCVImageBufferFieldDetailTemporalBottomFirst: CFString = "TemporalBottomFirst"
/// Field detail: spatial order, first line early.
public let kCVImageBufferFieldDetailSpatialFirstLineEarly: CFString = "SpatialFirstLineEarly"
/// Field detail: spatial order, first line late.
public let kCVImageBufferFieldDetailSpatialFirstLineLate: CFString = "SpatialFirstLineLate"

/// Attachment key for the pixel aspect ratio: a dictionary with the two spacing keys.
public let kCVImageBufferPixelAspectRatioKey: CFString = "CVPixelAspectRatio"
/// Pixel aspect ratio horizontal spacing (a number).
public let kCVImageBufferPixelAspectRatioHorizontalSpacingKey: CFString = "HorizontalSpacing"
/// Pixel aspect ratio vertical spacing (a number).
public let kCVImageBufferPixelAspectRatioVerticalSpacingKey: CFString = "VerticalSpacing"

/// Attachment key for the display dimensions: a dictionary with the width and height keys.
public let kCVImageBufferDisplayDimensionsKey: CFString = "CVDisplayDimensions"
/// Display width in square pixels (a number).
public let kCVImageBufferDisplayWidthKey: CFString = "Width"
/// Display height in square pixels (a number).
public let kCVImageBufferDisplayHeightKey: CFString = "Height"

/// Attachment key for a `CGColorSpace` describing the image.
public let kCVImageBufferCGColorSpaceKey: CFString = "CGColorSpace"
/// Attachment key for the gamma level, used when the transfer function is `UseGamma`.
public let kCVImageBufferGammaLevelKey: CFString = "CVImageBufferGammaLevel"

/// Attachment key for the Y'CbCr to RGB matrix (one of the `kCVImageBufferYCbCrMatrix_…` values).
public let kCVImageBufferYCbCrMatrixKey: CFString = "CVImageBufferYCbCrMatrix"
/// Y'CbCr matrix of ITU-R BT.709.
public let kCVImageBufferYCbCrMatrix_ITU_R_709_2: CFString = "ITU_R_709_2"
/// Y'CbCr matrix of ITU-R BT.601.
public let kCVImageBufferYCbCrMatrix_ITU_R_601_4: CFString = "ITU_R_601_4"
/// Y'CbCr matrix of SMPTE 240M.
public let kCVImageBufferYCbCrMatrix_SMPTE_240M_1995: CFString = "SMPTE_240M_1995"
/// Y'CbCr matrix of ITU-R BT.2020 (non-constant luminance).
public let kCVImageBufferYCbCrMatrix_ITU_R_2020: CFString = "ITU_R_2020"
/// Y'CbCr matrix for DCI-P3; deprecated by Apple (no longer supported).
@available(*, deprecated, message: "kCVImageBufferYCbCrMatrix_DCI_P3 no longer supported.")
public let kCVImageBufferYCbCrMatrix_DCI_P3: CFString = "DCI_P3"
/// Y'CbCr matrix for P3 D65; deprecated by Apple (no longer supported).
@available(*, deprecated, message: "kCVImageBufferYCbCrMatrix_P3_D65 no longer supported.")
public let kCVImageBufferYCbCrMatrix_P3_D65: CFString = "P3_D65"

/// Attachment key for the color primaries (one of the `kCVImageBufferColorPrimaries_…` values).
public let kCVImageBufferColorPrimariesKey: CFString = "CVImageBufferColorPrimaries"
/// Color primaries of ITU-R BT.709.
public let kCVImageBufferColorPrimaries_ITU_R_709_2: CFString = "ITU_R_709_2"
/// Color primaries of EBU Tech. 3213 (PAL).
public let kCVImageBufferColorPrimaries_EBU_3213: CFString = "EBU_3213"
/// Color primaries of SMPTE C (NTSC).
public let kCVImageBufferColorPrimaries_SMPTE_C: CFString = "SMPTE_C"
/// Color primaries of P22 phosphors.
public let kCVImageBufferColorPrimaries_P22: CFString = "P22"
/// Color primaries of DCI-P3.
public let kCVImageBufferColorPrimaries_DCI_P3: CFString = "DCI_P3"
/// Color primaries of P3 with a D65 white point.
public let kCVImageBufferColorPrimaries_P3_D65: CFString = "P3_D65"
/// Color primaries of ITU-R BT.2020.
public let kCVImageBufferColorPrimaries_ITU_R_2020: CFString = "ITU_R_2020"

/// Attachment key for the transfer function (one of the `kCVImageBufferTransferFunction_…` values).
public let kCVImageBufferTransferFunctionKey: CFString = "CVImageBufferTransferFunction"
/// Transfer function of ITU-R BT.709.
public let kCVImageBufferTransferFunction_ITU_R_709_2: CFString = "ITU_R_709_2"
/// Transfer function of SMPTE 240M.
public let kCVImageBufferTransferFunction_SMPTE_240M_1995: CFString = "SMPTE_240M_1995"
/// Transfer function given by `kCVImageBufferGammaLevelKey`.
public let kCVImageBufferTransferFunction_UseGamma: CFString = "UseGamma"
/// Transfer function of ITU-R BT.2020.
public let kCVImageBufferTransferFunction_ITU_R_2020: CFString = "ITU_R_2020"
/// Transfer function of SMPTE ST 428-1.
public let kCVImageBufferTransferFunction_SMPTE_ST_428_1: CFString = "SMPTE_ST_428_1"
/// Perceptual quantizer transfer function of SMPTE ST 2084 (HDR10).
public let kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ: CFString = "SMPTE_ST_2084_PQ"
/// Hybrid log-gamma transfer function of ITU-R BT.2100.
public let kCVImageBufferTransferFunction_ITU_R_2100_HLG: CFString = "ITU_R_2100_HLG"
/// Linear transfer function.
public let kCVImageBufferTransferFunction_Linear: CFString = "Linear"
/// Transfer function of IEC 61966-2-1 sRGB.
public let kCVImageBufferTransferFunction_sRGB: CFString = "IEC_sRGB"

/// Attachment key for an ICC profile describing the image's color space (data).
public let kCVImageBufferICCProfileKey: CFString = "CVImageBufferICCProfile"

// Chroma siting; for progressive images only the top field key is used.

/// Attachment key for where chroma samples sit in the top (or only) field: one of the
/// `kCVImageBufferChromaLocation_…` values.
public let kCVImageBufferChromaLocationTopFieldKey: CFString = "CVImageBufferChromaLocationTopField"
/// Attachment key for where chroma samples sit in the bottom field: one of the
/// `kCVImageBufferChromaLocation_…` values.
public let kCVImageBufferChromaLocationBottomFieldKey: CFString = "CVImageBufferChromaLocationBottomField"
/// Chroma sample horizontally co-sited with the left column of luma samples, centered vertically.
public let kCVImageBufferChromaLocation_Left: CFString = "Left"
/// Chroma sample fully centered.
public let kCVImageBufferChromaLocation_Center: CFString = "Center"
/// Chroma sample co-sited with the top-left luma sample.
public let kCVImageBufferChromaLocation_TopLeft: CFString = "TopLeft"
/// Chroma sample horizontally centered, co-sited with the top row of luma samples.
public let kCVImageBufferChromaLocation_Top: CFString = "Top"
/// Chroma sample co-sited with the bottom-left luma sample.
public let kCVImageBufferChromaLocation_BottomLeft: CFString = "BottomLeft"
/// Chroma sample horizontally centered, co-sited with the bottom row of luma samples.
public let kCVImageBufferChromaLocation_Bottom: CFString = "Bottom"
/// Cr and Cb samples alternately co-sited with the left luma samples of the same field (DV 4:2:0).
public let kCVImageBufferChromaLocation_DV420: CFString = "DV 4:2:0"

/// Attachment key for the chroma subsampling of the original data before it was converted to
/// 4:2:2 by pixel replication: one of the `kCVImageBufferChromaSubsampling_…` values.
public let kCVImageBufferChromaSubsamplingKey: CFString = "CVImageBufferChromaSubsampling"
/// 4:2:0 chroma subsampling.
public let kCVImageBufferChromaSubsampling_420: CFString = "4:2:0"
/// 4:2:2 chroma subsampling.
public let kCVImageBufferChromaSubsampling_422: CFString = "4:2:2"
/// 4:1:1 chroma subsampling.
public let kCVImageBufferChromaSubsampling_411: CFString = "4:1:1"

/// Attachment key whose `kCFBooleanTrue` value hints that the alpha channel is fully opaque.
public let kCVImageBufferAlphaChannelIsOpaque: CFString = "AlphaChannelIsOpaque"
/// Attachment key for whether alpha is straight or premultiplied: one of the
/// `kCVImageBufferAlphaChannelMode_…` values.
///
/// Apple does not publish the string value of this key or its two values: compare with the
/// constants, not with literals.
public let kCVImageBufferAlphaChannelModeKey: CFString = "AlphaChannelMode"
/// Alpha mode: color components are not multiplied by alpha.
public let kCVImageBufferAlphaChannelMode_StraightAlpha: CFString = "StraightAlpha"
/// Alpha mode: color components are premultiplied by alpha.
public let kCVImageBufferAlphaChannelMode_PremultipliedAlpha: CFString = "PremultipliedAlpha"

/// Attachment key for HDR mastering display color volume: 24 bytes of data, big-endian, as the
/// payload of the HEVC mastering display colour volume SEI message.
public let kCVImageBufferMasteringDisplayColorVolumeKey: CFString = "MasteringDisplayColorVolume"
/// Attachment key for HDR content light level information: 4 bytes of data, big-endian, as the
/// payload of the content light level information SEI message.
public let kCVImageBufferContentLightLevelInfoKey: CFString = "ContentLightLevelInfo"
/// Attachment key for the ambient viewing environment: 8 bytes of data, big-endian, as the
/// payload of the ambient viewing environment SEI message.
///
/// Apple does not publish the string value: compare with the constant, not with a literal.
public let kCVImageBufferAmbientViewingEnvironmentKey: CFString = "AmbientViewingEnvironment"

// MARK: Code points (ITU-T H.273)

/// The standard integer code point (ITU-T H.273 `MatrixCoefficients`) for a
/// `kCVImageBufferYCbCrMatrix_…` string; 2 ("unspecified") for nil or an unknown string.
public func CVYCbCrMatrixGetIntegerCodePointForString(_ yCbCrMatrixString: CFString?) -> Int32 {
    cvYCbCrMatrixCodePoints.first { $0.1 == yCbCrMatrixString }?.0 ?? 2
}

/// The standard integer code point (ITU-T H.273 `ColourPrimaries`) for a
/// `kCVImageBufferColorPrimaries_…` string; 2 ("unspecified") for nil or an unknown string.
public func CVColorPrimariesGetIntegerCodePointForString(_ colorPrimariesString: CFString?) -> Int32 {
    cvColorPrimariesCodePoints.first { $0.1 == colorPrimariesString }?.0 ?? 2
}

/// The standard integer code point (ITU-T H.273 `TransferCharacteristics`) for a
/// `kCVImageBufferTransferFunction_…` string; 2 ("unspecified") for nil or an unknown string.
public func CVTransferFunctionGetIntegerCodePointForString(_ transferFunctionString: CFString?) -> Int32 {
    cvTransferFunctionCodePoints.first { $0.1 == transferFunctionString }?.0 ?? 2
}

/// The `kCVImageBufferYCbCrMatrix_…` string for an ITU-T H.273 code point, unretained; nil for
/// 2 ("unspecified") or an unknown code point.
///
/// Differs from Apple: `CFString` is Swift's `String` here, so the result is an
/// `Unmanaged<NSString>` (Apple: `Unmanaged<CFString>`); `takeUnretainedValue()` gives the string.
public func CVYCbCrMatrixGetStringForIntegerCodePoint(_ yCbCrMatrixCodePoint: Int32) -> Unmanaged<NSString>? {
    cvYCbCrMatrixCodePoints.first { $0.0 == yCbCrMatrixCodePoint }.map { Unmanaged.passUnretained($0.1) }
}

/// The `kCVImageBufferColorPrimaries_…` string for an ITU-T H.273 code point, unretained; nil for
/// 2 ("unspecified") or an unknown code point.
///
/// Differs from Apple: the result is an `Unmanaged<NSString>` (Apple: `Unmanaged<CFString>`).
public func CVColorPrimariesGetStringForIntegerCodePoint(_ colorPrimariesCodePoint: Int32) -> Unmanaged<NSString>? {
    cvColorPrimariesCodePoints.first { $0.0 == colorPrimariesCodePoint }.map { Unmanaged.passUnretained($0.1) }
}

/// The `kCVImageBufferTransferFunction_…` string for an ITU-T H.273 code point, unretained; nil
/// for 2 ("unspecified") or an unknown code point.
///
/// Differs from Apple: the result is an `Unmanaged<NSString>` (Apple: `Unmanaged<CFString>`).
public func CVTransferFunctionGetStringForIntegerCodePoint(_ transferFunctionCodePoint: Int32) -> Unmanaged<NSString>? {
    cvTransferFunctionCodePoints.first { $0.0 == transferFunctionCodePoint }.map { Unmanaged.passUnretained($0.1) }
}

// The code point tables; the first entry for a string gives its code point (BT.601's matrix is
// both 5 and 6, BT.709's transfer function both 1 and 6, BT.2020's both 14 and 15).
private let cvYCbCrMatrixCodePoints: [(Int32, CFString)] = [
    (1, kCVImageBufferYCbCrMatrix_ITU_R_709_2), (6, kCVImageBufferYCbCrMatrix_ITU_R_601_4),
    (7, kCVImageBufferYCbCrMatrix_SMPTE_240M_1995), (9, kCVImageBufferYCbCrMatrix_ITU_R_2020),
    (5, kCVImageBufferYCbCrMatrix_ITU_R_601_4),
]
private let cvColorPrimariesCodePoints: [(Int32, CFString)] = [
    (1, kCVImageBufferColorPrimaries_ITU_R_709_2), (5, kCVImageBufferColorPrimaries_EBU_3213),
    (6, kCVImageBufferColorPrimaries_SMPTE_C), (9, kCVImageBufferColorPrimaries_ITU_R_2020),
    (11, kCVImageBufferColorPrimaries_DCI_P3), (12, kCVImageBufferColorPrimaries_P3_D65),
    (22, kCVImageBufferColorPrimaries_P22),
]
private let cvTransferFunctionCodePoints: [(Int32, CFString)] = [
    (1, kCVImageBufferTransferFunction_ITU_R_709_2), (7, kCVImageBufferTransferFunction_SMPTE_240M_1995),
    (8, kCVImageBufferTransferFunction_Linear), (13, kCVImageBufferTransferFunction_sRGB),
    (14, kCVImageBufferTransferFunction_ITU_R_2020), (16, kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ),
    (17, kCVImageBufferTransferFunction_SMPTE_ST_428_1), (18, kCVImageBufferTransferFunction_ITU_R_2100_HLG),
    (6, kCVImageBufferTransferFunction_ITU_R_709_2), (15, kCVImageBufferTransferFunction_ITU_R_2020),
]

// MARK: Functions

/// Returns the full encoded size of the image, in pixels (for example 720×480 for NTSC DV).
public func CVImageBufferGetEncodedSize(_ imageBuffer: CVImageBuffer) -> CGSize {
    CGSize(width: imageBuffer.width, height: imageBuffer.height)
}

/// Returns the clean aperture of the image in encoded pixels, origin at the lower-left corner;
/// the whole image when no `kCVImageBufferCleanApertureKey` attachment is present.
public func CVImageBufferGetCleanRect(_ imageBuffer: CVImageBuffer) -> CGRect {
    let full = CGRect(x: 0, y: 0, width: imageBuffer.width, height: imageBuffer.height)
    guard let aperture = imageBuffer.attachment(kCVImageBufferCleanApertureKey)?.value as? NSDictionary,
          let width = cvAttributeDouble(aperture, kCVImageBufferCleanApertureWidthKey),
          let height = cvAttributeDouble(aperture, kCVImageBufferCleanApertureHeightKey),
          width > 0, height > 0 else { return full }
    let horizontal = cvAttributeDouble(aperture, kCVImageBufferCleanApertureHorizontalOffsetKey) ?? 0
    let vertical = cvAttributeDouble(aperture, kCVImageBufferCleanApertureVerticalOffsetKey) ?? 0
    let x = (Double(imageBuffer.width) - width) / 2 + horizontal
    let y = (Double(imageBuffer.height) - height) / 2 - vertical
    return CGRect(x: x, y: y, width: width, height: height)
}

/// Returns the nominal display size in square pixels (for example 640×480 for NTSC DV): the
/// `kCVImageBufferDisplayDimensionsKey` attachment if present, otherwise the clean aperture
/// stretched horizontally by the pixel aspect ratio.
public func CVImageBufferGetDisplaySize(_ imageBuffer: CVImageBuffer) -> CGSize {
    if let dimensions = imageBuffer.attachment(kCVImageBufferDisplayDimensionsKey)?.value as? NSDictionary,
       let width = cvAttributeDouble(dimensions, kCVImageBufferDisplayWidthKey),
       let height = cvAttributeDouble(dimensions, kCVImageBufferDisplayHeightKey) {
        return CGSize(width: width, height: height)
    }
    let clean = CVImageBufferGetCleanRect(imageBuffer)
    var ratio = 1.0
    if let aspect = imageBuffer.attachment(kCVImageBufferPixelAspectRatioKey)?.value as? NSDictionary,
       let horizontal = cvAttributeDouble(aspect, kCVImageBufferPixelAspectRatioHorizontalSpacingKey),
       let vertical = cvAttributeDouble(aspect, kCVImageBufferPixelAspectRatioVerticalSpacingKey),
       horizontal > 0, vertical > 0 {
        ratio = horizontal / vertical
    }
    return CGSize(width: Double(clean.width) * ratio, height: Double(clean.height))
}

/// Returns whether the image's origin (0, 0) is its upper-left corner: always true here, since
/// OpenCoreVideo stores rows top to bottom.
public func CVImageBufferIsFlipped(_ imageBuffer: CVImageBuffer) -> Bool {
    true
}
