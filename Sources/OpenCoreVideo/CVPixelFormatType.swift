// Pixel format type constants with the values of Apple's CVPixelBuffer.h. Only the formats listed
// in `CVPixelFormatDescription.supported` can be allocated; the others are declared so that code
// naming them compiles, and creating a buffer in them returns `kCVReturnInvalidPixelFormat`.

/// 24-bit RGB, bytes R G B (`0x00000018`).
public let kCVPixelFormatType_24RGB: OSType = 0x0000_0018
/// 24-bit BGR, bytes B G R (`'24BG'`).
public let kCVPixelFormatType_24BGR: OSType = 0x3234_4247
/// 32-bit ARGB, bytes A R G B (`0x00000020`).
public let kCVPixelFormatType_32ARGB: OSType = 0x0000_0020
/// 32-bit BGRA, bytes B G R A (`'BGRA'`).
public let kCVPixelFormatType_32BGRA: OSType = 0x4247_5241
/// 32-bit ABGR, bytes A B G R (`'ABGR'`).
public let kCVPixelFormatType_32ABGR: OSType = 0x4142_4752
/// 32-bit RGBA, bytes R G B A (`'RGBA'`).
public let kCVPixelFormatType_32RGBA: OSType = 0x5247_4241
/// 8-bit 4:2:2 Y'CbCr, one plane ordered Cb Y'0 Cr Y'1, "UYVY" (`'2vuy'`).
public let kCVPixelFormatType_422YpCbCr8: OSType = 0x3276_7579
/// 8-bit 4:2:2 Y'CbCr, one plane ordered Y'0 Cb Y'1 Cr, "YUYV" (`'yuvs'`).
public let kCVPixelFormatType_422YpCbCr8_yuvs: OSType = 0x7975_7673
/// 8-bit 4:2:0 Y'CbCr, three planes Y', Cb, Cr, video range (`'y420'`).
public let kCVPixelFormatType_420YpCbCr8Planar: OSType = 0x7934_3230
/// 8-bit 4:2:0 Y'CbCr, three planes Y', Cb, Cr, full range (`'f420'`).
public let kCVPixelFormatType_420YpCbCr8PlanarFullRange: OSType = 0x6634_3230
/// 8-bit 4:2:0 Y'CbCr, two planes Y' and interleaved CbCr ("NV12"), video range (`'420v'`).
public let kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange: OSType = 0x3432_3076
/// 8-bit 4:2:0 Y'CbCr, two planes Y' and interleaved CbCr ("NV12"), full range (`'420f'`).
public let kCVPixelFormatType_420YpCbCr8BiPlanarFullRange: OSType = 0x3432_3066
/// 10-bit 4:2:0 Y'CbCr, two planes, samples in the high 10 bits of 16-bit little-endian words
/// ("P010"), video range (`'x420'`).
public let kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange: OSType = 0x7834_3230
/// 10-bit 4:2:0 Y'CbCr, two planes, samples in the high 10 bits of 16-bit little-endian words
/// ("P010"), full range (`'xf20'`).
public let kCVPixelFormatType_420YpCbCr10BiPlanarFullRange: OSType = 0x7866_3230
/// 8-bit one component (luma or gray), black is zero (`'L008'`).
public let kCVPixelFormatType_OneComponent8: OSType = 0x4C30_3038
