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
/// AAC audio only, in an `.m4a` file.
public let AVAssetExportPresetAppleM4A: String = "AVAssetExportPresetAppleM4A"
/// Every video and audio track stored as it is, without re-encoding; trims stay frame-exact
/// through the file's edit list.
public let AVAssetExportPresetPassthrough: String = "AVAssetExportPresetPassthrough"
/// Apple ProRes 422 video at the source's size and 16-bit linear PCM audio, in a QuickTime movie.
public let AVAssetExportPresetAppleProRes422LPCM: String = "AVAssetExportPresetAppleProRes422LPCM"
