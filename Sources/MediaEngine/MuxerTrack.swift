import CFFmpeg
import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// How a muxer track is written beyond its codec: what `AVAssetWriterInput`'s `transform`,
/// `languageCode`, `metadata` and `mediaTimeScale` set.
package struct MuxerTrackOptions: Sendable {
    /// The track's time scale (its timestamps count 1/timeScale s); nil for the encoder's time
    /// base (passthrough: the `timeScale` passed to `addTrack`). QuickTime muxing doubles a
    /// video time scale below 10000 until it reaches 10000 (600 becomes 19200); audio tracks
    /// always use the sample rate.
    package var timeScale: Int32?
    /// The ISO 639-2/T language code ("eng"), nil for undetermined.
    package var languageCode: String?
    /// The track's metadata tags (FFmpeg keys such as "title", "handler_name"), in order.
    package var metadata: [(key: String, value: String)]
    /// The display transform (the track header's matrix), nil for identity.
    package var transform: CGAffineTransform?

    /// Options with nothing set.
    package init(timeScale: Int32? = nil, languageCode: String? = nil,
                 metadata: [(key: String, value: String)] = [], transform: CGAffineTransform? = nil) {
        self.timeScale = timeScale
        self.languageCode = languageCode
        self.metadata = metadata
        self.transform = transform
    }

    /// The display matrix FFmpeg stores for `transform` (a b u c d v tx ty w; 16.16 fixed
    /// point, u v w in 2.30), as the track header holds it.
    static func displayMatrix(_ t: CGAffineTransform) -> [Int32] {
        func fixed(_ value: CGFloat, _ bits: Int) -> Int32 {
            Int32(clamping: Int64((Double(value) * Double(1 << bits)).rounded()))
        }
        return [fixed(t.a, 16), fixed(t.b, 16), 0, fixed(t.c, 16), fixed(t.d, 16), 0,
                fixed(t.tx, 16), fixed(t.ty, 16), 1 << 30]
    }
}

/// What the muxer remembers about a track.
struct MuxerTrack {
    /// The FFmpeg stream.
    let stream: UnsafeMutablePointer<AVStream>
    /// Whether the track's samples are linear PCM (a sample buffer of many PCM frames is
    /// written as one packet).
    let isLinearPCM: Bool
    /// Bytes of one PCM frame (all channels), for PCM tracks.
    let bytesPerPCMFrame: Int
}

extension MuxerTrack {
    /// FFmpeg's container tag (little-endian) for a CoreMedia code.
    static func tag(_ code: FourCharCode) -> UInt32 { code.byteSwapped }

    /// Fills codec parameters from a format description of compressed samples, as an asset
    /// reader's passthrough output gives them: codec from the subtype, video dimensions and
    /// colour, audio stream description, and the configuration record (`codecPrivateData`:
    /// avcC, hvcC, AudioSpecificConfig, …) as extradata. Throws for codecs the engine has no
    /// FFmpeg ID for.
    static func fill(_ p: UnsafeMutablePointer<AVCodecParameters>, from description: CMFormatDescription)
        throws(EngineError) -> (isLinearPCM: Bool, bytesPerFrame: Int) {
        let operation = "adding a passthrough track"
        let subType = CMFormatDescriptionGetMediaSubType(description)
        let mediaType = CMFormatDescriptionGetMediaType(description)
        var isLinearPCM = false
        var bytesPerFrame = 0
        if mediaType == kCMMediaType_Video {
            guard let codec = CodecMapping.codecID(for: subType) else {
                throw EngineError(operation: operation, message: "codec '\(subType.fourCCString)' is not supported")
            }
            p.pointee.codec_type = AVMEDIA_TYPE_VIDEO
            p.pointee.codec_id = codec
            let dimensions = CMVideoFormatDescriptionGetDimensions(description)
            p.pointee.width = dimensions.width
            p.pointee.height = dimensions.height
            if codec == AV_CODEC_ID_PRORES {
                p.pointee.codec_tag = tag(subType)
                if let profile = CodecMapping.proResProfiles.first(where: { $0.value == subType })?.key {
                    p.pointee.profile = profile
                }
            } else if codec == AV_CODEC_ID_HEVC {
                p.pointee.codec_tag = tag(subType == FourCharCode(fourCC: "hev1") ? subType : FourCharCode(fourCC: "hvc1"))
            }
            if let aspect = CMFormatDescriptionGetExtension(description, extensionKey: kCMFormatDescriptionExtension_PixelAspectRatio)
                as? [String: Any],
               let horizontal = aspect[kCMFormatDescriptionKey_PixelAspectRatioHorizontalSpacing as String] as? Int,
               let vertical = aspect[kCMFormatDescriptionKey_PixelAspectRatioVerticalSpacing as String] as? Int,
               horizontal > 0, vertical > 0 {
                p.pointee.sample_aspect_ratio = AVRational(num: Int32(clamping: horizontal), den: Int32(clamping: vertical))
            }
            func string(_ key: CFString) -> String? { CMFormatDescriptionGetExtension(description, extensionKey: key) as? String }
            if let full = CMFormatDescriptionGetExtension(description, extensionKey: kCMFormatDescriptionExtension_FullRangeVideo)
                as? Bool {
                p.pointee.color_range = full ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
            }
            if let value = EncoderSettings.ffmpegPrimaries(string(kCMFormatDescriptionExtension_ColorPrimaries)) {
                p.pointee.color_primaries = value
            }
            if let value = EncoderSettings.ffmpegTransfer(string(kCMFormatDescriptionExtension_TransferFunction)) {
                p.pointee.color_trc = value
            }
            if let value = EncoderSettings.ffmpegMatrix(string(kCMFormatDescriptionExtension_YCbCrMatrix)) {
                p.pointee.color_space = value
            }
        } else if mediaType == kCMMediaType_Audio {
            guard let asbd = description.audioStreamBasicDescription else {
                throw EngineError(operation: operation, message: "the audio format has no stream description")
            }
            p.pointee.codec_type = AVMEDIA_TYPE_AUDIO
            let channels = Int32(asbd.mChannelsPerFrame)
            guard channels > 0, asbd.mSampleRate > 0 else {
                throw EngineError(operation: operation, message: "the audio format has no channels or rate")
            }
            if subType == kAudioFormatLinearPCM {
                let flags = asbd.mFormatFlags
                let isFloat = flags & kAudioFormatFlagIsFloat != 0
                let bigEndian = flags & kAudioFormatFlagIsBigEndian != 0
                guard flags & kAudioFormatFlagIsNonInterleaved == 0 || channels == 1 else {
                    throw EngineError(operation: operation, message: "non-interleaved PCM cannot be stored as it is")
                }
                let bits = Int(asbd.mBitsPerChannel)
                let match = [AV_CODEC_ID_PCM_U8, AV_CODEC_ID_PCM_S16LE, AV_CODEC_ID_PCM_S16BE, AV_CODEC_ID_PCM_S24LE,
                             AV_CODEC_ID_PCM_S24BE, AV_CODEC_ID_PCM_S32LE, AV_CODEC_ID_PCM_S32BE, AV_CODEC_ID_PCM_F32LE,
                             AV_CODEC_ID_PCM_F32BE, AV_CODEC_ID_PCM_F64LE, AV_CODEC_ID_PCM_F64BE].first { id in
                    guard let layout = CMFormatDescription.pcmLayout(id) else { return false }
                    return layout.bits == bits && layout.float == isFloat && (bits == 8 || layout.bigEndian == bigEndian)
                }
                guard let match else {
                    throw EngineError(operation: operation, message: "\(bits)-bit PCM cannot be stored as it is")
                }
                p.pointee.codec_id = match
                p.pointee.bits_per_coded_sample = Int32(bits)
                isLinearPCM = true
                bytesPerFrame = bits / 8 * Int(channels)
            } else {
                guard let codec = CodecMapping.codecID(for: subType) else {
                    throw EngineError(operation: operation, message: "codec '\(subType.fourCCString)' is not supported")
                }
                p.pointee.codec_id = codec
                if asbd.mFramesPerPacket > 0 { p.pointee.frame_size = Int32(asbd.mFramesPerPacket) }
            }
            p.pointee.sample_rate = Int32(asbd.mSampleRate)
            av_channel_layout_uninit(&p.pointee.ch_layout)
            av_channel_layout_default(&p.pointee.ch_layout, channels)
        } else if mediaType == kCMMediaType_Text || mediaType == kCMMediaType_Subtitle,
                  subType == kCMTextFormatType_3GText || subType == kCMTextFormatType_QTText {
            // Timed text, written as 3GPP text (`tx3g`, FFmpeg's `mov_text`) in MP4 and QuickTime
            // files alike: its samples are QuickTime text's, its description the text's own.
            p.pointee.codec_type = AVMEDIA_TYPE_SUBTITLE
            p.pointee.codec_id = AV_CODEC_ID_MOV_TEXT
            p.pointee.codec_tag = tag(kCMTextFormatType_3GText)
            try setExtradata(p, TimedText.sampleDescription(of: description))
            return (false, 0)
        } else {
            throw EngineError(operation: operation, message: "media type '\(mediaType.fourCCString)' cannot be written")
        }
        var configuration = description.codecPrivateData
        if p.pointee.codec_id == AV_CODEC_ID_MPEG4, let esds = configuration {
            // FFmpeg's muxers take the decoder configuration, and make the esds themselves.
            configuration = ElementaryStreamDescriptor.decoderConfig(fromESDS: esds) ?? esds
        }
        if let data = configuration, !data.isEmpty { try setExtradata(p, data) }
        return (isLinearPCM, bytesPerFrame)
    }

    /// Sets codec parameters' extradata to a padded copy of `data`.
    private static func setExtradata(_ p: UnsafeMutablePointer<AVCodecParameters>, _ data: Data) throws(EngineError) {
        let padding = Int(AV_INPUT_BUFFER_PADDING_SIZE)
        guard let bytes = av_mallocz(data.count + padding)?.assumingMemoryBound(to: UInt8.self) else {
            throw EngineError(ffmpegCode: cffmpeg_averror(ENOMEM), operation: "adding a passthrough track")
        }
        data.copyBytes(to: bytes, count: data.count)
        av_freep(&p.pointee.extradata)
        p.pointee.extradata = bytes
        p.pointee.extradata_size = Int32(data.count)
    }
}
