import Foundation
import Testing
@testable import OpenCoreMedia
import OpenCoreVideo

/// Text format descriptions made the ways code for Apple platforms makes them (the typed
/// extension values, or a raw dictionary for `CMFormatDescriptionCreate`), read back through
/// the Swift methods and the C functions.
@Suite(.timeLimit(.minutes(10))) struct CMTextFormatDescriptionTests {
    /// A 3GPP subtitle description: centred at the bottom of a 640x480 track's lower 60 rows,
    /// bold yellow 24-point "Sans-Serif" on half-transparent black, forced subtitles present.
    static func subtitles() throws -> CMTextFormatDescription {
        var extensions = CMFormatDescription.Extensions()
        extensions[.displayFlags] = .textDisplayFlags([.forcedSubtitlesPresent, .scrollIn])
        extensions[.horizontalJustification] = .textJustification(.centered)
        extensions[.verticalJustification] = .textJustification(.bottom)
        extensions[.backgroundColor] = .mobile3GPPTextColor(red: 0, green: 0, blue: 0, alpha: 0.5)
        extensions[.defaultTextBox] = .textRect(top: 420, left: 0, bottom: 480, right: 640)
        extensions[.defaultStyle] = .mobile3GPPTextDefaultStyle(startChar: 0, endChar: 0, localFontID: 1, fontFace: .bold, fontSize: 24,
                                                                foregroundColor: .mobile3GPPTextColor(red: 1, green: 1, blue: 0, alpha: 1))
        extensions[.fontTable] = .fontTable([1: "Sans-Serif"])
        return try CMFormatDescription(mediaType: .text, mediaSubType: .mobile3GPP, extensions: extensions)
    }

    @Test func aSubtitleDescriptionReadsBack() throws {
        let description = try Self.subtitles()
        #expect(description.mediaType == .text && description.mediaSubType.rawValue == kCMTextFormatType_3GText)
        #expect(try description.displayFlags() == CMFormatDescription.Extensions.Value.TextDisplayFlags(
            rawValue: kCMTextDisplayFlag_forcedSubtitlesPresent | kCMTextDisplayFlag_scrollIn))
        let justification = try description.justification()
        #expect(justification.horizontal == .centered && justification.vertical == .bottom)
        #expect(try description.defaultTextBox(originIsAtTopLeft: true, heightOfTextTrack: 480) == CGRect(x: 0, y: 420, width: 640, height: 60))
        #expect(try description.defaultTextBox(originIsAtTopLeft: false, heightOfTextTrack: 480) == CGRect(x: 0, y: 0, width: 640, height: 60))
        let style = try description.defaultStyle()
        #expect(style.localFontID == 1 && style.bold && !style.italic && !style.underline && style.fontSize == 24)
        #expect(style.colorComponents == [1, 1, 0, 1])
        #expect(try description.fontName(localFontID: 1) == "Sans-Serif")
        #expect(throws: NSError.self) { try description.fontName(localFontID: 2) }
        // The raw extensions, as a file's sample description carries them.
        let background = try #require(CMFormatDescriptionGetExtension(description, extensionKey: kCMTextFormatDescriptionExtension_BackgroundColor) as? NSDictionary)
        #expect((background[kCMTextFormatDescriptionColor_Alpha] as? NSNumber)?.intValue == 128)
    }

    @Test func theCFunctionsAnswerTheSame() throws {
        let description = try Self.subtitles()
        var flags: CMTextDisplayFlags = 0
        #expect(CMTextFormatDescriptionGetDisplayFlags(description, displayFlagsOut: &flags) == noErr)
        #expect(flags & kCMTextDisplayFlag_forcedSubtitlesPresent != 0 && flags & kCMTextDisplayFlag_allSubtitlesForced == 0)
        var horizontal: CMTextJustificationValue = 0, vertical: CMTextJustificationValue = 0
        #expect(CMTextFormatDescriptionGetJustification(description, horizontaJustificationOut: &horizontal, verticalJustificationOut: &vertical) == noErr)
        #expect(horizontal == kCMTextJustification_centered && vertical == kCMTextJustification_bottom_right)
        var box = CGRect.zero
        #expect(CMTextFormatDescriptionGetDefaultTextBox(description, originIsAtTopLeft: true, heightOfTextTrack: 480, defaultTextBoxOut: &box) == noErr)
        #expect(box == CGRect(x: 0, y: 420, width: 640, height: 60))
        var fontID: UInt16 = 0
        var bold: DarwinBoolean = false, italic: DarwinBoolean = true
        var size: CGFloat = 0
        var color = [CGFloat](repeating: -1, count: 4)
        #expect(CMTextFormatDescriptionGetDefaultStyle(description, localFontIDOut: &fontID, boldOut: &bold, italicOut: &italic,
                                                       underlineOut: nil, fontSizeOut: &size, colorComponentsOut: &color) == noErr)
        #expect(fontID == 1 && bold.boolValue && !italic.boolValue && size == 24 && color == [1, 1, 0, 1])
        var name: Unmanaged<NSString>?
        #expect(CMTextFormatDescriptionGetFontName(description, localFontID: 1, fontNameOut: &name) == noErr)
        #expect(name?.takeUnretainedValue() == "Sans-Serif")
        #expect(CMTextFormatDescriptionGetFontName(description, localFontID: 9, fontNameOut: &name) == kCMFormatDescriptionError_ValueNotAvailable)
    }

    /// A QuickTime chapter track's description, made from a raw dictionary as chapter writers do.
    @Test func aQuickTimeTextDescriptionFromADictionary() throws {
        let extensions: NSDictionary = [
            kCMTextFormatDescriptionExtension_DisplayFlags: 0,
            kCMTextFormatDescriptionExtension_TextJustification: Int(kCMTextJustification_bottom_right),
            kCMTextFormatDescriptionExtension_DefaultTextBox: [kCMTextFormatDescriptionRect_Top: 0, kCMTextFormatDescriptionRect_Left: 0,
                                                               kCMTextFormatDescriptionRect_Bottom: 20, kCMTextFormatDescriptionRect_Right: 200],
            kCMTextFormatDescriptionExtension_DefaultStyle: [
                kCMTextFormatDescriptionStyle_Font: 0, kCMTextFormatDescriptionStyle_FontFace: 6, kCMTextFormatDescriptionStyle_FontSize: 12,
                kCMTextFormatDescriptionStyle_ForegroundColor: [kCMTextFormatDescriptionColor_Red: 65535, kCMTextFormatDescriptionColor_Green: 0,
                                                                kCMTextFormatDescriptionColor_Blue: 0],
            ],
            kCMTextFormatDescriptionExtension_DefaultFontName: "Helvetica",
        ]
        var made: CMFormatDescription?
        #expect(CMFormatDescriptionCreate(allocator: nil, mediaType: kCMMediaType_Text, mediaSubType: kCMTextFormatType_QTText,
                                          extensions: extensions, formatDescriptionOut: &made) == noErr)
        let description = try #require(made as CMTextFormatDescription?)
        let justification = try description.justification()
        #expect(justification.horizontal == .right && justification.vertical == .top)
        let style = try description.defaultStyle()
        #expect(!style.bold && style.italic && style.underline && style.colorComponents == [1, 0, 0, 1])
        #expect(try description.fontName(localFontID: 0) == "Helvetica")
        #expect(try description.displayFlags().scrollDirection == .scrollDirection_bottomToTop)
    }

    @Test func otherDescriptionsAreRefused() throws {
        let video = try CMFormatDescription(videoCodecType: .h264, width: 640, height: 480)
        #expect(CMVideoFormatDescriptionGetDimensions(video).width == 640)
        var flags: CMTextDisplayFlags = 0
        #expect(CMTextFormatDescriptionGetDisplayFlags(video, displayFlagsOut: &flags) == kCMFormatDescriptionError_InvalidParameter)
        #expect(throws: NSError.self) { try video.defaultStyle() }
        let empty = try CMFormatDescription(mediaType: .text, mediaSubType: .mobile3GPP)
        #expect(throws: NSError.self) { try empty.defaultTextBox(originIsAtTopLeft: true, heightOfTextTrack: 0) }
        #expect(throws: NSError.self) { try CMFormatDescription(videoCodecType: .h264, width: -1, height: 480) }
    }
}
