import CFFmpeg
import OpenCoreVideo

/// The mapping between FFmpeg codec IDs and the four-character codes CoreMedia uses for media
/// subtypes (`kCMVideoCodecType_H264` = 'avc1', `kAudioFormatMPEG4AAC` = 'aac ', …).
package enum CodecMapping {
    /// One codec: FFmpeg's ID and CoreMedia's code.
    struct Entry {
        let codecID: AVCodecID
        let fourCC: FourCharCode
    }

    /// Every codec with a CoreMedia code. The first entry for a code is the one used when
    /// mapping back from the code to FFmpeg.
    static let entries: [Entry] = [
        Entry(codecID: AV_CODEC_ID_H264, fourCC: FourCharCode(fourCC: "avc1")),
        Entry(codecID: AV_CODEC_ID_HEVC, fourCC: FourCharCode(fourCC: "hvc1")),
        Entry(codecID: AV_CODEC_ID_MJPEG, fourCC: FourCharCode(fourCC: "jpeg")),
        Entry(codecID: AV_CODEC_ID_PRORES, fourCC: FourCharCode(fourCC: "apcn")),
        Entry(codecID: AV_CODEC_ID_MPEG4, fourCC: FourCharCode(fourCC: "mp4v")),
        Entry(codecID: AV_CODEC_ID_MPEG2VIDEO, fourCC: FourCharCode(fourCC: "mp2v")),
        Entry(codecID: AV_CODEC_ID_MPEG1VIDEO, fourCC: FourCharCode(fourCC: "mp1v")),
        Entry(codecID: AV_CODEC_ID_H263, fourCC: FourCharCode(fourCC: "h263")),
        Entry(codecID: AV_CODEC_ID_VP8, fourCC: FourCharCode(fourCC: "vp08")),
        Entry(codecID: AV_CODEC_ID_VP9, fourCC: FourCharCode(fourCC: "vp09")),
        Entry(codecID: AV_CODEC_ID_AV1, fourCC: FourCharCode(fourCC: "av01")),
        Entry(codecID: AV_CODEC_ID_PNG, fourCC: FourCharCode(fourCC: "png ")),
        Entry(codecID: AV_CODEC_ID_AAC, fourCC: FourCharCode(fourCC: "aac ")),
        Entry(codecID: AV_CODEC_ID_ALAC, fourCC: FourCharCode(fourCC: "alac")),
        Entry(codecID: AV_CODEC_ID_OPUS, fourCC: FourCharCode(fourCC: "opus")),
        Entry(codecID: AV_CODEC_ID_FLAC, fourCC: FourCharCode(fourCC: "flac")),
        Entry(codecID: AV_CODEC_ID_MP3, fourCC: FourCharCode(fourCC: ".mp3")),
        Entry(codecID: AV_CODEC_ID_AC3, fourCC: FourCharCode(fourCC: "ac-3")),
        Entry(codecID: AV_CODEC_ID_EAC3, fourCC: FourCharCode(fourCC: "ec-3")),
        Entry(codecID: AV_CODEC_ID_PCM_MULAW, fourCC: FourCharCode(fourCC: "ulaw")),
        Entry(codecID: AV_CODEC_ID_PCM_ALAW, fourCC: FourCharCode(fourCC: "alaw")),
        Entry(codecID: AV_CODEC_ID_PCM_S16LE, fourCC: FourCharCode(fourCC: "lpcm")),
        Entry(codecID: AV_CODEC_ID_PCM_S16BE, fourCC: FourCharCode(fourCC: "lpcm")),
        Entry(codecID: AV_CODEC_ID_PCM_S24LE, fourCC: FourCharCode(fourCC: "lpcm")),
        Entry(codecID: AV_CODEC_ID_PCM_S32LE, fourCC: FourCharCode(fourCC: "lpcm")),
        Entry(codecID: AV_CODEC_ID_PCM_F32LE, fourCC: FourCharCode(fourCC: "lpcm")),
        Entry(codecID: AV_CODEC_ID_PCM_F64LE, fourCC: FourCharCode(fourCC: "lpcm")),
        Entry(codecID: AV_CODEC_ID_PCM_U8, fourCC: FourCharCode(fourCC: "lpcm")),
        Entry(codecID: AV_CODEC_ID_MOV_TEXT, fourCC: FourCharCode(fourCC: "tx3g")),
        Entry(codecID: AV_CODEC_ID_WEBVTT, fourCC: FourCharCode(fourCC: "wvtt")),
    ]

    /// ProRes profiles (FFmpeg's `AV_PROFILE_PRORES_*` numbers) and their CoreMedia codes.
    static let proResProfiles: [Int32: FourCharCode] = [
        0: FourCharCode(fourCC: "apco"), // proxy
        1: FourCharCode(fourCC: "apcs"), // LT
        2: FourCharCode(fourCC: "apcn"), // standard
        3: FourCharCode(fourCC: "apch"), // HQ
        4: FourCharCode(fourCC: "ap4h"), // 4444
        5: FourCharCode(fourCC: "ap4x"), // 4444 XQ
    ]

    /// CoreMedia's code for a stream's codec, or the codec's container tag when CoreMedia has
    /// none, or 0 when neither exists.
    package static func fourCC(for parameters: AVCodecParameters) -> FourCharCode {
        if parameters.codec_id == AV_CODEC_ID_PRORES, let code = proResProfiles[parameters.profile] {
            return code
        }
        if let entry = entries.first(where: { $0.codecID == parameters.codec_id }) {
            return entry.fourCC
        }
        // FFmpeg stores container tags little-endian; CoreMedia codes read big-endian.
        return parameters.codec_tag.byteSwapped
    }

    /// FFmpeg's codec for a CoreMedia code, or nil when the engine has none.
    /// FFmpeg's short name of the codec of a CoreMedia code ("opus", "flac", "h264"), or the
    /// code itself when FFmpeg has no codec for it.
    package static func codecName(for fourCC: FourCharCode) -> String {
        codecID(for: fourCC).flatMap { avcodec_get_name($0) }.map { String(cString: $0) } ?? fourCC.fourCCString
    }

    package static func codecID(for fourCC: FourCharCode) -> AVCodecID? {
        if proResProfiles.values.contains(fourCC) { return AV_CODEC_ID_PRORES }
        return entries.first { $0.fourCC == fourCC }?.codecID
    }
}
