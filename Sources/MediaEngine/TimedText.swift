import CFFmpeg
import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// QuickTime and 3GPP timed text as files store it: the `tx3g` sample description FFmpeg's
/// `mov_text` muxer takes as extradata, made from a text format description, and the text of a
/// sample (a 16-bit big-endian length, then UTF-8 or BOM-marked UTF-16 bytes, then style boxes).
package enum TimedText {
    /// The `tx3g` sample description of a text format description (3GPP text as it is;
    /// QuickTime text's justification, colours, box and style carried over), after the sample
    /// entry's header: display flags, justification, background colour, default text box,
    /// default style and font table. What the description leaves out gets FFmpeg's defaults
    /// (white 18-point "Serif" on transparent black, a zero box).
    package static func sampleDescription(of description: CMFormatDescription) -> Data {
        let extensions = CMFormatDescriptionGetExtensions(description) ?? NSDictionary()
        let isQuickTime = CMFormatDescriptionGetMediaSubType(description) == kCMTextFormatType_QTText
        func number(_ dictionary: NSDictionary?, _ key: CFString) -> Int? { (dictionary?[key] as? NSNumber)?.intValue }
        /// A colour as 8-bit RGBA (QuickTime text's 16-bit components scaled, opaque).
        func color(_ value: Any?, default fallback: [UInt8]) -> [UInt8] {
            guard let dictionary = value as? NSDictionary else { return fallback }
            let scale = isQuickTime ? 257 : 1
            return [kCMTextFormatDescriptionColor_Red, kCMTextFormatDescriptionColor_Green, kCMTextFormatDescriptionColor_Blue,
                    kCMTextFormatDescriptionColor_Alpha].map { key in
                UInt8(clamping: (number(dictionary, key) ?? (key == kCMTextFormatDescriptionColor_Alpha ? 255 * scale : 0)) / scale)
            }
        }
        var bytes = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) } }
        append(UInt32(truncatingIfNeeded: number(extensions, kCMTextFormatDescriptionExtension_DisplayFlags) ?? 0))
        let horizontal = number(extensions, isQuickTime ? kCMTextFormatDescriptionExtension_TextJustification
                                    : kCMTextFormatDescriptionExtension_HorizontalJustification) ?? 0
        append(Int8(truncatingIfNeeded: horizontal))
        append(Int8(truncatingIfNeeded: isQuickTime ? 0 : number(extensions, kCMTextFormatDescriptionExtension_VerticalJustification) ?? 0))
        bytes.append(contentsOf: color(extensions[kCMTextFormatDescriptionExtension_BackgroundColor], default: [0, 0, 0, 0]))
        let box = extensions[kCMTextFormatDescriptionExtension_DefaultTextBox] as? NSDictionary
        for key in [kCMTextFormatDescriptionRect_Top, kCMTextFormatDescriptionRect_Left, kCMTextFormatDescriptionRect_Bottom,
                    kCMTextFormatDescriptionRect_Right] {
            append(Int16(truncatingIfNeeded: number(box, key) ?? 0))
        }
        let style = extensions[kCMTextFormatDescriptionExtension_DefaultStyle] as? NSDictionary
        let fontID = UInt16(truncatingIfNeeded: number(style, kCMTextFormatDescriptionStyle_Font) ?? 1)
        append(UInt16(truncatingIfNeeded: number(style, kCMTextFormatDescriptionStyle_StartChar) ?? 0))
        append(UInt16(truncatingIfNeeded: number(style, kCMTextFormatDescriptionStyle_EndChar) ?? 0))
        append(fontID)
        append(UInt8(truncatingIfNeeded: number(style, kCMTextFormatDescriptionStyle_FontFace) ?? 0))
        append(UInt8(clamping: number(style, kCMTextFormatDescriptionStyle_FontSize) ?? 18))
        bytes.append(contentsOf: color(style?[kCMTextFormatDescriptionStyle_ForegroundColor], default: [255, 255, 255, 255]))
        // The font table: 3GPP text's own, else the one font QuickTime text names.
        var fonts: [(UInt16, String)] = []
        if let table = extensions[kCMTextFormatDescriptionExtension_FontTable] as? NSDictionary {
            for (key, value) in table {
                if let id = UInt16("\(key)"), let name = value as? String { fonts.append((id, name)) }
            }
        }
        if fonts.isEmpty { fonts = [(fontID, extensions[kCMTextFormatDescriptionExtension_DefaultFontName] as? String ?? "Serif")] }
        let entries = fonts.sorted { $0.0 < $1.0 }.map { id, name in (id, Array(name.utf8.prefix(255))) }
        append(UInt32(8 + 2 + entries.reduce(0) { $0 + 3 + $1.1.count }))
        bytes.append(contentsOf: Array("ftab".utf8))
        append(UInt16(entries.count))
        for (id, name) in entries {
            append(id)
            append(UInt8(name.count))
            bytes.append(contentsOf: name)
        }
        return bytes
    }

    /// The text format description of a stored `tx3g` sample description (what
    /// `sampleDescription(of:)` writes): display flags, justification, background colour,
    /// default text box, default style and font table as Core Media's extensions, as Apple's
    /// reader describes an MP4's or a movie's 3GPP text track. A description too short to hold
    /// them gives one without extensions.
    package static func formatDescription(mediaType: CMMediaType, sampleDescription bytes: Data?) -> CMFormatDescription {
        let bytes = [UInt8](bytes ?? Data())
        func integer(_ at: Int, _ count: Int) -> Int { bytes[at..<at + count].reduce(0) { $0 << 8 | Int($1) } }
        func signed(_ at: Int, _ count: Int) -> Int {
            let value = integer(at, count), bits = count * 8
            return value >= 1 << (bits - 1) ? value - (1 << bits) : value
        }
        func color(_ at: Int) -> NSDictionary {
            [kCMTextFormatDescriptionColor_Red: bytes[at], kCMTextFormatDescriptionColor_Green: bytes[at + 1],
             kCMTextFormatDescriptionColor_Blue: bytes[at + 2], kCMTextFormatDescriptionColor_Alpha: bytes[at + 3]] as NSDictionary
        }
        // Display flags (4), justification (1 + 1), background (4), box (8), style (12).
        guard bytes.count >= 30 else {
            return CMFormatDescription(mediaType: mediaType, mediaSubType: kCMTextFormatType_3GText)
        }
        var extensions: [String: Any] = [
            kCMTextFormatDescriptionExtension_DisplayFlags as String: integer(0, 4),
            kCMTextFormatDescriptionExtension_HorizontalJustification as String: signed(4, 1),
            kCMTextFormatDescriptionExtension_VerticalJustification as String: signed(5, 1),
            kCMTextFormatDescriptionExtension_BackgroundColor as String: color(6),
            kCMTextFormatDescriptionExtension_DefaultTextBox as String: [
                kCMTextFormatDescriptionRect_Top: signed(10, 2), kCMTextFormatDescriptionRect_Left: signed(12, 2),
                kCMTextFormatDescriptionRect_Bottom: signed(14, 2), kCMTextFormatDescriptionRect_Right: signed(16, 2),
            ] as NSDictionary,
            kCMTextFormatDescriptionExtension_DefaultStyle as String: [
                kCMTextFormatDescriptionStyle_StartChar: integer(18, 2), kCMTextFormatDescriptionStyle_EndChar: integer(20, 2),
                kCMTextFormatDescriptionStyle_Font: integer(22, 2), kCMTextFormatDescriptionStyle_FontFace: integer(24, 1),
                kCMTextFormatDescriptionStyle_FontSize: integer(25, 1), kCMTextFormatDescriptionStyle_ForegroundColor: color(26),
            ] as NSDictionary,
        ]
        // The font table box ('ftab'): a count, then each font's ID and name.
        if bytes.count >= 40, Array(bytes[34..<38]) == Array("ftab".utf8) {
            var fonts: [String: String] = [:]
            var at = 40
            for _ in 0..<integer(38, 2) {
                guard at + 3 <= bytes.count, case let length = integer(at + 2, 1), at + 3 + length <= bytes.count else { break }
                fonts["\(integer(at, 2))"] = String(decoding: bytes[(at + 3)..<(at + 3 + length)], as: UTF8.self)
                at += 3 + length
            }
            extensions[kCMTextFormatDescriptionExtension_FontTable as String] = fonts as NSDictionary
        }
        return CMFormatDescription(mediaType: mediaType, mediaSubType: kCMTextFormatType_3GText, extensions: extensions)
    }

    /// One style record of a timed text sample's `styl` box (or a description's default style):
    /// the characters it covers (Unicode scalars, end excluded), its font, face and colour.
    package struct Style: Equatable {
        package var startChar: Int
        package var endChar: Int
        package var fontID: Int
        /// 3GPP's face flags: 1 bold, 2 italic, 4 underline.
        package var face: Int
        package var fontSize: Int
        /// Red, green, blue and alpha, 0–255.
        package var color: [UInt8]

        /// A style from its fields.
        package init(startChar: Int, endChar: Int, fontID: Int, face: Int, fontSize: Int, color: [UInt8]) {
            self.startChar = startChar
            self.endChar = endChar
            self.fontID = fontID
            self.face = face
            self.fontSize = fontSize
            self.color = color
        }
    }

    /// The style records of a timed text sample's bytes (its `styl` box after the text), in
    /// order; none when it has no such box.
    package static func styles(ofSample data: Data) -> [Style] {
        let bytes = [UInt8](data)
        func integer(_ at: Int, _ count: Int) -> Int { bytes[at..<at + count].reduce(0) { $0 << 8 | Int($1) } }
        guard bytes.count >= 2 else { return [] }
        var at = 2 + integer(0, 2)
        // The boxes after the text: a 32-bit size and a type each.
        while at + 8 <= bytes.count {
            let size = integer(at, 4)
            guard size >= 8, at + size <= bytes.count else { return [] }
            if Array(bytes[(at + 4)..<(at + 8)]) == Array("styl".utf8), size >= 10 {
                let count = integer(at + 8, 2)
                return (0..<count).compactMap { index in
                    let entry = at + 10 + index * 12
                    guard entry + 12 <= at + size else { return nil }
                    return Style(startChar: integer(entry, 2), endChar: integer(entry + 2, 2), fontID: integer(entry + 4, 2),
                                 face: integer(entry + 6, 1), fontSize: integer(entry + 7, 1), color: Array(bytes[(entry + 8)..<(entry + 12)]))
                }
            }
            at += size
        }
        return []
    }

    /// The text of a timed text sample's bytes, or nil when they are not one.
    package static func text(ofSample bytes: Data) -> String? {
        guard bytes.count >= 2 else { return nil }
        let length = Int(bytes[bytes.startIndex]) << 8 | Int(bytes[bytes.startIndex + 1])
        guard bytes.count >= 2 + length else { return nil }
        let text = bytes.dropFirst(2).prefix(length)
        if text.starts(with: [0xFE, 0xFF]) { return String(data: Data(text.dropFirst(2)), encoding: .utf16BigEndian) }
        return String(data: Data(text), encoding: .utf8)
    }
}
