import OpenCoreVideo

// Values of the colour extensions of a video format description
// (`kCMFormatDescriptionExtension_ColorPrimaries`, `…_TransferFunction`, `…_YCbCrMatrix`), with
// Apple's strings: the same as CoreVideo's `kCVImageBuffer…` values, so a format description's
// value compares equal (`==`) with either.

/// Colour primaries of HD video (ITU-R BT.709).
public let kCMFormatDescriptionColorPrimaries_ITU_R_709_2: CFString = kCVImageBufferColorPrimaries_ITU_R_709_2
/// Colour primaries of PAL video (EBU 3213).
public let kCMFormatDescriptionColorPrimaries_EBU_3213: CFString = kCVImageBufferColorPrimaries_EBU_3213
/// Colour primaries of standard-definition NTSC video (SMPTE C).
public let kCMFormatDescriptionColorPrimaries_SMPTE_C: CFString = kCVImageBufferColorPrimaries_SMPTE_C
/// Colour primaries of digital cinema (DCI P3).
public let kCMFormatDescriptionColorPrimaries_DCI_P3: CFString = kCVImageBufferColorPrimaries_DCI_P3
/// Colour primaries of Display P3 (P3 with a D65 white point).
public let kCMFormatDescriptionColorPrimaries_P3_D65: CFString = kCVImageBufferColorPrimaries_P3_D65
/// Colour primaries of UHD and HDR video (ITU-R BT.2020).
public let kCMFormatDescriptionColorPrimaries_ITU_R_2020: CFString = kCVImageBufferColorPrimaries_ITU_R_2020
/// Colour primaries of P22 phosphors (sRGB displays).
public let kCMFormatDescriptionColorPrimaries_P22: CFString = kCVImageBufferColorPrimaries_P22

/// The transfer function of HD and SD video (ITU-R BT.709).
public let kCMFormatDescriptionTransferFunction_ITU_R_709_2: CFString = kCVImageBufferTransferFunction_ITU_R_709_2
/// The SMPTE 240M transfer function.
public let kCMFormatDescriptionTransferFunction_SMPTE_240M_1995: CFString = kCVImageBufferTransferFunction_SMPTE_240M_1995
/// A pure gamma curve, its exponent in `kCMFormatDescriptionExtension_GammaLevel`.
public let kCMFormatDescriptionTransferFunction_UseGamma: CFString = kCVImageBufferTransferFunction_UseGamma
/// The ITU-R BT.2020 transfer function.
public let kCMFormatDescriptionTransferFunction_ITU_R_2020: CFString = kCVImageBufferTransferFunction_ITU_R_2020
/// The SMPTE ST 428-1 transfer function (digital cinema).
public let kCMFormatDescriptionTransferFunction_SMPTE_ST_428_1: CFString = kCVImageBufferTransferFunction_SMPTE_ST_428_1
/// The perceptual quantizer of HDR video (SMPTE ST 2084).
public let kCMFormatDescriptionTransferFunction_SMPTE_ST_2084_PQ: CFString = kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ
/// Hybrid log-gamma HDR video (ITU-R BT.2100).
public let kCMFormatDescriptionTransferFunction_ITU_R_2100_HLG: CFString = kCVImageBufferTransferFunction_ITU_R_2100_HLG
/// Linear light.
public let kCMFormatDescriptionTransferFunction_Linear: CFString = kCVImageBufferTransferFunction_Linear
/// The sRGB transfer function (IEC 61966-2-1).
public let kCMFormatDescriptionTransferFunction_sRGB: CFString = kCVImageBufferTransferFunction_sRGB

/// The Y'CbCr matrix of HD video (ITU-R BT.709).
public let kCMFormatDescriptionYCbCrMatrix_ITU_R_709_2: CFString = kCVImageBufferYCbCrMatrix_ITU_R_709_2
/// The Y'CbCr matrix of SD video (ITU-R BT.601).
public let kCMFormatDescriptionYCbCrMatrix_ITU_R_601_4: CFString = kCVImageBufferYCbCrMatrix_ITU_R_601_4
/// The SMPTE 240M Y'CbCr matrix.
public let kCMFormatDescriptionYCbCrMatrix_SMPTE_240M_1995: CFString = kCVImageBufferYCbCrMatrix_SMPTE_240M_1995
/// The Y'CbCr matrix of UHD and HDR video (ITU-R BT.2020, non-constant luminance).
public let kCMFormatDescriptionYCbCrMatrix_ITU_R_2020: CFString = kCVImageBufferYCbCrMatrix_ITU_R_2020
