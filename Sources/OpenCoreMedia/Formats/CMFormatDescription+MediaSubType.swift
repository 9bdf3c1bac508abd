import Foundation
import OpenCoreVideo

extension CMFormatDescription {
    /// The codec or format of a format description, as a Swift type.
    ///
    /// Differs from Apple: a subset of Apple's members (the codecs this library reads and writes).
    public struct MediaSubType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The four-character code, such as `kCMVideoCodecType_H264`.
        public let rawValue: FourCharCode
        /// Creates a subtype from its four-character code.
        public init(rawValue: FourCharCode) { self.rawValue = rawValue }
        /// Creates a subtype from a four-character code.
        public init(_ rawValue: FourCharCode) { self.rawValue = rawValue }

        /// H.264 (`'avc1'`).
        public static let h264 = MediaSubType(rawValue: kCMVideoCodecType_H264)
        /// HEVC (`'hvc1'`).
        public static let hevc = MediaSubType(rawValue: kCMVideoCodecType_HEVC)
        /// HEVC with alpha (`'muxa'`).
        public static let hevcWithAlpha = MediaSubType(rawValue: kCMVideoCodecType_HEVCWithAlpha)
        /// JPEG (`'jpeg'`).
        public static let jpeg = MediaSubType(rawValue: kCMVideoCodecType_JPEG)
        /// Motion JPEG, OpenDML (`'dmb1'`).
        public static let jpeg_OpenDML = MediaSubType(rawValue: kCMVideoCodecType_JPEG_OpenDML)
        /// H.263 (`'h263'`).
        public static let h263 = MediaSubType(rawValue: kCMVideoCodecType_H263)
        /// MPEG-4 Part 2 video (`'mp4v'`).
        public static let mpeg4Video = MediaSubType(rawValue: kCMVideoCodecType_MPEG4Video)
        /// MPEG-2 video (`'mp2v'`).
        public static let mpeg2Video = MediaSubType(rawValue: kCMVideoCodecType_MPEG2Video)
        /// MPEG-1 video (`'mp1v'`).
        public static let mpeg1Video = MediaSubType(rawValue: kCMVideoCodecType_MPEG1Video)
        /// VP9 (`'vp09'`).
        public static let vp9 = MediaSubType(rawValue: kCMVideoCodecType_VP9)
        /// Apple ProRes 4444 XQ (`'ap4x'`).
        public static let proRes4444XQ = MediaSubType(rawValue: kCMVideoCodecType_AppleProRes4444XQ)
        /// Apple ProRes 4444 (`'ap4h'`).
        public static let proRes4444 = MediaSubType(rawValue: kCMVideoCodecType_AppleProRes4444)
        /// Apple ProRes 422 HQ (`'apch'`).
        public static let proRes422HQ = MediaSubType(rawValue: kCMVideoCodecType_AppleProRes422HQ)
        /// Apple ProRes 422 (`'apcn'`).
        public static let proRes422 = MediaSubType(rawValue: kCMVideoCodecType_AppleProRes422)
        /// Apple ProRes 422 LT (`'apcs'`).
        public static let proRes422LT = MediaSubType(rawValue: kCMVideoCodecType_AppleProRes422LT)
        /// Apple ProRes 422 Proxy (`'apco'`).
        public static let proRes422Proxy = MediaSubType(rawValue: kCMVideoCodecType_AppleProRes422Proxy)
        /// Apple Animation (`'rle '`).
        public static let animation = MediaSubType(rawValue: kCMVideoCodecType_Animation)
        /// Linear PCM (`'lpcm'`).
        public static let linearPCM = MediaSubType(rawValue: kAudioFormatLinearPCM)
        /// AC-3 (`'ac-3'`).
        public static let ac3 = MediaSubType(rawValue: kAudioFormatAC3)
        /// Enhanced AC-3 (`'ec-3'`).
        public static let enhancedAC3 = MediaSubType(rawValue: kAudioFormatEnhancedAC3)
        /// MPEG-4 AAC (`'aac '`).
        public static let mpeg4AAC = MediaSubType(rawValue: kAudioFormatMPEG4AAC)
        /// MPEG-4 HE-AAC (`'aach'`).
        public static let mpeg4AAC_HE = MediaSubType(rawValue: kAudioFormatMPEG4AAC_HE)
        /// MPEG-4 HE-AAC v2 (`'aacp'`).
        public static let mpeg4AAC_HE_V2 = MediaSubType(rawValue: kAudioFormatMPEG4AAC_HE_V2)
        /// MPEG-4 AAC LD (`'aacl'`).
        public static let mpeg4AAC_LD = MediaSubType(rawValue: kAudioFormatMPEG4AAC_LD)
        /// MPEG-4 AAC ELD (`'aace'`).
        public static let mpeg4AAC_ELD = MediaSubType(rawValue: kAudioFormatMPEG4AAC_ELD)
        /// Apple Lossless (`'alac'`).
        public static let appleLossless = MediaSubType(rawValue: kAudioFormatAppleLossless)
        /// MPEG Layer 1 audio (`'.mp1'`).
        public static let mpegLayer1 = MediaSubType(rawValue: kAudioFormatMPEGLayer1)
        /// MPEG Layer 2 audio (`'.mp2'`).
        public static let mpegLayer2 = MediaSubType(rawValue: kAudioFormatMPEGLayer2)
        /// MPEG Layer 3 audio (`'.mp3'`).
        public static let mpegLayer3 = MediaSubType(rawValue: kAudioFormatMPEGLayer3)
        /// μ-law (`'ulaw'`).
        public static let uLaw = MediaSubType(rawValue: kAudioFormatULaw)
        /// A-law (`'alaw'`).
        public static let aLaw = MediaSubType(rawValue: kAudioFormatALaw)
        /// Opus (`'opus'`).
        public static let opus = MediaSubType(rawValue: kAudioFormatOpus)
        /// FLAC (`'flac'`).
        public static let flac = MediaSubType(rawValue: kAudioFormatFLAC)
        /// AMR narrow band (`'samr'`).
        public static let amr = MediaSubType(rawValue: kAudioFormatAMR)

        /// QuickTime text (`'text'`).
        public static let qt = MediaSubType(rawValue: kCMTextFormatType_QTText)
        /// 3GPP timed text (`'tx3g'`).
        public static let mobile3GPP = MediaSubType(rawValue: kCMTextFormatType_3GText)

        /// The four characters of the code, such as `avc1`.
        public var description: String { rawValue.fourCCString }
    }
}
