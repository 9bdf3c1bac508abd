import OpenCoreVideo

// The attributes of the text markup Core Media gives legible media as (the attributed strings
// of `AVPlayerItemLegibleOutput`, text style rules): keys of an attributed string's attributes.
// Apple publishes the names, not the strings; these are the names without their prefix.

/// The text's colour: an array of four numbers, alpha, red, green and blue, from 0 to 1.
public let kCMTextMarkupAttribute_ForegroundColorARGB: CFString = "ForegroundColorARGB"
/// The colour behind the text's lines: an array of four numbers, alpha, red, green and blue.
public let kCMTextMarkupAttribute_BackgroundColorARGB: CFString = "BackgroundColorARGB"
/// The colour behind the text's characters: an array of four numbers, alpha, red, green and blue.
public let kCMTextMarkupAttribute_CharacterBackgroundColorARGB: CFString = "CharacterBackgroundColorARGB"
/// Whether the text is bold: a Boolean.
public let kCMTextMarkupAttribute_BoldStyle: CFString = "BoldStyle"
/// Whether the text is italic: a Boolean.
public let kCMTextMarkupAttribute_ItalicStyle: CFString = "ItalicStyle"
/// Whether the text is underlined: a Boolean.
public let kCMTextMarkupAttribute_UnderlineStyle: CFString = "UnderlineStyle"
/// The text's font family: a string, a family name or one of the generic families.
public let kCMTextMarkupAttribute_FontFamilyName: CFString = "FontFamilyName"
/// The text's size, as a percentage of the video's height: a number.
public let kCMTextMarkupAttribute_BaseFontSizePercentageRelativeToVideoHeight: CFString = "BaseFontSizePercentageRelativeToVideoHeight"
/// The text's size relative to the base size, as a percentage: a number (100 by default).
public let kCMTextMarkupAttribute_RelativeFontSize: CFString = "RelativeFontSize"
/// How the text's lines are aligned: one of the `kCMTextMarkupAlignmentType_…` values.
public let kCMTextMarkupAttribute_Alignment: CFString = "Alignment"

/// Lines aligned at the start of the writing direction.
public let kCMTextMarkupAlignmentType_Start: CFString = "start"
/// Lines centred.
public let kCMTextMarkupAlignmentType_Middle: CFString = "middle"
/// Lines aligned at the end of the writing direction.
public let kCMTextMarkupAlignmentType_End: CFString = "end"
/// Lines aligned on the left.
public let kCMTextMarkupAlignmentType_Left: CFString = "left"
/// Lines aligned on the right.
public let kCMTextMarkupAlignmentType_Right: CFString = "right"
