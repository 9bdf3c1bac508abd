// Apple's export preset names, for `AVAssetExportSession(asset:presetName:)`. What each one
// writes here (codec, size, bit rate, audio) is in the README's export table.

/// H.264 video of a small size (fitted inside 224x168) and AAC audio, for a small file.
public let AVAssetExportPresetLowQuality: String = "AVAssetExportPresetLowQuality"
/// H.264 video of a medium size (fitted inside 568x320) and AAC audio.
public let AVAssetExportPresetMediumQuality: String = "AVAssetExportPresetMediumQuality"
/// H.264 video at the source's size and a high bit rate, and AAC audio.
public let AVAssetExportPresetHighestQuality: String = "AVAssetExportPresetHighestQuality"
/// H.264 video fitted inside 640x480 (never upscaled), and AAC audio.
public let AVAssetExportPreset640x480: String = "AVAssetExportPreset640x480"
/// H.264 video fitted inside 960x540 (never upscaled), and AAC audio.
public let AVAssetExportPreset960x540: String = "AVAssetExportPreset960x540"
/// H.264 video fitted inside 1280x720 (never upscaled), and AAC audio.
public let AVAssetExportPreset1280x720: String = "AVAssetExportPreset1280x720"
/// H.264 video fitted inside 1920x1080 (never upscaled), and AAC audio.
public let AVAssetExportPreset1920x1080: String = "AVAssetExportPreset1920x1080"
/// H.264 video fitted inside 3840x2160 (never upscaled), and AAC audio.
public let AVAssetExportPreset3840x2160: String = "AVAssetExportPreset3840x2160"
/// HEVC video fitted inside 1920x1080 (never upscaled), and AAC audio.
public let AVAssetExportPresetHEVC1920x1080: String = "AVAssetExportPresetHEVC1920x1080"
/// HEVC video fitted inside 3840x2160 (never upscaled), and AAC audio.
public let AVAssetExportPresetHEVC3840x2160: String = "AVAssetExportPresetHEVC3840x2160"
/// HEVC video at the source's size and a high bit rate, and AAC audio.
public let AVAssetExportPresetHEVCHighestQuality: String = "AVAssetExportPresetHEVCHighestQuality"
/// HEVC video fitted inside 7680x4320 (never upscaled), and AAC audio.
public let AVAssetExportPresetHEVC7680x4320: String = "AVAssetExportPresetHEVC7680x4320"
/// AAC audio only, in an `.m4a` file.
public let AVAssetExportPresetAppleM4A: String = "AVAssetExportPresetAppleM4A"
/// Every video and audio track stored as it is, without re-encoding; trims stay frame-exact
/// through the file's edit list.
public let AVAssetExportPresetPassthrough: String = "AVAssetExportPresetPassthrough"
/// Apple ProRes 422 video at the source's size and 16-bit linear PCM audio, in a QuickTime movie.
public let AVAssetExportPresetAppleProRes422LPCM: String = "AVAssetExportPresetAppleProRes422LPCM"
/// Apple ProRes 4444 video at the source's size and 16-bit linear PCM audio, in a QuickTime movie.
public let AVAssetExportPresetAppleProRes4444LPCM: String = "AVAssetExportPresetAppleProRes4444LPCM"

// Apple's presets this package does not export (HEVC with alpha, MV-HEVC, the 4320x2160 box,
// the legacy M4V presets): the names compile, `AVAssetExportSession(asset:presetName:)` returns
// nil for them and `allExportPresets()` leaves them out.

/// HEVC video with alpha at the source's size. Not offered here: libx265 encodes no alpha.
public let AVAssetExportPresetHEVCHighestQualityWithAlpha: String = "AVAssetExportPresetHEVCHighestQualityWithAlpha"
/// HEVC video with alpha inside 1920x1080. Not offered here: libx265 encodes no alpha.
public let AVAssetExportPresetHEVC1920x1080WithAlpha: String = "AVAssetExportPresetHEVC1920x1080WithAlpha"
/// HEVC video with alpha inside 3840x2160. Not offered here: libx265 encodes no alpha.
public let AVAssetExportPresetHEVC3840x2160WithAlpha: String = "AVAssetExportPresetHEVC3840x2160WithAlpha"
/// HEVC video inside 4320x2160. Not offered here.
public let AVAssetExportPresetHEVC4320x2160: String = "AVAssetExportPresetHEVC4320x2160"
/// MV-HEVC (stereo) video at 960x960. Not offered here: no multiview encoder.
public let AVAssetExportPresetMVHEVC960x960: String = "AVAssetExportPresetMVHEVC960x960"
/// MV-HEVC (stereo) video at 1440x1440. Not offered here: no multiview encoder.
public let AVAssetExportPresetMVHEVC1440x1440: String = "AVAssetExportPresetMVHEVC1440x1440"
/// MV-HEVC (stereo) video at 4320x4320. Not offered here: no multiview encoder.
public let AVAssetExportPresetMVHEVC4320x4320: String = "AVAssetExportPresetMVHEVC4320x4320"
/// MV-HEVC (stereo) video at 7680x7680. Not offered here: no multiview encoder.
public let AVAssetExportPresetMVHEVC7680x7680: String = "AVAssetExportPresetMVHEVC7680x7680"
/// An `.m4v` file for cellular streaming (macOS). Not offered here.
public let AVAssetExportPresetAppleM4VCellular: String = "AVAssetExportPresetAppleM4VCellular"
/// An `.m4v` file for iPod (macOS). Not offered here.
public let AVAssetExportPresetAppleM4ViPod: String = "AVAssetExportPresetAppleM4ViPod"
/// An `.m4v` file at 480p (macOS). Not offered here.
public let AVAssetExportPresetAppleM4V480pSD: String = "AVAssetExportPresetAppleM4V480pSD"
/// An `.m4v` file for Apple TV (macOS). Not offered here.
public let AVAssetExportPresetAppleM4VAppleTV: String = "AVAssetExportPresetAppleM4VAppleTV"
/// An `.m4v` file for Wi-Fi streaming (macOS). Not offered here.
public let AVAssetExportPresetAppleM4VWiFi: String = "AVAssetExportPresetAppleM4VWiFi"
/// An `.m4v` file at 720p (macOS). Not offered here.
public let AVAssetExportPresetAppleM4V720pHD: String = "AVAssetExportPresetAppleM4V720pHD"
/// An `.m4v` file at 1080p (macOS). Not offered here.
public let AVAssetExportPresetAppleM4V1080pHD: String = "AVAssetExportPresetAppleM4V1080pHD"
