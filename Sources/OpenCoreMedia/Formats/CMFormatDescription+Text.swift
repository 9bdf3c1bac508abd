import Foundation
import OpenCoreVideo

extension CMFormatDescription {
    /// How the text is shown (none when the description states no flags). Throws an `NSError`
    /// in `NSOSStatusErrorDomain` (`kCMFormatDescriptionError_InvalidParameter`) for a
    /// description that is not text.
    public func displayFlags() throws -> Extensions.Value.TextDisplayFlags {
        let text = try textExtensions()
        return Extensions.Value.TextDisplayFlags(rawValue: (text[kCMTextFormatDescriptionExtension_DisplayFlags] as? NSNumber)?.uint32Value ?? 0)
    }

    /// Where the text sits in its box. QuickTime text has one justification, the horizontal
    /// one; its vertical justification is top.
    public func justification() throws -> (horizontal: Extensions.Value.TextJustification, vertical: Extensions.Value.TextJustification) {
        let text = try textExtensions()
        func value(_ key: CFString) -> Extensions.Value.TextJustification {
            Extensions.Value.TextJustification(rawValue: (text[key] as? NSNumber)?.int8Value ?? kCMTextJustification_left_top)
        }
        if mediaSubType == .qt { return (value(kCMTextFormatDescriptionExtension_TextJustification), .top) }
        return (value(kCMTextFormatDescriptionExtension_HorizontalJustification), value(kCMTextFormatDescriptionExtension_VerticalJustification))
    }

    /// The box text is drawn in: from the top left of the track when `originIsAtTopLeft`, else
    /// from the bottom left of a track `heightOfTextTrack` high. Throws
    /// `kCMFormatDescriptionError_ValueNotAvailable` when the description has none.
    public func defaultTextBox(originIsAtTopLeft: Bool, heightOfTextTrack: CGFloat) throws -> CGRect {
        guard let box = try textExtensions()[kCMTextFormatDescriptionExtension_DefaultTextBox] as? NSDictionary else {
            throw Self.error(kCMFormatDescriptionError_ValueNotAvailable)
        }
        func edge(_ key: CFString) -> CGFloat { CGFloat((box[key] as? NSNumber)?.doubleValue ?? 0) }
        let (top, left, bottom, right) = (edge(kCMTextFormatDescriptionRect_Top), edge(kCMTextFormatDescriptionRect_Left),
                                          edge(kCMTextFormatDescriptionRect_Bottom), edge(kCMTextFormatDescriptionRect_Right))
        return CGRect(x: left, y: originIsAtTopLeft ? top : heightOfTextTrack - bottom, width: right - left, height: bottom - top)
    }

    /// The text's default style: local font ID, face, size, and colour as red, green, blue and
    /// alpha from 0 to 1 (QuickTime text's colours are opaque). Throws
    /// `kCMFormatDescriptionError_ValueNotAvailable` when the description has none.
    public func defaultStyle() throws -> (localFontID: Int, bold: Bool, italic: Bool, underline: Bool, fontSize: CGFloat,
                                          colorComponents: [CGFloat]) {
        guard let style = try textExtensions()[kCMTextFormatDescriptionExtension_DefaultStyle] as? NSDictionary else {
            throw Self.error(kCMFormatDescriptionError_ValueNotAvailable)
        }
        func number(_ key: CFString) -> NSNumber? { style[key] as? NSNumber }
        let face = Extensions.Value.FontFace(rawValue: number(kCMTextFormatDescriptionStyle_FontFace)?.intValue ?? 0)
        let color = style[kCMTextFormatDescriptionStyle_ForegroundColor] as? NSDictionary
        let scale: CGFloat = mediaSubType == .qt ? 65535 : 255
        func component(_ key: CFString) -> CGFloat {
            (color?[key] as? NSNumber).map { CGFloat($0.doubleValue) / scale } ?? (key == kCMTextFormatDescriptionColor_Alpha ? 1 : 0)
        }
        return (number(kCMTextFormatDescriptionStyle_Font)?.intValue ?? 0, face.contains(.bold), face.contains(.italic),
                face.contains(.underline), CGFloat(number(kCMTextFormatDescriptionStyle_FontSize)?.doubleValue ?? 0),
                [kCMTextFormatDescriptionColor_Red, kCMTextFormatDescriptionColor_Green, kCMTextFormatDescriptionColor_Blue,
                 kCMTextFormatDescriptionColor_Alpha].map(component))
    }

    /// The name of the font with local ID `localFontID`: from 3GPP text's font table, or
    /// QuickTime text's one font name. Throws `kCMFormatDescriptionError_ValueNotAvailable`
    /// when there is none.
    public func fontName(localFontID: Int) throws -> String {
        String(try storedFontName(localFontID: localFontID))
    }

    /// The font name as the description keeps it.
    func storedFontName(localFontID: Int) throws -> NSString {
        _ = try textExtensions()
        guard let name = textFontNames[mediaSubType == .qt ? -1 : localFontID] else {
            throw Self.error(kCMFormatDescriptionError_ValueNotAvailable)
        }
        return name
    }

    /// The font names of text extensions: the font table's by ID, QuickTime text's one name as -1.
    static func fontNames(in extensions: NSDictionary?) -> [Int: NSString] {
        var names: [Int: NSString] = [:]
        if let name = extensions?[kCMTextFormatDescriptionExtension_DefaultFontName] as? String { names[-1] = NSString(string: name) }
        if let table = extensions?[kCMTextFormatDescriptionExtension_FontTable] as? NSDictionary {
            for (key, value) in table {
                if let id = Int("\(key)"), let name = value as? String { names[id] = NSString(string: name) }
            }
        }
        return names
    }

    /// The extensions of a text description; throws for any other.
    private func textExtensions() throws -> NSDictionary {
        guard mediaType == .text || mediaType == .subtitle, mediaSubType == .qt || mediaSubType == .mobile3GPP else {
            throw Self.error(kCMFormatDescriptionError_InvalidParameter)
        }
        return storedExtensions ?? NSDictionary()
    }

    /// An error of a format description function, as Apple's Swift methods throw them.
    static func error(_ status: OSStatus) -> NSError {
        NSError(domain: NSOSStatusErrorDomain, code: Int(status))
    }

    /// The status of a format description function whose work may throw such an error.
    static func status(_ body: () throws -> Void) -> OSStatus {
        do {
            try body()
            return noErr
        } catch {
            return OSStatus(truncatingIfNeeded: (error as NSError).code)
        }
    }
}
