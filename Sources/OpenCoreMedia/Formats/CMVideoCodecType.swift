import Foundation
import OpenCoreVideo

/// A four-character code naming a video codec; the media subtype of a video format description.
public typealias CMVideoCodecType = FourCharCode

/// Y'CbCr 8-bit 4:2:2, ordered Cb Y'0 Cr Y'1 (`'2vuy'`).
public let kCMVideoCodecType_422YpCbCr8: CMVideoCodecType = 0x3276_7579 // '2vuy'
/// Apple Animation (`'rle '`).
public let kCMVideoCodecType_Animation: CMVideoCodecType = 0x726C_6520 // 'rle '
/// Cinepak (`'cvid'`).
public let kCMVideoCodecType_Cinepak: CMVideoCodecType = 0x6376_6964 // 'cvid'
/// JPEG (`'jpeg'`).
public let kCMVideoCodecType_JPEG: CMVideoCodecType = 0x6A70_6567 // 'jpeg'
/// Motion JPEG in the OpenDML variant (`'dmb1'`).
public let kCMVideoCodecType_JPEG_OpenDML: CMVideoCodecType = 0x646D_6231 // 'dmb1'
/// Sorenson Video (`'SVQ1'`).
public let kCMVideoCodecType_SorensonVideo: CMVideoCodecType = 0x5356_5131 // 'SVQ1'
/// Sorenson Video 3 (`'SVQ3'`).
public let kCMVideoCodecType_SorensonVideo3: CMVideoCodecType = 0x5356_5133 // 'SVQ3'
/// ITU-T H.263 (`'h263'`).
public let kCMVideoCodecType_H263: CMVideoCodecType = 0x6832_3633 // 'h263'
/// ITU-T H.264 / AVC (`'avc1'`).
public let kCMVideoCodecType_H264: CMVideoCodecType = 0x6176_6331 // 'avc1'
/// ITU-T H.265 / HEVC (`'hvc1'`).
public let kCMVideoCodecType_HEVC: CMVideoCodecType = 0x6876_6331 // 'hvc1'
/// HEVC with an alpha channel (`'muxa'`).
public let kCMVideoCodecType_HEVCWithAlpha: CMVideoCodecType = 0x6D75_7861 // 'muxa'
/// MPEG-4 Part 2 video (`'mp4v'`).
public let kCMVideoCodecType_MPEG4Video: CMVideoCodecType = 0x6D70_3476 // 'mp4v'
/// MPEG-2 video (`'mp2v'`).
public let kCMVideoCodecType_MPEG2Video: CMVideoCodecType = 0x6D70_3276 // 'mp2v'
/// MPEG-1 video (`'mp1v'`).
public let kCMVideoCodecType_MPEG1Video: CMVideoCodecType = 0x6D70_3176 // 'mp1v'
/// VP9 (`'vp09'`).
public let kCMVideoCodecType_VP9: CMVideoCodecType = 0x7670_3039 // 'vp09'
/// AV1 (`'av01'`).
public let kCMVideoCodecType_AV1: CMVideoCodecType = 0x6176_3031 // 'av01'
/// DV NTSC (`'dvc '`).
public let kCMVideoCodecType_DVCNTSC: CMVideoCodecType = 0x6476_6320 // 'dvc '
/// DV PAL (`'dvcp'`).
public let kCMVideoCodecType_DVCPAL: CMVideoCodecType = 0x6476_6370 // 'dvcp'
/// Apple ProRes 4444 XQ (`'ap4x'`).
public let kCMVideoCodecType_AppleProRes4444XQ: CMVideoCodecType = 0x6170_3478 // 'ap4x'
/// Apple ProRes 4444 (`'ap4h'`).
public let kCMVideoCodecType_AppleProRes4444: CMVideoCodecType = 0x6170_3468 // 'ap4h'
/// Apple ProRes 422 HQ (`'apch'`).
public let kCMVideoCodecType_AppleProRes422HQ: CMVideoCodecType = 0x6170_6368 // 'apch'
/// Apple ProRes 422 (`'apcn'`).
public let kCMVideoCodecType_AppleProRes422: CMVideoCodecType = 0x6170_636E // 'apcn'
/// Apple ProRes 422 LT (`'apcs'`).
public let kCMVideoCodecType_AppleProRes422LT: CMVideoCodecType = 0x6170_6373 // 'apcs'
/// Apple ProRes 422 Proxy (`'apco'`).
public let kCMVideoCodecType_AppleProRes422Proxy: CMVideoCodecType = 0x6170_636F // 'apco'
/// Apple ProRes RAW (`'aprn'`).
public let kCMVideoCodecType_AppleProResRAW: CMVideoCodecType = 0x6170_726E // 'aprn'
/// Apple ProRes RAW HQ (`'aprh'`).
public let kCMVideoCodecType_AppleProResRAWHQ: CMVideoCodecType = 0x6170_7268 // 'aprh'
