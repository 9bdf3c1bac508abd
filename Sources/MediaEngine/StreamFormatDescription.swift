import CFFmpeg
import Foundation
import OpenCoreMedia
import OpenCoreVideo

extension Demuxer {
    /// The CoreMedia format description of stream `index` as stored in the file (codec,
    /// dimensions or audio stream description, codec configuration, colour), or nil when the
    /// stream is neither audio, video, 3GPP timed text nor timed ID3 metadata, or its codec has
    /// no code.
    package func formatDescription(ofStream index: Int) -> CMFormatDescription? {
        CMFormatDescription.stored(codecParameters(ofStream: index))
    }
}

extension CMFormatDescription {
    /// The format description of a stream with these codec parameters, as a demuxer stores it:
    /// nil when the stream is neither audio, video, 3GPP timed text nor timed ID3 metadata, or
    /// its codec has no CoreMedia code.
    ///
    /// Video: the subtype from `CodecMapping`, the coded dimensions, the configuration record
    /// (`avcC`, `hvcC`, `av1C`, an `mp4v`'s `esds`) as a sample description extension atom when the container keeps
    /// it in that form (Annex-B streams such as H.264 in MPEG-TS have none), full range,
    /// colour primaries, transfer function and Y'CbCr matrix with CoreVideo's values, and the
    /// pixel aspect ratio. Audio: an audio stream description (a complete one for linear PCM),
    /// a channel layout for 1, 2, 6 and 8 channels and the codec's configuration (such as the
    /// AAC AudioSpecificConfig) as the magic cookie.
    ///
    /// Differs from Apple: an AAC magic cookie is the AudioSpecificConfig, not a whole `esds`.
    package static func stored(_ parameters: UnsafePointer<AVCodecParameters>) -> CMFormatDescription? {
        let p = parameters.pointee
        switch p.codec_type {
        case AVMEDIA_TYPE_VIDEO: return video(p)
        case AVMEDIA_TYPE_AUDIO: return audio(p)
        case AVMEDIA_TYPE_SUBTITLE where p.codec_id == AV_CODEC_ID_MOV_TEXT:
            // 3GPP timed text (and text subtitles the demuxer turns into it): a subtitle track,
            // as Apple's framework reads the `sbtl` tracks FFmpeg and others write.
            return TimedText.formatDescription(mediaType: kCMMediaType_Subtitle, sampleDescription: extradata(p))
        case AVMEDIA_TYPE_DATA where p.codec_id == AV_CODEC_ID_TIMED_ID3:
            return CMFormatDescription(mediaType: kCMMediaType_Metadata, mediaSubType: kCMMetadataFormatType_ID3)
        default: return nil
        }
    }

    /// The codec's extradata, or nil when it has none.
    private static func extradata(_ p: AVCodecParameters) -> Data? {
        guard let bytes = p.extradata, p.extradata_size > 0 else { return nil }
        return Data(bytes: bytes, count: Int(p.extradata_size))
    }

    /// A video description.
    private static func video(_ p: AVCodecParameters) -> CMFormatDescription? {
        let subType = CodecMapping.fourCC(for: p)
        guard subType != 0 else { return nil }
        var extensions: [String: Any] = [:]
        switch p.color_range {
        case AVCOL_RANGE_JPEG: extensions[kCMFormatDescriptionExtension_FullRangeVideo] = true
        case AVCOL_RANGE_MPEG: extensions[kCMFormatDescriptionExtension_FullRangeVideo] = false
        default: break
        }
        if let primaries = colorPrimaries(p.color_primaries) {
            extensions[kCMFormatDescriptionExtension_ColorPrimaries] = primaries
        }
        if let transfer = transferFunction(p.color_trc) {
            extensions[kCMFormatDescriptionExtension_TransferFunction] = transfer
        }
        if let matrix = yCbCrMatrix(p.color_space) {
            extensions[kCMFormatDescriptionExtension_YCbCrMatrix] = matrix
        }
        if p.sample_aspect_ratio.num > 0, p.sample_aspect_ratio.den > 0 {
            extensions[kCMFormatDescriptionExtension_PixelAspectRatio] = [
                kCMFormatDescriptionKey_PixelAspectRatioHorizontalSpacing: Int(p.sample_aspect_ratio.num),
                kCMFormatDescriptionKey_PixelAspectRatioVerticalSpacing: Int(p.sample_aspect_ratio.den),
            ]
        }
        return CMFormatDescription(mediaType: kCMMediaType_Video, mediaSubType: subType,
                                   dimensions: CMVideoDimensions(width: p.width, height: p.height),
                                   extensions: extensions, codecPrivateData: videoConfiguration(p, subType: subType))
    }

    /// The configuration record to keep: the ISO record for codecs that have one, only when the
    /// extradata is in that form; the raw extradata for codecs without an ISO atom.
    private static func videoConfiguration(_ p: AVCodecParameters, subType: FourCharCode) -> Data? {
        guard let data = extradata(p) else { return nil }
        switch subType {
        case kCMVideoCodecType_H264:
            // avcC starts with configurationVersion 1; Annex-B with a 00 00 01 start code.
            return data.count >= 7 && data.first == 1 ? data : nil
        case kCMVideoCodecType_HEVC, FourCharCode(fourCC: "hev1"):
            return data.count >= 23 && data.first == 1 ? data : nil
        case kCMVideoCodecType_AV1:
            // av1C: marker bit and version 1.
            return data.count >= 4 && data.first == 0x81 ? data : nil
        case kCMVideoCodecType_MPEG4Video:
            // FFmpeg keeps the decoder configuration (the VOL header); Apple's description
            // keeps the whole esds, which the muxer reads it back from.
            return ElementaryStreamDescriptor.esds(decoderConfig: data)
        case kCMVideoCodecType_VP9:
            // FFmpeg keeps the decoder configuration, not the whole vpcC atom.
            return nil
        default:
            return data
        }
    }

    /// CoreVideo's name of a colour primaries code, or nil.
    static func colorPrimaries(_ value: AVColorPrimaries) -> String? {
        switch value {
        case AVCOL_PRI_BT709: return kCVImageBufferColorPrimaries_ITU_R_709_2
        case AVCOL_PRI_BT470BG: return kCVImageBufferColorPrimaries_EBU_3213
        case AVCOL_PRI_SMPTE170M, AVCOL_PRI_SMPTE240M: return kCVImageBufferColorPrimaries_SMPTE_C
        case AVCOL_PRI_BT2020: return kCVImageBufferColorPrimaries_ITU_R_2020
        case AVCOL_PRI_SMPTE431: return kCVImageBufferColorPrimaries_DCI_P3
        case AVCOL_PRI_SMPTE432: return kCVImageBufferColorPrimaries_P3_D65
        case AVCOL_PRI_JEDEC_P22: return kCVImageBufferColorPrimaries_P22
        default: return nil
        }
    }

    /// CoreVideo's name of a transfer characteristic, or nil.
    static func transferFunction(_ value: AVColorTransferCharacteristic) -> String? {
        switch value {
        // CoreVideo names the BT.601 curve after BT.709, the same curve.
        case AVCOL_TRC_BT709, AVCOL_TRC_SMPTE170M: return kCVImageBufferTransferFunction_ITU_R_709_2
        case AVCOL_TRC_BT2020_10, AVCOL_TRC_BT2020_12: return kCVImageBufferTransferFunction_ITU_R_2020
        case AVCOL_TRC_SMPTE240M: return kCVImageBufferTransferFunction_SMPTE_240M_1995
        case AVCOL_TRC_SMPTE2084: return kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ
        case AVCOL_TRC_ARIB_STD_B67: return kCVImageBufferTransferFunction_ITU_R_2100_HLG
        case AVCOL_TRC_SMPTE428: return kCVImageBufferTransferFunction_SMPTE_ST_428_1
        case AVCOL_TRC_LINEAR: return kCVImageBufferTransferFunction_Linear
        case AVCOL_TRC_IEC61966_2_1: return kCVImageBufferTransferFunction_sRGB
        default: return nil
        }
    }

    /// CoreVideo's name of a Y'CbCr matrix, or nil.
    static func yCbCrMatrix(_ value: AVColorSpace) -> String? {
        switch value {
        case AVCOL_SPC_BT709: return kCVImageBufferYCbCrMatrix_ITU_R_709_2
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M: return kCVImageBufferYCbCrMatrix_ITU_R_601_4
        case AVCOL_SPC_SMPTE240M: return kCVImageBufferYCbCrMatrix_SMPTE_240M_1995
        case AVCOL_SPC_BT2020_NCL: return kCVImageBufferYCbCrMatrix_ITU_R_2020
        default: return nil
        }
    }

    /// The linear PCM layout of an FFmpeg PCM codec: (bits, float, big-endian, signed), or nil.
    static func pcmLayout(_ codec: AVCodecID) -> (bits: Int, float: Bool, bigEndian: Bool, signed: Bool)? {
        switch codec {
        case AV_CODEC_ID_PCM_U8: return (8, false, false, false)
        case AV_CODEC_ID_PCM_S8: return (8, false, false, true)
        case AV_CODEC_ID_PCM_S16LE: return (16, false, false, true)
        case AV_CODEC_ID_PCM_S16BE: return (16, false, true, true)
        case AV_CODEC_ID_PCM_S24LE: return (24, false, false, true)
        case AV_CODEC_ID_PCM_S24BE: return (24, false, true, true)
        case AV_CODEC_ID_PCM_S32LE: return (32, false, false, true)
        case AV_CODEC_ID_PCM_S32BE: return (32, false, true, true)
        case AV_CODEC_ID_PCM_F32LE: return (32, true, false, true)
        case AV_CODEC_ID_PCM_F32BE: return (32, true, true, true)
        case AV_CODEC_ID_PCM_F64LE: return (64, true, false, true)
        case AV_CODEC_ID_PCM_F64BE: return (64, true, true, true)
        default: return nil
        }
    }

    /// An audio description.
    private static func audio(_ p: AVCodecParameters) -> CMFormatDescription? {
        let channels = Int(p.ch_layout.nb_channels)
        var asbd = AudioStreamBasicDescription()
        asbd.mSampleRate = Double(p.sample_rate)
        asbd.mChannelsPerFrame = UInt32(max(0, channels))
        let subType: FourCharCode
        if let pcm = pcmLayout(p.codec_id) {
            subType = kAudioFormatLinearPCM
            var flags: AudioFormatFlags = kAudioFormatFlagIsPacked
            if pcm.float { flags |= kAudioFormatFlagIsFloat } else if pcm.signed { flags |= kAudioFormatFlagIsSignedInteger }
            if pcm.bigEndian { flags |= kAudioFormatFlagIsBigEndian }
            let bytesPerFrame = UInt32(pcm.bits / 8 * max(0, channels))
            asbd.mFormatID = kAudioFormatLinearPCM
            asbd.mFormatFlags = flags
            asbd.mBytesPerPacket = bytesPerFrame
            asbd.mFramesPerPacket = 1
            asbd.mBytesPerFrame = bytesPerFrame
            asbd.mBitsPerChannel = UInt32(pcm.bits)
        } else {
            subType = CodecMapping.fourCC(for: p)
            guard subType != 0 else { return nil }
            asbd.mFormatID = subType
            if p.codec_id == AV_CODEC_ID_PCM_MULAW || p.codec_id == AV_CODEC_ID_PCM_ALAW {
                asbd.mBytesPerPacket = UInt32(max(0, channels))
                asbd.mFramesPerPacket = 1
                asbd.mBytesPerFrame = UInt32(max(0, channels))
                asbd.mBitsPerChannel = 8
            } else {
                let defaultFrames: Int32 = p.codec_id == AV_CODEC_ID_AAC ? 1024 : 0
                asbd.mFramesPerPacket = UInt32(p.frame_size > 0 ? p.frame_size : defaultFrames)
            }
        }
        let tag: AudioChannelLayoutTag?
        switch channels {
        case 1: tag = kAudioChannelLayoutTag_Mono
        case 2: tag = kAudioChannelLayoutTag_Stereo
        case 6: tag = p.codec_id == AV_CODEC_ID_AAC ? kAudioChannelLayoutTag_AAC_5_1 : kAudioChannelLayoutTag_MPEG_5_1_A
        case 8: tag = p.codec_id == AV_CODEC_ID_AAC ? kAudioChannelLayoutTag_AAC_7_1 : kAudioChannelLayoutTag_MPEG_7_1_C
        default: tag = nil
        }
        return CMFormatDescription(mediaType: kCMMediaType_Audio, mediaSubType: subType,
                                   audioStreamBasicDescription: asbd, channelLayoutTag: tag,
                                   codecPrivateData: extradata(p))
    }
}
