import Foundation
import OpenCoreVideo

// Keys of a format description's extensions dictionary, with Apple's string values.

/// The codec's human-readable name (`CFString`).
public let kCMFormatDescriptionExtension_FormatName: CFString = "FormatName"
/// Pixel depth: 24 for RGB, 32 for RGBA (`CFNumber`).
public let kCMFormatDescriptionExtension_Depth: CFString = "Depth"
/// The clean aperture, a dictionary of `kCMFormatDescriptionKey_CleanAperture…` keys.
public let kCMFormatDescriptionExtension_CleanAperture: CFString = "CVCleanAperture"
/// Clean aperture width in pixels (`CFNumber`).
public let kCMFormatDescriptionKey_CleanApertureWidth: CFString = "Width"
/// Clean aperture height in pixels (`CFNumber`).
public let kCMFormatDescriptionKey_CleanApertureHeight: CFString = "Height"
/// Horizontal offset of the clean aperture's center from the picture's center (`CFNumber`).
public let kCMFormatDescriptionKey_CleanApertureHorizontalOffset: CFString = "HorizontalOffset"
/// Vertical offset of the clean aperture's center from the picture's center (`CFNumber`).
public let kCMFormatDescriptionKey_CleanApertureVerticalOffset: CFString = "VerticalOffset"
/// Clean aperture width as `[numerator, denominator]` (`CFArray` of two `CFNumber`s).
public let kCMFormatDescriptionKey_CleanApertureWidthRational: CFString = "WidthRational"
/// Clean aperture height as `[numerator, denominator]`.
public let kCMFormatDescriptionKey_CleanApertureHeightRational: CFString = "HeightRational"
/// Clean aperture horizontal offset as `[numerator, denominator]`.
public let kCMFormatDescriptionKey_CleanApertureHorizontalOffsetRational: CFString = "HorizontalOffsetRational"
/// Clean aperture vertical offset as `[numerator, denominator]`.
public let kCMFormatDescriptionKey_CleanApertureVerticalOffsetRational: CFString = "VerticalOffsetRational"
/// Pixel aspect ratio, a dictionary of the two spacing keys below.
public let kCMFormatDescriptionExtension_PixelAspectRatio: CFString = "CVPixelAspectRatio"
/// Horizontal spacing of the pixel aspect ratio (`CFNumber`).
public let kCMFormatDescriptionKey_PixelAspectRatioHorizontalSpacing: CFString = "HorizontalSpacing"
/// Vertical spacing of the pixel aspect ratio (`CFNumber`).
public let kCMFormatDescriptionKey_PixelAspectRatioVerticalSpacing: CFString = "VerticalSpacing"
/// Color primaries, such as `ITU_R_709_2` (`CFString`).
public let kCMFormatDescriptionExtension_ColorPrimaries: CFString = "CVImageBufferColorPrimaries"
/// Transfer function, such as `ITU_R_709_2` (`CFString`).
public let kCMFormatDescriptionExtension_TransferFunction: CFString = "CVImageBufferTransferFunction"
/// Y'CbCr matrix, such as `ITU_R_709_2` (`CFString`).
public let kCMFormatDescriptionExtension_YCbCrMatrix: CFString = "CVImageBufferYCbCrMatrix"
/// Gamma level (`CFNumber`).
public let kCMFormatDescriptionExtension_GammaLevel: CFString = "CVImageBufferGammaLevel"
/// Whether video uses the full range of sample values (`CFBoolean`).
public let kCMFormatDescriptionExtension_FullRangeVideo: CFString = "FullRangeVideo"
/// Extra sample-description atoms such as `avcC` or `hvcC`, keyed by atom type (`CFDictionary`
/// of `CFData`).
public let kCMFormatDescriptionExtension_SampleDescriptionExtensionAtoms: CFString = "SampleDescriptionExtensionAtoms"
/// Number of fields per frame: 1 progressive, 2 interlaced (`CFNumber`).
public let kCMFormatDescriptionExtension_FieldCount: CFString = "CVFieldCount"
/// Field order of interlaced video (`CFString`).
public let kCMFormatDescriptionExtension_FieldDetail: CFString = "CVFieldDetail"
/// The original sample description bytes read from a file (`CFData`).
public let kCMFormatDescriptionExtension_VerbatimSampleDescription: CFString = "VerbatimSampleDescription"
/// The original ISO sample entry bytes read from a file (`CFData`).
public let kCMFormatDescriptionExtension_VerbatimISOSampleEntry: CFString = "VerbatimISOSampleEntry"
/// Bytes per row of uncompressed video (`CFNumber`).
public let kCMFormatDescriptionExtension_BytesPerRow: CFString = "CVBytesPerRow"
/// Sample description version (`CFNumber`).
public let kCMFormatDescriptionExtension_Version: CFString = "Version"
/// Sample description revision level (`CFNumber`).
public let kCMFormatDescriptionExtension_RevisionLevel: CFString = "RevisionLevel"
/// Four-character code of the encoder's vendor (`CFString` or `CFNumber`).
public let kCMFormatDescriptionExtension_Vendor: CFString = "Vendor"
