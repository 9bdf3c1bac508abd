/// How a text track's text is shown: scrolling, karaoke, vertical writing, forced subtitles
/// (`kCMTextFormatDescriptionExtension_DisplayFlags`).
public typealias CMTextDisplayFlags = UInt32

/// The text scrolls into the display region.
public var kCMTextDisplayFlag_scrollIn: CMTextDisplayFlags { 0x0000_0020 }
/// The text scrolls out of the display region.
public var kCMTextDisplayFlag_scrollOut: CMTextDisplayFlags { 0x0000_0040 }
/// The two bits that give the scrolling direction.
public var kCMTextDisplayFlag_scrollDirectionMask: CMTextDisplayFlags { 0x0000_0180 }
/// The text scrolls up, credits style.
public var kCMTextDisplayFlag_scrollDirection_bottomToTop: CMTextDisplayFlags { 0x0000_0000 }
/// The text scrolls from right to left, marquee style.
public var kCMTextDisplayFlag_scrollDirection_rightToLeft: CMTextDisplayFlags { 0x0000_0080 }
/// The text scrolls down.
public var kCMTextDisplayFlag_scrollDirection_topToBottom: CMTextDisplayFlags { 0x0000_0100 }
/// The text scrolls from left to right.
public var kCMTextDisplayFlag_scrollDirection_leftToRight: CMTextDisplayFlags { 0x0000_0180 }
/// Karaoke highlighting accumulates instead of moving.
public var kCMTextDisplayFlag_continuousKaraoke: CMTextDisplayFlags { 0x0000_0800 }
/// The text is written vertically.
public var kCMTextDisplayFlag_writeTextVertically: CMTextDisplayFlags { 0x0002_0000 }
/// The background fills the whole text region, not only the text's box.
public var kCMTextDisplayFlag_fillTextRegion: CMTextDisplayFlags { 0x0004_0000 }
/// Subtitle formatting in the samples is obeyed.
public var kCMTextDisplayFlag_obeySubtitleFormatting: CMTextDisplayFlags { 0x2000_0000 }
/// Some samples are forced subtitles (shown whatever the user chose).
public var kCMTextDisplayFlag_forcedSubtitlesPresent: CMTextDisplayFlags { 0x4000_0000 }
/// Every sample is a forced subtitle.
public var kCMTextDisplayFlag_allSubtitlesForced: CMTextDisplayFlags { 0x8000_0000 }
