// The video settings keys and values of output settings dictionaries (AVFoundation's
// AVVideoSettings.h), with Apple's string values.
//
// Names are from Apple's SDK header; values were checked against Apple's own framework code
// and dictionaries printed by Apple's classes, except the pixel aspect ratio and clean aperture
// sub-keys and AVVideoEncoderSpecificationKey, whose values follow CoreMedia's (the sub-keys) and
// the header's naming (the specification key): code uses the constants, never the strings.

// MARK: Top-level keys

/// The codec of compressed output, an `AVVideoCodecType` raw value such as "avc1" (`String`).
public let AVVideoCodecKey: String = "AVVideoCodecKey"
/// The width of the encoded picture in pixels (`NSNumber`); use even values for 4:2:0 codecs.
public let AVVideoWidthKey: String = "AVVideoWidthKey"
/// The height of the encoded picture in pixels (`NSNumber`); use even values for 4:2:0 codecs.
public let AVVideoHeightKey: String = "AVVideoHeightKey"
/// The aspect ratio of the pixels, a dictionary of horizontal and vertical spacing.
public let AVVideoPixelAspectRatioKey: String = "AVVideoPixelAspectRatioKey"
/// The horizontal spacing of a pixel aspect ratio, in the `AVVideoPixelAspectRatioKey`
/// dictionary (`NSNumber`).
public let AVVideoPixelAspectRatioHorizontalSpacingKey: String = "HorizontalSpacing"
/// The vertical spacing of a pixel aspect ratio, in the `AVVideoPixelAspectRatioKey`
/// dictionary (`NSNumber`).
public let AVVideoPixelAspectRatioVerticalSpacingKey: String = "VerticalSpacing"
/// The region of the picture shown during playback, a dictionary of width, height and offsets.
public let AVVideoCleanApertureKey: String = "AVVideoCleanApertureKey"
/// The clean aperture's width in pixels, in the `AVVideoCleanApertureKey` dictionary (`NSNumber`).
public let AVVideoCleanApertureWidthKey: String = "Width"
/// The clean aperture's height in pixels, in the `AVVideoCleanApertureKey` dictionary (`NSNumber`).
public let AVVideoCleanApertureHeightKey: String = "Height"
/// The clean aperture's horizontal offset from the picture's centre, in the
/// `AVVideoCleanApertureKey` dictionary (`NSNumber`).
public let AVVideoCleanApertureHorizontalOffsetKey: String = "HorizontalOffset"
/// The clean aperture's vertical offset from the picture's centre, in the
/// `AVVideoCleanApertureKey` dictionary (`NSNumber`).
public let AVVideoCleanApertureVerticalOffsetKey: String = "VerticalOffset"
/// How the source is scaled to the output dimensions, one of the `AVVideoScalingMode…` values.
public let AVVideoScalingModeKey: String = "AVVideoScalingModeKey"
/// Whether the client can process wide color (`Bool`); default false.
public let AVVideoAllowWideColorKey: String = "AVVideoAllowWideColorKey"
/// Properties passed to the video encoder, a dictionary of the compression keys below.
public let AVVideoCompressionPropertiesKey: String = "AVVideoCompressionPropertiesKey"
/// Properties passed to the video decoder, a dictionary.
public let AVVideoDecompressionPropertiesKey: String = "AVVideoDecompressionPropertiesKey"
/// The encoder to use, a dictionary of VideoToolbox encoder specification keys.
///
/// Differs from Apple: there is no VideoToolbox here, so a writer input refuses settings that
/// carry this key (`canApply(outputSettings:forMediaType:)` is false).
public let AVVideoEncoderSpecificationKey: String = "AVVideoEncoderSpecificationKey"

// MARK: Scaling modes

/// Crops the edge processing region and keeps the aspect ratio by reducing the width or height;
/// never scales a small source up.
public let AVVideoScalingModeFit: String = "AVVideoScalingModeFit"
/// Crops the edge processing region and scales the rest to the destination, ignoring aspect.
public let AVVideoScalingModeResize: String = "AVVideoScalingModeResize"
/// Keeps the source's aspect ratio and fills the remaining area with black.
public let AVVideoScalingModeResizeAspect: String = "AVVideoScalingModeResizeAspect"
/// Keeps the source's aspect ratio and crops the picture to fill the destination.
public let AVVideoScalingModeResizeAspectFill: String = "AVVideoScalingModeResizeAspectFill"

// MARK: Color properties

/// The color of the output, a dictionary with all three of the keys below.
public let AVVideoColorPropertiesKey: String = "AVVideoColorPropertiesKey"
/// The color primaries, one of the `AVVideoColorPrimaries_…` values (`String`).
public let AVVideoColorPrimariesKey: String = "ColorPrimaries"
/// The transfer function, one of the `AVVideoTransferFunction_…` values (`String`).
public let AVVideoTransferFunctionKey: String = "TransferFunction"
/// The Y'CbCr matrix, one of the `AVVideoYCbCrMatrix_…` values (`String`).
public let AVVideoYCbCrMatrixKey: String = "YCbCrMatrix"

/// The ITU-R BT.709 color primaries (HD).
public let AVVideoColorPrimaries_ITU_R_709_2: String = "ITU_R_709_2"
/// The EBU Tech. 3213 color primaries (PAL); Apple offers it on macOS only.
public let AVVideoColorPrimaries_EBU_3213: String = "EBU_3213"
/// The SMPTE-C color primaries (SD).
public let AVVideoColorPrimaries_SMPTE_C: String = "SMPTE_C"
/// The P3 primaries with a D65 white point (wide gamut).
public let AVVideoColorPrimaries_P3_D65: String = "P3_D65"
/// The ITU-R BT.2020 color primaries (UHD, HDR).
public let AVVideoColorPrimaries_ITU_R_2020: String = "ITU_R_2020"

/// The ITU-R BT.709 transfer function.
public let AVVideoTransferFunction_ITU_R_709_2: String = "ITU_R_709_2"
/// The SMPTE ST 2084 perceptual quantizer (PQ) transfer function (HDR10).
public let AVVideoTransferFunction_SMPTE_ST_2084_PQ: String = "SMPTE_ST_2084_PQ"
/// The ITU-R BT.2100 hybrid log-gamma (HLG) transfer function.
public let AVVideoTransferFunction_ITU_R_2100_HLG: String = "ITU_R_2100_HLG"
/// The SMPTE 240M transfer function; Apple offers it on macOS only.
public let AVVideoTransferFunction_SMPTE_240M_1995: String = "SMPTE_240M_1995"
/// The linear transfer function.
public let AVVideoTransferFunction_Linear: String = "Linear"
/// The IEC 61966-2-1 sRGB transfer function.
public let AVVideoTransferFunction_IEC_sRGB: String = "IEC_sRGB"

/// The ITU-R BT.709 Y'CbCr matrix (HD).
public let AVVideoYCbCrMatrix_ITU_R_709_2: String = "ITU_R_709_2"
/// The ITU-R BT.601 Y'CbCr matrix (SD).
public let AVVideoYCbCrMatrix_ITU_R_601_4: String = "ITU_R_601_4"
/// The SMPTE 240M Y'CbCr matrix; Apple offers it on macOS only.
public let AVVideoYCbCrMatrix_SMPTE_240M_1995: String = "SMPTE_240M_1995"
/// The ITU-R BT.2020 Y'CbCr matrix.
public let AVVideoYCbCrMatrix_ITU_R_2020: String = "ITU_R_2020"

// MARK: Compression property keys

/// The average bit rate in bits per second (`NSNumber`).
public let AVVideoAverageBitRateKey: String = "AverageBitRate"
/// The quality from 0.0 to 1.0 (`NSNumber`); for JPEG (and HEIC on Apple platforms).
public let AVVideoQualityKey: String = "Quality"
/// The largest distance between key frames in frames, 1 for key frames only (`NSNumber`).
public let AVVideoMaxKeyFrameIntervalKey: String = "MaxKeyFrameInterval"
/// The largest distance between key frames in seconds, 0.0 for no limit (`NSNumber`).
public let AVVideoMaxKeyFrameIntervalDurationKey: String = "MaxKeyFrameIntervalDuration"
/// Whether the encoder may reorder frames (B-frames) (`Bool`); default true.
public let AVVideoAllowFrameReorderingKey: String = "AllowFrameReordering"
/// The profile and level, one of the `AVVideoProfileLevel…` values (`String`).
public let AVVideoProfileLevelKey: String = "ProfileLevel"
/// The H.264 entropy coding, `AVVideoH264EntropyModeCAVLC` or `AVVideoH264EntropyModeCABAC`.
public let AVVideoH264EntropyModeKey: String = "H264EntropyMode"
/// The expected source frame rate in frames per second, a hint to the encoder (`NSNumber`).
public let AVVideoExpectedSourceFrameRateKey: String = "ExpectedFrameRate"
/// The desired average number of non-droppable frames per second (`NSNumber`).
public let AVVideoAverageNonDroppableFrameRateKey: String = "AverageNonDroppableFrameRate"

// MARK: H.264 entropy modes

/// Context-based adaptive variable length coding.
public let AVVideoH264EntropyModeCAVLC: String = "CAVLC"
/// Context-based adaptive binary arithmetic coding (Main and High profiles).
public let AVVideoH264EntropyModeCABAC: String = "CABAC"

// MARK: H.264 profiles and levels

/// H.264 Baseline profile, level 3.0.
public let AVVideoProfileLevelH264Baseline30: String = "H264_Baseline_3_0"
/// H.264 Baseline profile, level 3.1.
public let AVVideoProfileLevelH264Baseline31: String = "H264_Baseline_3_1"
/// H.264 Baseline profile, level 4.1.
public let AVVideoProfileLevelH264Baseline41: String = "H264_Baseline_4_1"
/// H.264 Baseline profile, level chosen by the encoder.
public let AVVideoProfileLevelH264BaselineAutoLevel: String = "H264_Baseline_AutoLevel"
/// H.264 Main profile, level 3.0.
public let AVVideoProfileLevelH264Main30: String = "H264_Main_3_0"
/// H.264 Main profile, level 3.1.
public let AVVideoProfileLevelH264Main31: String = "H264_Main_3_1"
/// H.264 Main profile, level 3.2.
public let AVVideoProfileLevelH264Main32: String = "H264_Main_3_2"
/// H.264 Main profile, level 4.1.
public let AVVideoProfileLevelH264Main41: String = "H264_Main_4_1"
/// H.264 Main profile, level chosen by the encoder.
public let AVVideoProfileLevelH264MainAutoLevel: String = "H264_Main_AutoLevel"
/// H.264 High profile, level 4.0.
public let AVVideoProfileLevelH264High40: String = "H264_High_4_0"
/// H.264 High profile, level 4.1.
public let AVVideoProfileLevelH264High41: String = "H264_High_4_1"
/// H.264 High profile, level chosen by the encoder.
public let AVVideoProfileLevelH264HighAutoLevel: String = "H264_High_AutoLevel"

// MARK: Older codec spellings

/// The H.264 codec ("avc1"). Apple deprecates it in favour of `AVVideoCodecType.h264`.
public let AVVideoCodecH264: String = "avc1"
/// The JPEG codec ("jpeg"). Apple deprecates it in favour of `AVVideoCodecType.jpeg`.
public let AVVideoCodecJPEG: String = "jpeg"
/// The HEVC codec ("hvc1"). Apple deprecates it in favour of `AVVideoCodecType.hevc`.
public let AVVideoCodecHEVC: String = "hvc1"
/// The Apple ProRes 4444 codec ("ap4h"). Apple deprecates it in favour of `.proRes4444`.
/// Differs from Apple: available on every platform, not only macOS.
public let AVVideoCodecAppleProRes4444: String = "ap4h"
/// The Apple ProRes 422 codec ("apcn"). Apple deprecates it in favour of `.proRes422`.
/// Differs from Apple: available on every platform, not only macOS.
public let AVVideoCodecAppleProRes422: String = "apcn"
