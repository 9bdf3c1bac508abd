import CFFmpeg
import OpenCoreMedia
import OpenCoreVideo

/// What an `Encoder` makes: a video or an audio encoding, in CoreMedia's terms. The public
/// layer's output-settings dictionaries (`AVVideoCodecKey`, `AVFormatIDKey`, …) map onto this.
///
/// Defaults (every optional left nil):
/// - H.264 (libx264) and HEVC (libx265): constant quality at the encoder's own default (CRF 23
///   for x264, 28 for x265), preset `veryfast` (real-time friendly: a 1080p30 capture encodes
///   in real time on two cores; `medium` gives about 10 % smaller files at three times the
///   CPU), key frames at most every 2 s of the expected frame rate (60 frames when the rate is
///   unknown), B-frames as the preset chooses (3 for `veryfast`), 4:2:0 8-bit (10-bit for HEVC
///   Main 10).
/// - JPEG (mjpeg): quality 0.75 (quantiser 9), full-range 4:2:0.
/// - ProRes (prores_ks): the profile's own rate, 4:2:2 10-bit (4:4:4:4 10-bit for 4444).
/// - AAC: 128 kbit/s per stereo pair (64 kbit/s per channel), ALAC/PCM lossless, Opus
///   (libopus) 96 kbit/s per stereo pair.
package enum EncoderSettings: Sendable, Equatable {
    /// A video encoding.
    case video(Video)
    /// An audio encoding.
    case audio(Audio)

    // MARK: Video

    /// A video codec the engine encodes.
    package enum VideoCodec: String, Sendable, Equatable, CaseIterable {
        /// H.264 / AVC with libx264 ('avc1').
        case h264
        /// HEVC with libx265, tagged 'hvc1' in QuickTime and MPEG-4 files.
        case hevc
        /// Motion JPEG with FFmpeg's mjpeg ('jpeg').
        case jpeg
        /// Apple ProRes 422 with prores_ks ('apcn').
        case proRes422
        /// Apple ProRes 422 HQ ('apch').
        case proRes422HQ
        /// Apple ProRes 422 LT ('apcs').
        case proRes422LT
        /// Apple ProRes 422 Proxy ('apco').
        case proRes422Proxy
        /// Apple ProRes 4444 ('ap4h'), with alpha.
        case proRes4444

        /// FFmpeg's encoder name.
        package var encoderName: String {
            switch self {
            case .h264: "libx264"
            case .hevc: "libx265"
            case .jpeg: "mjpeg"
            case .proRes422, .proRes422HQ, .proRes422LT, .proRes422Proxy, .proRes4444: "prores_ks"
            }
        }

        /// prores_ks's profile number (FFmpeg's `FF_PROFILE_PRORES_*`), nil for other codecs.
        package var proResProfile: Int32? {
            switch self {
            case .proRes422Proxy: 0
            case .proRes422LT: 1
            case .proRes422: 2
            case .proRes422HQ: 3
            case .proRes4444: 4
            default: nil
            }
        }

        /// CoreMedia's codec type ('avc1', 'hvc1', 'jpeg', 'apcn', …).
        package var codecType: FourCharCode {
            switch self {
            case .h264: FourCharCode(fourCC: "avc1")
            case .hevc: FourCharCode(fourCC: "hvc1")
            case .jpeg: FourCharCode(fourCC: "jpeg")
            default: CodecMapping.proResProfiles[proResProfile ?? 2] ?? FourCharCode(fourCC: "apcn")
            }
        }
    }

    /// A codec profile (and level, for H.264).
    package enum Profile: Sendable, Equatable {
        /// H.264 Constrained Baseline (no B-frames, CAVLC), with a level such as "3.1", or nil
        /// for the encoder's choice.
        case h264Baseline(level: String?)
        /// H.264 Main.
        case h264Main(level: String?)
        /// H.264 High.
        case h264High(level: String?)
        /// HEVC Main (8-bit 4:2:0).
        case hevcMain
        /// HEVC Main 10 (10-bit 4:2:0).
        case hevcMain10

        /// The encoder's profile option value.
        var optionValue: String {
            switch self {
            case .h264Baseline: "baseline"
            case .h264Main: "main"
            case .h264High: "high"
            case .hevcMain: "main"
            case .hevcMain10: "main10"
            }
        }

        /// The H.264 level option value ("4.1"), nil when the encoder chooses.
        var level: String? {
            switch self {
            case .h264Baseline(let level), .h264Main(let level), .h264High(let level): level
            case .hevcMain, .hevcMain10: nil
            }
        }
    }

    /// A video encoding's settings. Only `codec`, `width` and `height` are required.
    /// The width of a pixel over its height, as whole spacings.
    package struct PixelAspectRatio: Sendable, Equatable {
        package var horizontal: Int32
        package var vertical: Int32

        package init(horizontal: Int32, vertical: Int32) {
            self.horizontal = horizontal
            self.vertical = vertical
        }
    }

    package struct Video: Sendable, Equatable {
        /// The codec.
        package var codec: VideoCodec
        /// The encoded width in pixels (even for 4:2:0 and 4:2:2).
        package var width: Int
        /// The encoded height in pixels (even for 4:2:0).
        package var height: Int
        /// The pixel format the encoder takes (FFmpeg's `AVPixelFormat` raw value); nil for the
        /// codec's default (see `EncoderSettings`). Use
        /// `Encoder.preferredPixelFormat(for:source:)` to pick the source's own layout when the
        /// codec takes it, which spares the conversion.
        package var pixelFormat: Int32?
        /// Average bits per second; nil for constant quality.
        package var averageBitRate: Int?
        /// Quality from 0 (smallest) to 1 (best), used when `averageBitRate` is nil: the CRF of
        /// x264/x265 is `51 × (1 − quality)`, the JPEG quantiser `2 + 29 × (1 − quality)`;
        /// ProRes ignores it (its profile sets the rate), as Apple's encoder does.
        package var quality: Double?
        /// The most frames from one key frame to the next.
        package var maxKeyFrameInterval: Int?
        /// The longest time from one key frame to the next (converted to frames with
        /// `expectedFrameRate`, 30 when unknown); the smaller of this and
        /// `maxKeyFrameInterval` applies.
        package var maxKeyFrameIntervalDuration: CMTime?
        /// Whether frames may be reordered (B-frames); nil for the encoder's choice.
        package var allowFrameReordering: Bool?
        /// The profile and level; nil for the encoder's choice (HEVC: Main, or Main 10 for a
        /// 10-bit pixel format).
        package var profile: Profile?
        /// The expected frames per second, a hint for rate control and key frame spacing.
        package var expectedFrameRate: Double?
        /// libx264/libx265's speed preset; nil for "veryfast".
        package var preset: String?
        /// CoreVideo's colour primaries name (`kCVImageBufferColorPrimaries_ITU_R_709_2`, …).
        package var colorPrimaries: String?
        /// CoreVideo's transfer function name (`kCVImageBufferTransferFunction_ITU_R_709_2`, …).
        package var transferFunction: String?
        /// CoreVideo's Y'CbCr matrix name (`kCVImageBufferYCbCrMatrix_ITU_R_709_2`, …).
        package var yCbCrMatrix: String?
        /// Whether Y'CbCr uses the full 0–255 range; nil for video range (full for JPEG).
        package var fullRange: Bool?
        /// The width of a pixel over its height, as whole horizontal and vertical spacings
        /// (64:45 for 16:9 PAL DVD pictures); nil for square pixels.
        package var pixelAspectRatio: PixelAspectRatio?
        /// The time scale of the encoder's timestamps (its time base is 1/timeScale);
        /// presentation times are rounded to it, so pick one that represents the source's
        /// times exactly (the source's own timescale, or a multiple of the frame rate). Default
        /// 90000, exact for 23.976, 24, 25, 29.97, 30, 50, 59.94, 60 and 120 fps.
        package var timeScale: Int32

        /// Settings with the codec's defaults for everything else.
        package init(codec: VideoCodec, width: Int, height: Int, pixelFormat: Int32? = nil,
                     averageBitRate: Int? = nil, quality: Double? = nil, maxKeyFrameInterval: Int? = nil,
                     maxKeyFrameIntervalDuration: CMTime? = nil, allowFrameReordering: Bool? = nil,
                     profile: Profile? = nil, expectedFrameRate: Double? = nil, preset: String? = nil,
                     colorPrimaries: String? = nil, transferFunction: String? = nil, yCbCrMatrix: String? = nil,
                     fullRange: Bool? = nil, timeScale: Int32 = 90000) {
            self.codec = codec
            self.width = width
            self.height = height
            self.pixelFormat = pixelFormat
            self.averageBitRate = averageBitRate
            self.quality = quality
            self.maxKeyFrameInterval = maxKeyFrameInterval
            self.maxKeyFrameIntervalDuration = maxKeyFrameIntervalDuration
            self.allowFrameReordering = allowFrameReordering
            self.profile = profile
            self.expectedFrameRate = expectedFrameRate
            self.preset = preset
            self.colorPrimaries = colorPrimaries
            self.transferFunction = transferFunction
            self.yCbCrMatrix = yCbCrMatrix
            self.fullRange = fullRange
            self.timeScale = timeScale
        }

        /// The default x264/x265 preset.
        package static let defaultPreset = "veryfast"

        /// The pixel format the encoder will take.
        package var resolvedPixelFormat: AVPixelFormat {
            if let pixelFormat { return AVPixelFormat(rawValue: pixelFormat) }
            switch codec {
            case .h264: return AV_PIX_FMT_YUV420P
            case .hevc: return profile == .hevcMain10 ? AV_PIX_FMT_YUV420P10LE : AV_PIX_FMT_YUV420P
            case .jpeg: return AV_PIX_FMT_YUVJ420P
            case .proRes4444: return AV_PIX_FMT_YUVA444P10LE
            case .proRes422, .proRes422HQ, .proRes422LT, .proRes422Proxy: return AV_PIX_FMT_YUV422P10LE
            }
        }

        /// The key frame interval in frames.
        var keyFrameInterval: Int {
            let rate = expectedFrameRate.flatMap { $0 > 0 ? $0 : nil } ?? 30
            var frames = maxKeyFrameInterval.flatMap { $0 > 0 ? $0 : nil } ?? Int((2 * rate).rounded())
            if let duration = maxKeyFrameIntervalDuration, duration.isNumeric, duration.seconds > 0 {
                frames = min(frames, max(1, Int((duration.seconds * rate).rounded(.down))))
            }
            return max(1, frames)
        }

        /// Whether the Y'CbCr range is full.
        var isFullRange: Bool {
            fullRange ?? (codec == .jpeg || resolvedPixelFormat == AV_PIX_FMT_YUVJ420P)
        }
    }

    // MARK: Audio

    /// An audio codec the engine encodes.
    package enum AudioCodec: Sendable, Equatable {
        /// MPEG-4 AAC-LC with FFmpeg's aac encoder.
        case aac
        /// Apple Lossless, 16- or 24-bit (`bitDepth`).
        case appleLossless(bitDepth: Int)
        /// Opus with libopus (MP4 and MOV files; 48 kHz only).
        case opus
        /// Linear PCM, little-endian: 16- or 24-bit integers or 32-bit floats.
        case linearPCM(bits: Int, isFloat: Bool)
        /// FLAC with FFmpeg's encoder, 16-bit (`.flac` files).
        case flac
        /// Linear PCM, big-endian 16-, 24- or 32-bit integers (AIFF files).
        case bigEndianPCM(bits: Int)

        /// CoreAudio's format ID.
        package var formatID: AudioFormatID {
            switch self {
            case .aac: kAudioFormatMPEG4AAC
            case .appleLossless: kAudioFormatAppleLossless
            case .opus: kAudioFormatOpus
            case .linearPCM, .bigEndianPCM: kAudioFormatLinearPCM
            case .flac: kAudioFormatFLAC
            }
        }
    }

    /// An audio encoding's settings.
    package struct Audio: Sendable, Equatable {
        /// The codec.
        package var codec: AudioCodec
        /// Samples per second, a whole number the codec accepts.
        package var sampleRate: Int
        /// Channels.
        package var channelCount: Int
        /// CoreAudio's channel layout tag; nil for the default layout of `channelCount`
        /// (mono, stereo, 5.1, 7.1 in FFmpeg's order). Only the channel count is used: the
        /// encoder always takes FFmpeg's default order.
        package var channelLayoutTag: AudioChannelLayoutTag?
        /// Bits per second (lossy codecs); nil for the default.
        package var bitRate: Int?

        /// Settings with the codec's defaults.
        package init(codec: AudioCodec, sampleRate: Int, channelCount: Int,
                     channelLayoutTag: AudioChannelLayoutTag? = nil, bitRate: Int? = nil) {
            self.codec = codec
            self.sampleRate = sampleRate
            self.channelCount = channelCount
            self.channelLayoutTag = channelLayoutTag
            self.bitRate = bitRate
        }

        /// FFmpeg's encoder name.
        package var encoderName: String {
            switch codec {
            case .aac: "aac"
            case .appleLossless: "alac"
            case .opus: "libopus"
            case .linearPCM(let bits, let isFloat):
                isFloat ? "pcm_f32le" : bits == 24 ? "pcm_s24le" : bits == 32 ? "pcm_s32le" : "pcm_s16le"
            case .flac: "flac"
            case .bigEndianPCM(let bits): bits == 24 ? "pcm_s24be" : bits == 32 ? "pcm_s32be" : "pcm_s16be"
            }
        }

        /// The PCM the encoder takes, as `AudioConverter` produces it.
        package var encoderInput: PCMFormat {
            let rate = Double(sampleRate)
            switch codec {
            case .aac:
                return PCMFormat(sampleRate: rate, channelCount: channelCount, bitsPerChannel: 32, isFloat: true,
                                 isNonInterleaved: true)
            case .appleLossless(let depth):
                return PCMFormat(sampleRate: rate, channelCount: channelCount, bitsPerChannel: depth > 16 ? 32 : 16,
                                 isNonInterleaved: true)
            case .opus:
                return PCMFormat(sampleRate: rate, channelCount: channelCount, bitsPerChannel: 32, isFloat: true)
            case .flac:
                return PCMFormat(sampleRate: rate, channelCount: channelCount)
            case .bigEndianPCM(let bits):
                return PCMFormat(sampleRate: rate, channelCount: channelCount, bitsPerChannel: bits > 16 ? 32 : 16)
            case .linearPCM(let bits, let isFloat):
                if isFloat { return PCMFormat(sampleRate: rate, channelCount: channelCount, bitsPerChannel: 32, isFloat: true) }
                return PCMFormat(sampleRate: rate, channelCount: channelCount, bitsPerChannel: bits > 16 ? 32 : 16)
            }
        }

        /// The default bit rate for lossy codecs.
        package var resolvedBitRate: Int? {
            if let bitRate { return bitRate }
            switch codec {
            case .aac: return 64_000 * channelCount
            case .opus: return 48_000 * channelCount
            default: return nil
            }
        }
    }
}

// MARK: Colour names

extension EncoderSettings {
    /// FFmpeg's colour primaries for a CoreVideo name, or nil.
    static func ffmpegPrimaries(_ name: String?) -> AVColorPrimaries? {
        guard let name else { return nil }
        let candidates: [AVColorPrimaries] = [AVCOL_PRI_BT709, AVCOL_PRI_BT470BG, AVCOL_PRI_SMPTE170M, AVCOL_PRI_BT2020,
                                              AVCOL_PRI_SMPTE431, AVCOL_PRI_SMPTE432, AVCOL_PRI_JEDEC_P22]
        return candidates.first { CMFormatDescription.colorPrimaries($0) == name }
    }

    /// FFmpeg's transfer characteristic for a CoreVideo name, or nil.
    static func ffmpegTransfer(_ name: String?) -> AVColorTransferCharacteristic? {
        guard let name else { return nil }
        let candidates: [AVColorTransferCharacteristic] = [
            AVCOL_TRC_BT709, AVCOL_TRC_BT2020_10, AVCOL_TRC_SMPTE240M, AVCOL_TRC_SMPTE2084, AVCOL_TRC_ARIB_STD_B67,
            AVCOL_TRC_SMPTE428, AVCOL_TRC_LINEAR, AVCOL_TRC_IEC61966_2_1,
        ]
        return candidates.first { CMFormatDescription.transferFunction($0) == name }
    }

    /// FFmpeg's colour space for a CoreVideo Y'CbCr matrix name, or nil.
    static func ffmpegMatrix(_ name: String?) -> AVColorSpace? {
        guard let name else { return nil }
        let candidates: [AVColorSpace] = [AVCOL_SPC_BT709, AVCOL_SPC_SMPTE170M, AVCOL_SPC_SMPTE240M, AVCOL_SPC_BT2020_NCL]
        return candidates.first { CMFormatDescription.yCbCrMatrix($0) == name }
    }
}
