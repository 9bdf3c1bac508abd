// Pixel format type constants with the values of Apple's CVPixelBuffer.h, in its order. Only the
// formats in OpenCoreVideo's format table (`CVPixelFormatDescription.supportedPixelFormatTypes`) can
// be allocated; the others are declared so that code naming them compiles, and creating a buffer
// in them returns `kCVReturnInvalidPixelFormat`.

/// 1-bit indexed (`0x00000001`).
public let kCVPixelFormatType_1Monochrome: OSType = 0x0000_0001
/// 2-bit indexed (`0x00000002`).
public let kCVPixelFormatType_2Indexed: OSType = 0x0000_0002
/// 4-bit indexed (`0x00000004`).
public let kCVPixelFormatType_4Indexed: OSType = 0x0000_0004
/// 8-bit indexed (`0x00000008`).
public let kCVPixelFormatType_8Indexed: OSType = 0x0000_0008
/// 1-bit indexed gray, white is zero (`0x00000021`).
public let kCVPixelFormatType_1IndexedGray_WhiteIsZero: OSType = 0x0000_0021
/// 2-bit indexed gray, white is zero (`0x00000022`).
public let kCVPixelFormatType_2IndexedGray_WhiteIsZero: OSType = 0x0000_0022
/// 4-bit indexed gray, white is zero (`0x00000024`).
public let kCVPixelFormatType_4IndexedGray_WhiteIsZero: OSType = 0x0000_0024
/// 8-bit indexed gray, white is zero (`0x00000028`).
public let kCVPixelFormatType_8IndexedGray_WhiteIsZero: OSType = 0x0000_0028
/// 16-bit big-endian RGB 555 (`0x00000010`).
public let kCVPixelFormatType_16BE555: OSType = 0x0000_0010
/// 16-bit little-endian RGB 555 (`'L555'`).
public let kCVPixelFormatType_16LE555: OSType = 0x4C35_3535
/// 16-bit little-endian RGB 5551 (`'5551'`).
public let kCVPixelFormatType_16LE5551: OSType = 0x3535_3531
/// 16-bit big-endian RGB 565 (`'B565'`).
public let kCVPixelFormatType_16BE565: OSType = 0x4235_3635
/// 16-bit little-endian RGB 565 (`'L565'`).
public let kCVPixelFormatType_16LE565: OSType = 0x4C35_3635
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
/// 64-bit ARGB, 16-bit big-endian samples (`'b64a'`).
public let kCVPixelFormatType_64ARGB: OSType = 0x6236_3461
/// 64-bit RGBA, 16-bit little-endian full-range samples (`'l64r'`).
public let kCVPixelFormatType_64RGBALE: OSType = 0x6C36_3472
/// 48-bit RGB, 16-bit big-endian samples (`'b48r'`).
public let kCVPixelFormatType_48RGB: OSType = 0x6234_3872
/// 32-bit alpha and gray, 16-bit big-endian samples, black is zero (`'b32a'`).
public let kCVPixelFormatType_32AlphaGray: OSType = 0x6233_3261
/// 16-bit gray, big-endian, black is zero (`'b16g'`).
public let kCVPixelFormatType_16Gray: OSType = 0x6231_3667
/// 30-bit RGB, 10-bit big-endian samples, 2 unused padding bits at the least significant end (`'R10k'`).
public let kCVPixelFormatType_30RGB: OSType = 0x5231_306B
/// 8-bit 4:2:2 Y'CbCr, one plane ordered Cb Y'0 Cr Y'1, "UYVY" (`'2vuy'`).
public let kCVPixelFormatType_422YpCbCr8: OSType = 0x3276_7579
/// 8-bit 4:4:4:4 Y'CbCrA, ordered Cb Y' Cr A (`'v408'`).
public let kCVPixelFormatType_4444YpCbCrA8: OSType = 0x7634_3038
/// 8-bit 4:4:4:4 Y'CbCrA rendering format, ordered A Y' Cb Cr, full-range alpha, zero-biased Y'CbCr (`'r408'`).
public let kCVPixelFormatType_4444YpCbCrA8R: OSType = 0x7234_3038
/// 8-bit 4:4:4:4 AY'CbCr, ordered A Y' Cb Cr, full-range alpha, video-range Y'CbCr (`'y408'`).
public let kCVPixelFormatType_4444AYpCbCr8: OSType = 0x7934_3038
/// 16-bit 4:4:4:4 AY'CbCr, ordered A Y' Cb Cr, full-range alpha, video-range Y'CbCr, little-endian (`'y416'`).
public let kCVPixelFormatType_4444AYpCbCr16: OSType = 0x7934_3136
/// Single-precision floating-point 4:4:4:4 AY'CbCr (`'r4fl'`).
public let kCVPixelFormatType_4444AYpCbCrFloat: OSType = 0x7234_666C
/// 8-bit 4:4:4 Y'CbCr, ordered Cr Y' Cb, video range (`'v308'`).
public let kCVPixelFormatType_444YpCbCr8: OSType = 0x7633_3038
/// 10-, 12-, 14- or 16-bit 4:2:2 Y'CbCr (`'v216'`).
public let kCVPixelFormatType_422YpCbCr16: OSType = 0x7632_3136
/// 10-bit 4:2:2 Y'CbCr (`'v210'`).
public let kCVPixelFormatType_422YpCbCr10: OSType = 0x7632_3130
/// 10-bit 4:4:4 Y'CbCr (`'v410'`).
public let kCVPixelFormatType_444YpCbCr10: OSType = 0x7634_3130
/// 8-bit 4:2:0 Y'CbCr, three planes Y', Cb, Cr, video range (`'y420'`).
public let kCVPixelFormatType_420YpCbCr8Planar: OSType = 0x7934_3230
/// 8-bit 4:2:0 Y'CbCr, three planes Y', Cb, Cr, full range (`'f420'`).
public let kCVPixelFormatType_420YpCbCr8PlanarFullRange: OSType = 0x6634_3230
/// First plane video-range 8-bit 4:2:2 Y'CbCr ordered Cb Y'0 Cr Y'1, second plane 8-bit alpha (`'a2vy'`).
public let kCVPixelFormatType_422YpCbCr_4A_8BiPlanar: OSType = 0x6132_7679
/// 8-bit 4:2:0 Y'CbCr, two planes Y' and interleaved CbCr ("NV12"), video range (`'420v'`).
public let kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange: OSType = 0x3432_3076
/// 8-bit 4:2:0 Y'CbCr, two planes Y' and interleaved CbCr ("NV12"), full range (`'420f'`).
public let kCVPixelFormatType_420YpCbCr8BiPlanarFullRange: OSType = 0x3432_3066
/// 8-bit 4:2:2 Y'CbCr, two planes, video range (`'422v'`).
public let kCVPixelFormatType_422YpCbCr8BiPlanarVideoRange: OSType = 0x3432_3276
/// 8-bit 4:2:2 Y'CbCr, two planes, full range (`'422f'`).
public let kCVPixelFormatType_422YpCbCr8BiPlanarFullRange: OSType = 0x3432_3266
/// 8-bit 4:4:4 Y'CbCr, two planes, video range (`'444v'`).
public let kCVPixelFormatType_444YpCbCr8BiPlanarVideoRange: OSType = 0x3434_3476
/// 8-bit 4:4:4 Y'CbCr, two planes, full range (`'444f'`).
public let kCVPixelFormatType_444YpCbCr8BiPlanarFullRange: OSType = 0x3434_3466
/// 8-bit 4:2:2 Y'CbCr, one plane ordered Y'0 Cb Y'1 Cr, "YUYV" (`'yuvs'`).
public let kCVPixelFormatType_422YpCbCr8_yuvs: OSType = 0x7975_7673
/// 8-bit 4:2:2 Y'CbCr, full range, one plane ordered Y'0 Cb Y'1 Cr (`'yuvf'`).
public let kCVPixelFormatType_422YpCbCr8FullRange: OSType = 0x7975_7666
/// 8-bit one component (luma or gray), black is zero (`'L008'`).
public let kCVPixelFormatType_OneComponent8: OSType = 0x4C30_3038
/// 8-bit two components, black is zero (`'2C08'`).
public let kCVPixelFormatType_TwoComponent8: OSType = 0x3243_3038
/// Little-endian RGB101010, 2 most significant bits ignored, wide gamut (384-895) (`'w30r'`).
public let kCVPixelFormatType_30RGBLEPackedWideGamut: OSType = 0x7733_3072
/// Little-endian ARGB2101010, full range (`'l10r'`).
public let kCVPixelFormatType_ARGB2101010LEPacked: OSType = 0x6C31_3072
/// Little-endian ARGB10101010, each 10 bits in the most significant bits of 16, wide gamut (`'w40a'`).
public let kCVPixelFormatType_40ARGBLEWideGamut: OSType = 0x7734_3061
/// Little-endian ARGB10101010, each 10 bits in the most significant bits of 16, wide gamut, premultiplied alpha (`'w40m'`).
public let kCVPixelFormatType_40ARGBLEWideGamutPremultiplied: OSType = 0x7734_306D
/// 10-bit little-endian one component in the 10 most significant bits of 16, black is zero (`'L010'`).
public let kCVPixelFormatType_OneComponent10: OSType = 0x4C30_3130
/// 12-bit little-endian one component in the 12 most significant bits of 16, black is zero (`'L012'`).
public let kCVPixelFormatType_OneComponent12: OSType = 0x4C30_3132
/// 16-bit little-endian one component, black is zero (`'L016'`).
public let kCVPixelFormatType_OneComponent16: OSType = 0x4C30_3136
/// 16-bit little-endian two components, black is zero (`'2C16'`).
public let kCVPixelFormatType_TwoComponent16: OSType = 0x3243_3136
/// One IEEE half-precision float component, little-endian (`'L00h'`).
public let kCVPixelFormatType_OneComponent16Half: OSType = 0x4C30_3068
/// One IEEE single-precision float component, little-endian (`'L00f'`).
public let kCVPixelFormatType_OneComponent32Float: OSType = 0x4C30_3066
/// Two IEEE half-precision float components, little-endian (`'2C0h'`).
public let kCVPixelFormatType_TwoComponent16Half: OSType = 0x3243_3068
/// Two IEEE single-precision float components, little-endian (`'2C0f'`).
public let kCVPixelFormatType_TwoComponent32Float: OSType = 0x3243_3066
/// 64-bit RGBA, IEEE half-precision float, little-endian (`'RGhA'`).
public let kCVPixelFormatType_64RGBAHalf: OSType = 0x5247_6841
/// 128-bit RGBA, IEEE single-precision float, little-endian (`'RGfA'`).
public let kCVPixelFormatType_128RGBAFloat: OSType = 0x5247_6641
/// 14-bit little-endian Bayer in 16 bits, rows G R G R… alternating with B G B G… (`'grb4'`).
public let kCVPixelFormatType_14Bayer_GRBG: OSType = 0x6772_6234
/// 14-bit little-endian Bayer in 16 bits, rows R G R G… alternating with G B G B… (`'rgg4'`).
public let kCVPixelFormatType_14Bayer_RGGB: OSType = 0x7267_6734
/// 14-bit little-endian Bayer in 16 bits, rows B G B G… alternating with G R G R… (`'bgg4'`).
public let kCVPixelFormatType_14Bayer_BGGR: OSType = 0x6267_6734
/// 14-bit little-endian Bayer in 16 bits, rows G B G B… alternating with R G R G… (`'gbr4'`).
public let kCVPixelFormatType_14Bayer_GBRG: OSType = 0x6762_7234
/// Half-precision float disparity, in 1/meters (`'hdis'`).
public let kCVPixelFormatType_DisparityFloat16: OSType = 0x6864_6973
/// Single-precision float disparity, in 1/meters (`'fdis'`).
public let kCVPixelFormatType_DisparityFloat32: OSType = 0x6664_6973
/// Half-precision float depth, in meters (`'hdep'`).
public let kCVPixelFormatType_DepthFloat16: OSType = 0x6864_6570
/// Single-precision float depth, in meters (`'fdep'`).
public let kCVPixelFormatType_DepthFloat32: OSType = 0x6664_6570
/// 10-bit 4:2:0 Y'CbCr, two planes, samples in the high 10 bits of 16-bit little-endian words ("P010"), video range (`'x420'`).
public let kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange: OSType = 0x7834_3230
/// 10-bit 4:2:2 Y'CbCr, two planes, samples in the high 10 bits of 16, video range (`'x422'`).
public let kCVPixelFormatType_422YpCbCr10BiPlanarVideoRange: OSType = 0x7834_3232
/// 10-bit 4:4:4 Y'CbCr, two planes, samples in the high 10 bits of 16, video range (`'x444'`).
public let kCVPixelFormatType_444YpCbCr10BiPlanarVideoRange: OSType = 0x7834_3434
/// 10-bit 4:2:0 Y'CbCr, two planes, samples in the high 10 bits of 16-bit little-endian words ("P010"), full range (`'xf20'`).
public let kCVPixelFormatType_420YpCbCr10BiPlanarFullRange: OSType = 0x7866_3230
/// 10-bit 4:2:2 Y'CbCr, two planes, samples in the high 10 bits of 16, full range (`'xf22'`).
public let kCVPixelFormatType_422YpCbCr10BiPlanarFullRange: OSType = 0x7866_3232
/// 10-bit 4:4:4 Y'CbCr, two planes, samples in the high 10 bits of 16, full range (`'xf44'`).
public let kCVPixelFormatType_444YpCbCr10BiPlanarFullRange: OSType = 0x7866_3434
/// 8-bit 4:2:0 Y'CbCr as `'420v'` plus a third plane of full-range 8-bit alpha (`'v0a8'`).
public let kCVPixelFormatType_420YpCbCr8VideoRange_8A_TriPlanar: OSType = 0x7630_6138
/// 16-bit little-endian Bayer sensel samples from full-size ProRes RAW decoding (`'bp16'`).
public let kCVPixelFormatType_16VersatileBayer: OSType = 0x6270_3136
/// 64-bit RGBA (16-bit little-endian samples) from downscaled ProRes RAW decoding (`'bp64'`).
public let kCVPixelFormatType_64RGBA_DownscaledProResRAW: OSType = 0x6270_3634
/// 16-bit 4:2:2 Y'CbCr, two planes, video range (`'sv22'`).
public let kCVPixelFormatType_422YpCbCr16BiPlanarVideoRange: OSType = 0x7376_3232
/// 16-bit 4:4:4 Y'CbCr, two planes, video range (`'sv44'`).
public let kCVPixelFormatType_444YpCbCr16BiPlanarVideoRange: OSType = 0x7376_3434
/// 16-bit 4:4:4 Y'CbCr, video range, with a third plane of 16-bit full-range alpha (`'s4as'`).
public let kCVPixelFormatType_444YpCbCr16VideoRange_16A_TriPlanar: OSType = 0x7334_6173
/// Lossless-compressed form of `kCVPixelFormatType_32BGRA` (`'&BGA'`).
public let kCVPixelFormatType_Lossless_32BGRA: OSType = 0x2642_4741
/// Lossless-compressed form of `kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange` (`'&8v0'`).
public let kCVPixelFormatType_Lossless_420YpCbCr8BiPlanarVideoRange: OSType = 0x2638_7630
/// Lossless-compressed form of `kCVPixelFormatType_420YpCbCr8BiPlanarFullRange` (`'&8f0'`).
public let kCVPixelFormatType_Lossless_420YpCbCr8BiPlanarFullRange: OSType = 0x2638_6630
/// Lossless-compressed, packed form of `kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange` (`'&xv0'`).
public let kCVPixelFormatType_Lossless_420YpCbCr10PackedBiPlanarVideoRange: OSType = 0x2678_7630
/// Lossless-compressed, packed form of `kCVPixelFormatType_422YpCbCr10BiPlanarVideoRange` (`'&xv2'`).
public let kCVPixelFormatType_Lossless_422YpCbCr10PackedBiPlanarVideoRange: OSType = 0x2678_7632
/// Lossy-compressed form of `kCVPixelFormatType_32BGRA` (`'-BGA'`).
public let kCVPixelFormatType_Lossy_32BGRA: OSType = 0x2D42_4741
/// Lossy-compressed form of `kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange` (`'-8v0'`).
public let kCVPixelFormatType_Lossy_420YpCbCr8BiPlanarVideoRange: OSType = 0x2D38_7630
/// Lossy-compressed form of `kCVPixelFormatType_420YpCbCr8BiPlanarFullRange` (`'-8f0'`).
public let kCVPixelFormatType_Lossy_420YpCbCr8BiPlanarFullRange: OSType = 0x2D38_6630
/// Lossy-compressed, packed form of `kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange` (`'-xv0'`).
public let kCVPixelFormatType_Lossy_420YpCbCr10PackedBiPlanarVideoRange: OSType = 0x2D78_7630
/// Lossy-compressed, packed form of `kCVPixelFormatType_422YpCbCr10BiPlanarVideoRange` (`'-xv2'`).
public let kCVPixelFormatType_Lossy_422YpCbCr10PackedBiPlanarVideoRange: OSType = 0x2D78_7632
