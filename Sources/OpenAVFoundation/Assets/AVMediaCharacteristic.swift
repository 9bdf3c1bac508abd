// Media characteristics of tracks and media selection options, with Apple's raw values.

/// A characteristic of a track or media selection option, such as visual, audible or legible.
/// Matches Apple: an extensible string wrapper with Apple's raw values (the first four are
/// "AVMediaCharacteristic…" strings, the rest "public.…" identifiers).
public struct AVMediaCharacteristic: RawRepresentable, Hashable, Sendable {
    /// The characteristic's string, for example "AVMediaCharacteristicVisual".
    public let rawValue: String

    /// Creates a media characteristic from its raw value.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a media characteristic from its raw value.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The track or option includes visual content.
    public static let visual = AVMediaCharacteristic(rawValue: "AVMediaCharacteristicVisual")
    /// The track or option includes audible content.
    public static let audible = AVMediaCharacteristic(rawValue: "AVMediaCharacteristicAudible")
    /// The track or option includes legible content.
    public static let legible = AVMediaCharacteristic(rawValue: "AVMediaCharacteristicLegible")
    /// The track or option includes frame-based content.
    public static let frameBased = AVMediaCharacteristic(rawValue: "AVMediaCharacteristicFrameBased")
    /// The track uses a wide-gamut color space.
    public static let usesWideGamutColorSpace = AVMediaCharacteristic(rawValue: "public.uses-wide-gamut-color-space")
    /// The track contains HDR video.
    public static let containsHDRVideo = AVMediaCharacteristic(rawValue: "public.contains-hdr-video")
    /// The track contains an alpha channel.
    public static let containsAlphaChannel = AVMediaCharacteristic(rawValue: "public.contains-alpha-channel")
    /// The content is marked by its author as intrinsic to the presentation.
    public static let isMainProgramContent = AVMediaCharacteristic(rawValue: "public.main-program-content")
    /// The content is marked by its author as auxiliary to the presentation.
    public static let isAuxiliaryContent = AVMediaCharacteristic(rawValue: "public.auxiliary-content")
    /// The content is original to the principal production, not a translation or derivative.
    public static let isOriginalContent = AVMediaCharacteristic(rawValue: "public.original-content")
    /// The legible content presents only forced subtitles.
    public static let containsOnlyForcedSubtitles = AVMediaCharacteristic(rawValue: "public.subtitles.forced-only")
    /// The legible content transcribes spoken dialog for accessibility.
    public static let transcribesSpokenDialogForAccessibility = AVMediaCharacteristic(rawValue: "public.accessibility.transcribes-spoken-dialog")
    /// The legible content describes music and sound for accessibility.
    public static let describesMusicAndSoundForAccessibility = AVMediaCharacteristic(rawValue: "public.accessibility.describes-music-and-sound")
    /// The legible content has been edited for ease of reading.
    public static let easyToRead = AVMediaCharacteristic(rawValue: "public.easy-to-read")
    /// The content describes the visual portion of the presentation for accessibility.
    public static let describesVideoForAccessibility = AVMediaCharacteristic(rawValue: "public.accessibility.describes-video")
    /// The content is a language or dialect translation.
    public static let languageTranslation = AVMediaCharacteristic(rawValue: "public.translation")
    /// The content is a translation made by dubbing the dialog.
    public static let dubbedTranslation = AVMediaCharacteristic(rawValue: "public.translation.dubbed")
    /// The content is a translation made by a voice-over.
    public static let voiceOverTranslation = AVMediaCharacteristic(rawValue: "public.translation.voice-over")
}
