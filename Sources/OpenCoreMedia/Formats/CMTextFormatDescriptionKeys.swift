import OpenCoreVideo

// The subtypes of text format descriptions and the keys of their extensions, as QuickTime text
// and chapter tracks (`'text'`) and 3GPP timed text (`'tx3g'`, MP4's subtitles) use them.
// Apple publishes the names, not the strings: these are the strings Apple's format
// descriptions print their extensions with.

/// QuickTime text (`'text'`): chapter tracks and old subtitle tracks of QuickTime movies.
public let kCMTextFormatType_QTText: FourCharCode = 0x7465_7874 // 'text'
/// 3GPP timed text (`'tx3g'`): subtitles of MP4 and QuickTime files.
public let kCMTextFormatType_3GText: FourCharCode = 0x7478_3367 // 'tx3g'

/// How the text is shown: a number holding `CMTextDisplayFlags`.
public let kCMTextFormatDescriptionExtension_DisplayFlags: CFString = "DisplayFlags"
/// The background colour: a dictionary of the `kCMTextFormatDescriptionColor_…` keys.
public let kCMTextFormatDescriptionExtension_BackgroundColor: CFString = "BackgroundColor"
/// The box the text is drawn in: a dictionary of the `kCMTextFormatDescriptionRect_…` keys.
public let kCMTextFormatDescriptionExtension_DefaultTextBox: CFString = "DefaultTextBox"
/// The text's style: a dictionary of the `kCMTextFormatDescriptionStyle_…` keys.
public let kCMTextFormatDescriptionExtension_DefaultStyle: CFString = "DefaultStyle"
/// 3GPP text's horizontal justification: a number holding a `CMTextJustificationValue`.
public let kCMTextFormatDescriptionExtension_HorizontalJustification: CFString = "HorizontalJustification"
/// 3GPP text's vertical justification: a number holding a `CMTextJustificationValue`.
public let kCMTextFormatDescriptionExtension_VerticalJustification: CFString = "VerticalJustification"
/// 3GPP text's fonts: a dictionary from local font IDs (as strings) to font names.
public let kCMTextFormatDescriptionExtension_FontTable: CFString = "FontTable"
/// QuickTime text's justification: a number holding a `CMTextJustificationValue`.
public let kCMTextFormatDescriptionExtension_TextJustification: CFString = "TextJustification"
/// QuickTime text's font name: a string.
public let kCMTextFormatDescriptionExtension_DefaultFontName: CFString = "DefaultFontName"

/// A colour's red, in a colour dictionary: a number (0–255 in 3GPP text, 0–65535 in QuickTime text).
public let kCMTextFormatDescriptionColor_Red: CFString = "Red"
/// A colour's green, in a colour dictionary: a number.
public let kCMTextFormatDescriptionColor_Green: CFString = "Green"
/// A colour's blue, in a colour dictionary: a number.
public let kCMTextFormatDescriptionColor_Blue: CFString = "Blue"
/// A colour's alpha, in a colour dictionary: a number (3GPP text only).
public let kCMTextFormatDescriptionColor_Alpha: CFString = "Alpha"

/// A rectangle's top, in a rectangle dictionary: a 16-bit number.
public let kCMTextFormatDescriptionRect_Top: CFString = "Top"
/// A rectangle's left, in a rectangle dictionary: a 16-bit number.
public let kCMTextFormatDescriptionRect_Left: CFString = "Left"
/// A rectangle's bottom, in a rectangle dictionary: a 16-bit number.
public let kCMTextFormatDescriptionRect_Bottom: CFString = "Bottom"
/// A rectangle's right, in a rectangle dictionary: a 16-bit number.
public let kCMTextFormatDescriptionRect_Right: CFString = "Right"

/// The first character a style applies to, in a style dictionary: a number.
public let kCMTextFormatDescriptionStyle_StartChar: CFString = "StartChar"
/// The local font ID of a style (a key of the font table), in a style dictionary: a number.
public let kCMTextFormatDescriptionStyle_Font: CFString = "Font"
/// A style's face (bold 1, italic 2, underline 4), in a style dictionary: a number.
public let kCMTextFormatDescriptionStyle_FontFace: CFString = "FontFace"
/// A style's text colour, in a style dictionary: a dictionary of the `kCMTextFormatDescriptionColor_…` keys.
public let kCMTextFormatDescriptionStyle_ForegroundColor: CFString = "ForegroundColor"
/// A style's font size, in a style dictionary: a number.
public let kCMTextFormatDescriptionStyle_FontSize: CFString = "FontSize"
/// The character after the last a 3GPP style applies to, in a style dictionary: a number.
public let kCMTextFormatDescriptionStyle_EndChar: CFString = "EndChar"
/// A QuickTime text style's line height, in a style dictionary: a number.
public let kCMTextFormatDescriptionStyle_Height: CFString = "Height"
/// A QuickTime text style's ascent, in a style dictionary: a number.
public let kCMTextFormatDescriptionStyle_Ascent: CFString = "Ascent"
