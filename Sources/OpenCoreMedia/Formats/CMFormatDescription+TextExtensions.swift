import Foundation
import OpenCoreVideo

extension CMFormatDescription.Extensions.Key {
    /// `kCMTextFormatDescriptionExtension_DisplayFlags`.
    public static let displayFlags = Self(rawValue: kCMTextFormatDescriptionExtension_DisplayFlags)
    /// `kCMTextFormatDescriptionExtension_BackgroundColor`.
    public static let backgroundColor = Self(rawValue: kCMTextFormatDescriptionExtension_BackgroundColor)
    /// `kCMTextFormatDescriptionExtension_DefaultTextBox`.
    public static let defaultTextBox = Self(rawValue: kCMTextFormatDescriptionExtension_DefaultTextBox)
    /// `kCMTextFormatDescriptionExtension_DefaultStyle`.
    public static let defaultStyle = Self(rawValue: kCMTextFormatDescriptionExtension_DefaultStyle)
    /// `kCMTextFormatDescriptionExtension_HorizontalJustification`.
    public static let horizontalJustification = Self(rawValue: kCMTextFormatDescriptionExtension_HorizontalJustification)
    /// `kCMTextFormatDescriptionExtension_VerticalJustification`.
    public static let verticalJustification = Self(rawValue: kCMTextFormatDescriptionExtension_VerticalJustification)
    /// `kCMTextFormatDescriptionExtension_FontTable`.
    public static let fontTable = Self(rawValue: kCMTextFormatDescriptionExtension_FontTable)
    /// `kCMTextFormatDescriptionExtension_TextJustification`.
    public static let textJustification = Self(rawValue: kCMTextFormatDescriptionExtension_TextJustification)
    /// `kCMTextFormatDescriptionExtension_DefaultFontName`.
    public static let defaultFontName = Self(rawValue: kCMTextFormatDescriptionExtension_DefaultFontName)
}

extension CMFormatDescription.Extensions.Value {
    /// How text is shown, as a Swift type (`CMTextDisplayFlags`).
    public struct TextDisplayFlags: RawRepresentable, Hashable, Sendable {
        /// The flags.
        public let rawValue: CMTextDisplayFlags
        /// Flags from their bits.
        public init(rawValue: CMTextDisplayFlags) { self.rawValue = rawValue }

        /// `kCMTextDisplayFlag_scrollIn`.
        public static let scrollIn = Self(rawValue: kCMTextDisplayFlag_scrollIn)
        /// `kCMTextDisplayFlag_scrollOut`.
        public static let scrollOut = Self(rawValue: kCMTextDisplayFlag_scrollOut)
        /// `kCMTextDisplayFlag_scrollDirectionMask`.
        public static let scrollDirectionMask = Self(rawValue: kCMTextDisplayFlag_scrollDirectionMask)
        /// `kCMTextDisplayFlag_scrollDirection_bottomToTop`.
        public static let scrollDirection_bottomToTop = Self(rawValue: kCMTextDisplayFlag_scrollDirection_bottomToTop)
        /// `kCMTextDisplayFlag_scrollDirection_rightToLeft`.
        public static let scrollDirection_rightToLeft = Self(rawValue: kCMTextDisplayFlag_scrollDirection_rightToLeft)
        /// `kCMTextDisplayFlag_scrollDirection_topToBottom`.
        public static let scrollDirection_topToBottom = Self(rawValue: kCMTextDisplayFlag_scrollDirection_topToBottom)
        /// `kCMTextDisplayFlag_scrollDirection_leftToRight`.
        public static let scrollDirection_leftToRight = Self(rawValue: kCMTextDisplayFlag_scrollDirection_leftToRight)
        /// `kCMTextDisplayFlag_continuousKaraoke`.
        public static let continuousKaraoke = Self(rawValue: kCMTextDisplayFlag_continuousKaraoke)
        /// `kCMTextDisplayFlag_writeTextVertically`.
        public static let writeTextVertically = Self(rawValue: kCMTextDisplayFlag_writeTextVertically)
        /// `kCMTextDisplayFlag_fillTextRegion`.
        public static let fillTextRegion = Self(rawValue: kCMTextDisplayFlag_fillTextRegion)
        /// `kCMTextDisplayFlag_obeySubtitleFormatting`.
        public static let obeySubtitleFormatting = Self(rawValue: kCMTextDisplayFlag_obeySubtitleFormatting)
        /// `kCMTextDisplayFlag_forcedSubtitlesPresent`.
        public static let forcedSubtitlesPresent = Self(rawValue: kCMTextDisplayFlag_forcedSubtitlesPresent)
        /// `kCMTextDisplayFlag_allSubtitlesForced`.
        public static let allSubtitlesForced = Self(rawValue: kCMTextDisplayFlag_allSubtitlesForced)

        /// The scrolling direction these flags hold (their `scrollDirectionMask` bits).
        public var scrollDirection: Self { Self(rawValue: rawValue & kCMTextDisplayFlag_scrollDirectionMask) }
    }

    /// Where text sits in its box, as a Swift type (`CMTextJustificationValue`).
    public struct TextJustification: RawRepresentable, Hashable, Sendable {
        /// The justification.
        public let rawValue: CMTextJustificationValue
        /// A justification from its value.
        public init(rawValue: CMTextJustificationValue) { self.rawValue = rawValue }

        /// Left (`kCMTextJustification_left_top`).
        public static let left = Self(rawValue: kCMTextJustification_left_top)
        /// Top (`kCMTextJustification_left_top`).
        public static let top = Self(rawValue: kCMTextJustification_left_top)
        /// Centred (`kCMTextJustification_centered`).
        public static let centered = Self(rawValue: kCMTextJustification_centered)
        /// Bottom (`kCMTextJustification_bottom_right`).
        public static let bottom = Self(rawValue: kCMTextJustification_bottom_right)
        /// Right (`kCMTextJustification_bottom_right`).
        public static let right = Self(rawValue: kCMTextJustification_bottom_right)
    }

    /// A text style's face.
    public struct FontFace: OptionSet, Hashable, Sendable {
        /// The face's bits.
        public let rawValue: Int
        /// A face from its bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Bold.
        public static let bold = Self(rawValue: 1)
        /// Italic.
        public static let italic = Self(rawValue: 2)
        /// Underlined.
        public static let underline = Self(rawValue: 4)
        /// Bold, italic and underlined.
        public static let all: Self = [.bold, .italic, .underline]
    }

    /// A QuickTime text colour (16 bits a component; QuickTime text colours are opaque, so
    /// `alpha` is not stored).
    public static func qtTextColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) -> Self {
        color([red, green, blue], scale: 65535)
    }

    /// A 3GPP text colour (8 bits a component).
    public static func mobile3GPPTextColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) -> Self {
        color([red, green, blue, alpha], scale: 255)
    }

    /// A 3GPP font table: names by local font ID.
    public static func fontTable(_ fontTable: [Int: String]) -> Self {
        Self(propertyListRepresentation: NSDictionary(dictionary: Dictionary(uniqueKeysWithValues: fontTable.map { (String($0.key), $0.value) })))
    }

    /// A QuickTime text default style.
    public static func qtTextDefaultStyle(startChar: Int, height: Int, ascent: Int, localFontID: Int, fontFace: FontFace, fontSize: Int,
                                          foregroundColor: Self, defaultFontName: String?) -> Self {
        var style: [String: Any] = [kCMTextFormatDescriptionStyle_StartChar: startChar, kCMTextFormatDescriptionStyle_Height: height,
                                    kCMTextFormatDescriptionStyle_Ascent: ascent, kCMTextFormatDescriptionStyle_Font: localFontID,
                                    kCMTextFormatDescriptionStyle_FontFace: fontFace.rawValue,
                                    kCMTextFormatDescriptionStyle_FontSize: fontSize,
                                    kCMTextFormatDescriptionStyle_ForegroundColor: foregroundColor.propertyListRepresentation]
        if let defaultFontName { style[kCMTextFormatDescriptionExtension_DefaultFontName] = defaultFontName }
        return Self(propertyListRepresentation: NSDictionary(dictionary: style))
    }

    /// A 3GPP text default style, from `startChar` up to `endChar`.
    public static func mobile3GPPTextDefaultStyle(startChar: Int, endChar: Int, localFontID: Int, fontFace: FontFace, fontSize: Int,
                                                  foregroundColor: Self) -> Self {
        Self(propertyListRepresentation: NSDictionary(dictionary: [
            kCMTextFormatDescriptionStyle_StartChar: startChar, kCMTextFormatDescriptionStyle_EndChar: endChar,
            kCMTextFormatDescriptionStyle_Font: localFontID, kCMTextFormatDescriptionStyle_FontFace: fontFace.rawValue,
            kCMTextFormatDescriptionStyle_FontSize: fontSize,
            kCMTextFormatDescriptionStyle_ForegroundColor: foregroundColor.propertyListRepresentation,
        ]))
    }

    /// A text box.
    public static func textRect(top: Int, left: Int, bottom: Int, right: Int) -> Self {
        Self(propertyListRepresentation: NSDictionary(dictionary: [
            kCMTextFormatDescriptionRect_Top: top, kCMTextFormatDescriptionRect_Left: left,
            kCMTextFormatDescriptionRect_Bottom: bottom, kCMTextFormatDescriptionRect_Right: right,
        ]))
    }

    /// Display flags, combined.
    public static func textDisplayFlags(_ textDisplayFlags: Set<TextDisplayFlags>) -> Self {
        Self(propertyListRepresentation: NSNumber(value: textDisplayFlags.reduce(0) { $0 | $1.rawValue }))
    }

    /// A justification.
    public static func textJustification(_ textJustification: TextJustification) -> Self {
        Self(propertyListRepresentation: NSNumber(value: textJustification.rawValue))
    }

    /// A colour dictionary of components from 0 to 1 stored as integers up to `scale`.
    private static func color(_ components: [CGFloat], scale: CGFloat) -> Self {
        let keys = [kCMTextFormatDescriptionColor_Red, kCMTextFormatDescriptionColor_Green, kCMTextFormatDescriptionColor_Blue,
                    kCMTextFormatDescriptionColor_Alpha]
        let values = zip(keys, components).map { ($0, Int((min(max($1, 0), 1) * scale).rounded())) }
        return Self(propertyListRepresentation: NSDictionary(dictionary: Dictionary(uniqueKeysWithValues: values)))
    }
}
