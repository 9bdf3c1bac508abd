// The presets of AVOutputSettingsAssistant, with Apple's identifiers.

/// A preset configuration for `AVOutputSettingsAssistant`; raw values are Apple's identifiers.
public struct AVOutputSettingsPreset: RawRepresentable, Hashable, Sendable {
    /// The preset identifier, for example "AVOutputSettingsPreset640x480".
    public let rawValue: String

    /// Creates a preset from its identifier.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// H.264 video at 640 by 480 pixels.
    public static let preset640x480 = AVOutputSettingsPreset(rawValue: "AVOutputSettingsPreset640x480")
    /// H.264 video at 960 by 540 pixels.
    public static let preset960x540 = AVOutputSettingsPreset(rawValue: "AVOutputSettingsPreset960x540")
    /// H.264 video at 1280 by 720 pixels.
    public static let preset1280x720 = AVOutputSettingsPreset(rawValue: "AVOutputSettingsPreset1280x720")
    /// H.264 video at 1920 by 1080 pixels.
    public static let preset1920x1080 = AVOutputSettingsPreset(rawValue: "AVOutputSettingsPreset1920x1080")
    /// H.264 video at 3840 by 2160 pixels.
    public static let preset3840x2160 = AVOutputSettingsPreset(rawValue: "AVOutputSettingsPreset3840x2160")
    /// HEVC video at 1920 by 1080 pixels.
    public static let hevc1920x1080 = AVOutputSettingsPreset(rawValue: "AVOutputSettingsPresetHEVC1920x1080")
    /// HEVC video with alpha at 1920 by 1080 pixels.
    public static let hevc1920x1080WithAlpha =
        AVOutputSettingsPreset(rawValue: "AVOutputSettingsPresetHEVC1920x1080WithAlpha")
    /// HEVC video at 3840 by 2160 pixels.
    public static let hevc3840x2160 = AVOutputSettingsPreset(rawValue: "AVOutputSettingsPresetHEVC3840x2160")
    /// HEVC video with alpha at 3840 by 2160 pixels.
    public static let hevc3840x2160WithAlpha =
        AVOutputSettingsPreset(rawValue: "AVOutputSettingsPresetHEVC3840x2160WithAlpha")
    /// HEVC video at 7680 by 4320 pixels.
    public static let hevc7680x4320 = AVOutputSettingsPreset(rawValue: "AVOutputSettingsPresetHEVC7680x4320")

    // Apple's presets the assistant does not offer here (`AVOutputSettingsAssistant(preset:)`
    // returns nil for them): the 4320x2160 box and MV-HEVC (stereo), which needs a multiview
    // encoder.

    /// HEVC video at 4320 by 2160 pixels. Not offered here.
    public static let hevc4320x2160 = AVOutputSettingsPreset(rawValue: "AVOutputSettingsPresetHEVC4320x2160")
    /// MV-HEVC (stereo) video at 960 by 960 pixels. Not offered here.
    public static let mvhevc960x960 = AVOutputSettingsPreset(rawValue: "AVOutputSettingsPresetMVHEVC960x960")
    /// MV-HEVC (stereo) video at 1440 by 1440 pixels. Not offered here.
    public static let mvhevc1440x1440 = AVOutputSettingsPreset(rawValue: "AVOutputSettingsPresetMVHEVC1440x1440")
    /// MV-HEVC (stereo) video at 4320 by 4320 pixels. Not offered here.
    public static let mvhevc4320x4320 = AVOutputSettingsPreset(rawValue: "AVOutputSettingsPresetMVHEVC4320x4320")
    /// MV-HEVC (stereo) video at 7680 by 7680 pixels. Not offered here.
    public static let mvhevc7680x7680 = AVOutputSettingsPreset(rawValue: "AVOutputSettingsPresetMVHEVC7680x7680")
}
