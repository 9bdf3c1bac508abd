/// A pixel format of CoreMedia's own list (a four-character code, or a small number for the
/// old QuickDraw formats); most equal their `kCVPixelFormatType_…` counterparts.
public typealias CMPixelFormatType = FourCharCode

/// 32-bit ARGB.
public let kCMPixelFormat_32ARGB: CMPixelFormatType = 32
/// 32-bit BGRA ('BGRA').
public let kCMPixelFormat_32BGRA: CMPixelFormatType = 0x4247_5241
/// 24-bit RGB.
public let kCMPixelFormat_24RGB: CMPixelFormatType = 24
/// 16-bit big-endian 5-5-5.
public let kCMPixelFormat_16BE555: CMPixelFormatType = 16
/// 16-bit big-endian 5-6-5 ('B565').
public let kCMPixelFormat_16BE565: CMPixelFormatType = 0x4235_3635
/// 16-bit little-endian 5-5-5 ('L555').
public let kCMPixelFormat_16LE555: CMPixelFormatType = 0x4C35_3535
/// 16-bit little-endian 5-6-5 ('L565').
public let kCMPixelFormat_16LE565: CMPixelFormatType = 0x4C35_3635
/// 16-bit little-endian 5-5-5-1 ('5551').
public let kCMPixelFormat_16LE5551: CMPixelFormatType = 0x3535_3531
/// 4:2:2 Y'CbCr, 8 bits, Cb Y0 Cr Y1 ('2vuy').
public let kCMPixelFormat_422YpCbCr8: CMPixelFormatType = 0x3276_7579
/// 4:2:2 Y'CbCr, 8 bits, Y0 Cb Y1 Cr ('yuvs').
public let kCMPixelFormat_422YpCbCr8_yuvs: CMPixelFormatType = 0x7975_7673
/// 4:4:4 Y'CbCr, 8 bits ('v308').
public let kCMPixelFormat_444YpCbCr8: CMPixelFormatType = 0x7633_3038
/// 4:4:4:4 Y'CbCrA, 8 bits ('v408').
public let kCMPixelFormat_4444YpCbCrA8: CMPixelFormatType = 0x7634_3038
/// 4:2:2 Y'CbCr, 16 bits ('v216').
public let kCMPixelFormat_422YpCbCr16: CMPixelFormatType = 0x7632_3136
/// 4:2:2 Y'CbCr, 10 bits ('v210').
public let kCMPixelFormat_422YpCbCr10: CMPixelFormatType = 0x7632_3130
/// 4:4:4 Y'CbCr, 10 bits ('v410').
public let kCMPixelFormat_444YpCbCr10: CMPixelFormatType = 0x7634_3130
/// 8-bit indexed gray, white is zero.
public let kCMPixelFormat_8IndexedGray_WhiteIsZero: CMPixelFormatType = 0x28
