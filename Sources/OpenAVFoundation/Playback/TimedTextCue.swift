import Foundation
import MediaEngine
import OpenCoreMedia

/// The attributed string of a 3GPP timed text sample (a subtitle cue), as Apple's legible output
/// gives it: the text with Core Media's markup attributes (`kCMTextMarkupAttribute_…`) for the
/// track's default style (font family, colour, face) and, over their characters, the sample's
/// own style records (bold, italic, underline, colour).
enum TimedTextCue {
    /// The cue's string, empty for a sample that clears the text; nil when the sample is not
    /// timed text.
    static func attributedString(of sample: CMSampleBuffer) -> NSAttributedString? {
        guard let data = try? sample.dataBuffer?.dataBytes(), let text = TimedText.text(ofSample: data) else { return nil }
        let string = NSMutableAttributedString(string: text)
        guard !text.isEmpty else { return string }
        let extensions = sample.formatDescription.flatMap { CMFormatDescriptionGetExtensions($0) } ?? NSDictionary()
        let fonts = extensions[kCMTextFormatDescriptionExtension_FontTable] as? NSDictionary
        let whole = NSRange(location: 0, length: string.length)
        if let style = extensions[kCMTextFormatDescriptionExtension_DefaultStyle] as? NSDictionary {
            func number(_ key: CFString) -> Int { (style[key] as? NSNumber)?.intValue ?? 0 }
            let color = (style[kCMTextFormatDescriptionStyle_ForegroundColor] as? NSDictionary).map { color in
                [kCMTextFormatDescriptionColor_Red, kCMTextFormatDescriptionColor_Green, kCMTextFormatDescriptionColor_Blue,
                 kCMTextFormatDescriptionColor_Alpha].map { UInt8(clamping: (color[$0] as? NSNumber)?.intValue ?? 255) }
            }
            apply(TimedText.Style(startChar: 0, endChar: Int.max, fontID: number(kCMTextFormatDescriptionStyle_Font),
                                  face: number(kCMTextFormatDescriptionStyle_FontFace), fontSize: number(kCMTextFormatDescriptionStyle_FontSize),
                                  color: color ?? [255, 255, 255, 255]),
                  to: string, range: whole, fonts: fonts)
        }
        // Style records count Unicode scalars; the string's ranges count UTF-16 units.
        let scalars = Array(text.unicodeScalars)
        func offset(_ scalar: Int) -> Int { scalars.prefix(min(max(scalar, 0), scalars.count)).reduce(0) { $0 + $1.utf16.count } }
        for style in TimedText.styles(ofSample: data) where style.endChar > style.startChar {
            let start = offset(style.startChar)
            apply(style, to: string, range: NSRange(location: start, length: offset(style.endChar) - start), fonts: fonts)
        }
        return string
    }

    /// Sets a style's attributes over `range`.
    private static func apply(_ style: TimedText.Style, to string: NSMutableAttributedString, range: NSRange, fonts: NSDictionary?) {
        guard range.length > 0 else { return }
        var attributes: [NSAttributedString.Key: Any] = [
            .init(kCMTextMarkupAttribute_BoldStyle): style.face & 1 != 0,
            .init(kCMTextMarkupAttribute_ItalicStyle): style.face & 2 != 0,
            .init(kCMTextMarkupAttribute_UnderlineStyle): style.face & 4 != 0,
        ]
        if style.color.count == 4 {
            attributes[.init(kCMTextMarkupAttribute_ForegroundColorARGB)] = [style.color[3], style.color[0], style.color[1], style.color[2]]
                .map { Double($0) / 255 }
        }
        if let family = fonts?["\(style.fontID)"] as? String {
            attributes[.init(kCMTextMarkupAttribute_FontFamilyName)] = family
        }
        string.addAttributes(attributes, range: range)
    }
}
