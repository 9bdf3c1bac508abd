// The uniform type identifiers of the file formats AVFoundation reads and writes, with Apple's values,
// plus the package-internal mapping to FFmpeg muxers and path extensions.

/// A uniform type identifier (UTI) for a file format, such as QuickTime movie or MPEG-4.
/// Matches Apple: an extensible string wrapper whose raw values are Apple's UTIs.
public struct AVFileType: RawRepresentable, Hashable, Sendable {
    /// The uniform type identifier, for example "com.apple.quicktime-movie".
    public let rawValue: String

    /// Creates a file type from its uniform type identifier.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a file type from its uniform type identifier.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The QuickTime movie file format (.mov, .qt).
    public static let mov = AVFileType(rawValue: "com.apple.quicktime-movie")
    /// The MPEG-4 file format (.mp4).
    public static let mp4 = AVFileType(rawValue: "public.mpeg-4")
    /// The iTunes video file format (.m4v).
    public static let m4v = AVFileType(rawValue: "com.apple.m4v-video")
    /// The Apple MPEG-4 audio file format (.m4a).
    public static let m4a = AVFileType(rawValue: "com.apple.m4a-audio")
    /// The 3GPP file format (.3gp, .3gpp, .sdv).
    public static let mobile3GPP = AVFileType(rawValue: "public.3gpp")
    /// The 3GPP2 file format (.3g2, .3gp2).
    public static let mobile3GPP2 = AVFileType(rawValue: "public.3gpp2")
    /// The Core Audio file format (.caf).
    public static let caf = AVFileType(rawValue: "com.apple.coreaudio-format")
    /// The WAVE audio file format (.wav, .wave, .bwf).
    public static let wav = AVFileType(rawValue: "com.microsoft.waveform-audio")
    /// The AIFF audio file format (.aif, .aiff).
    public static let aiff = AVFileType(rawValue: "public.aiff-audio")
    /// The AIFC audio file format (.aifc, .cdda).
    public static let aifc = AVFileType(rawValue: "public.aifc-audio")
    /// The adaptive multi-rate audio file format (.amr).
    public static let amr = AVFileType(rawValue: "org.3gpp.adaptive-multi-rate-audio")
    /// The MPEG layer 3 audio file format (.mp3).
    public static let mp3 = AVFileType(rawValue: "public.mp3")
    /// The Sun/NeXT audio file format (.au, .snd).
    public static let au = AVFileType(rawValue: "public.au-audio")
    /// The AC-3 audio file format (.ac3).
    public static let ac3 = AVFileType(rawValue: "public.ac3-audio")
    /// The enhanced AC-3 audio file format (.eac3).
    public static let eac3 = AVFileType(rawValue: "public.enhanced-ac3-audio")
    /// The JPEG (JFIF) image format (.jpg, .jpeg).
    public static let jpg = AVFileType(rawValue: "public.jpeg")
    /// The Adobe digital negative image format (.dng).
    public static let dng = AVFileType(rawValue: "com.adobe.raw-image")
    /// The high efficiency image format with HEVC-compressed images (.heic).
    public static let heic = AVFileType(rawValue: "public.heic")
    /// The high efficiency image format with H.264-compressed images (.avci).
    public static let avci = AVFileType(rawValue: "public.avci")
    /// The high efficiency image format with images compressed by any codec (.heif).
    public static let heif = AVFileType(rawValue: "public.heif")
    /// The tagged image file format (.tif, .tiff).
    public static let tif = AVFileType(rawValue: "public.tiff")
    /// The Apple iTunes Timed Text caption format (.itt).
    /// Differs from Apple: available on every platform, not only macOS.
    public static let appleiTT = AVFileType(rawValue: "com.apple.itunes-timed-text")
    /// The Scenarist closed-caption format (.scc).
    /// Differs from Apple: available on every platform, not only macOS and iOS 18.
    public static let SCC = AVFileType(rawValue: "com.scenarist.closed-caption")
    /// The Apple Haptics Audio Pattern format (.ahap).
    public static let AHAP = AVFileType(rawValue: "public.haptics-content")
    /// The Digital Imaging and Communications in Medicine (DICOM) format (.dcm).
    public static let dcm = AVFileType(rawValue: "org.nema.dicom")
}

extension AVFileType {
    /// The short name of the FFmpeg muxer that writes this file type, or nil when FFmpeg has none.
    package var ffmpegMuxerName: String? {
        switch self {
        case .mov: return "mov"
        case .mp4: return "mp4"
        case .m4v, .m4a: return "ipod"
        case .mobile3GPP: return "3gp"
        case .mobile3GPP2: return "3g2"
        case .caf: return "caf"
        case .wav: return "wav"
        case .aiff, .aifc: return "aiff"
        case .amr: return "amr"
        case .mp3: return "mp3"
        case .au: return "au"
        case .ac3: return "ac3"
        case .eac3: return "eac3"
        case .jpg: return "mjpeg"
        case .tif, .dng: return "image2"
        case .SCC: return "scc"
        default: return nil
        }
    }

    /// The path extensions Apple lists for this file type, the preferred one first.
    package var pathExtensions: [String] {
        switch self {
        case .mov: return ["mov", "qt"]
        case .mp4: return ["mp4"]
        case .m4v: return ["m4v"]
        case .m4a: return ["m4a"]
        case .mobile3GPP: return ["3gp", "3gpp", "sdv"]
        case .mobile3GPP2: return ["3g2", "3gp2"]
        case .caf: return ["caf"]
        case .wav: return ["wav", "wave", "bwf"]
        case .aiff: return ["aiff", "aif"]
        case .aifc: return ["aifc", "cdda"]
        case .amr: return ["amr"]
        case .mp3: return ["mp3"]
        case .au: return ["au", "snd"]
        case .ac3: return ["ac3"]
        case .eac3: return ["eac3"]
        case .jpg: return ["jpg", "jpeg"]
        case .dng: return ["dng"]
        case .heic: return ["heic"]
        case .avci: return ["avci"]
        case .heif: return ["heif"]
        case .tif: return ["tif", "tiff"]
        case .appleiTT: return ["itt"]
        case .SCC: return ["scc"]
        case .AHAP: return ["ahap"]
        case .dcm: return ["dcm"]
        default: return []
        }
    }

    /// Every file type this module names, in declaration order.
    package static let allKnown: [AVFileType] = [
        .mov, .mp4, .m4v, .m4a, .mobile3GPP, .mobile3GPP2, .caf, .wav, .aiff, .aifc, .amr, .mp3, .au,
        .ac3, .eac3, .jpg, .dng, .heic, .avci, .heif, .tif, .appleiTT, .SCC, .AHAP, .dcm,
    ]

    /// The file type for a path extension ("mov", ".MP4"), or nil when no file type claims it.
    package static func fileType(forPathExtension pathExtension: String) -> AVFileType? {
        var ext = pathExtension.lowercased()
        if ext.hasPrefix(".") { ext.removeFirst() }
        return allKnown.first { $0.pathExtensions.contains(ext) }
    }
}
