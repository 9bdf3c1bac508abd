import Foundation
import OpenCoreVideo

/// A format description of text (QuickTime text or 3GPP timed text); the same type as
/// `CMFormatDescription`, as on Apple platforms.
public typealias CMTextFormatDescription = CMFormatDescription

/// The text's display flags (0 when the description states none). Fails with
/// `kCMFormatDescriptionError_InvalidParameter` for a description that is not text.
public func CMTextFormatDescriptionGetDisplayFlags(_ desc: CMFormatDescription,
                                                   displayFlagsOut: UnsafeMutablePointer<CMTextDisplayFlags>) -> OSStatus {
    CMFormatDescription.status { displayFlagsOut.pointee = try desc.displayFlags().rawValue }
}

/// The text's horizontal and vertical justification (QuickTime text has one justification,
/// given as the horizontal; its vertical is top). Fails with
/// `kCMFormatDescriptionError_InvalidParameter` for a description that is not text.
public func CMTextFormatDescriptionGetJustification(_ desc: CMFormatDescription,
                                                    horizontaJustificationOut: UnsafeMutablePointer<CMTextJustificationValue>?,
                                                    verticalJustificationOut: UnsafeMutablePointer<CMTextJustificationValue>?) -> OSStatus {
    CMFormatDescription.status {
        let justification = try desc.justification()
        horizontaJustificationOut?.pointee = justification.horizontal.rawValue
        verticalJustificationOut?.pointee = justification.vertical.rawValue
    }
}

/// The box text is drawn in, with its origin at the top left of the text track or, when
/// `originIsAtTopLeft` is false, at the bottom left of a track `heightOfTextTrack` high.
/// Fails with `kCMFormatDescriptionError_ValueNotAvailable` when the description has none.
public func CMTextFormatDescriptionGetDefaultTextBox(_ desc: CMFormatDescription, originIsAtTopLeft: Bool,
                                                     heightOfTextTrack: CGFloat,
                                                     defaultTextBoxOut: UnsafeMutablePointer<CGRect>) -> OSStatus {
    CMFormatDescription.status {
        defaultTextBoxOut.pointee = try desc.defaultTextBox(originIsAtTopLeft: originIsAtTopLeft, heightOfTextTrack: heightOfTextTrack)
    }
}

/// The text's default style: its local font ID, face, size and colour (four components, red,
/// green, blue and alpha, from 0 to 1, written to `colorComponentsOut`). Fails with
/// `kCMFormatDescriptionError_ValueNotAvailable` when the description has none.
public func CMTextFormatDescriptionGetDefaultStyle(_ desc: CMFormatDescription, localFontIDOut: UnsafeMutablePointer<UInt16>?,
                                                   boldOut: UnsafeMutablePointer<DarwinBoolean>?,
                                                   italicOut: UnsafeMutablePointer<DarwinBoolean>?,
                                                   underlineOut: UnsafeMutablePointer<DarwinBoolean>?,
                                                   fontSizeOut: UnsafeMutablePointer<CGFloat>?,
                                                   colorComponentsOut: UnsafeMutablePointer<CGFloat>?) -> OSStatus {
    CMFormatDescription.status {
        let style = try desc.defaultStyle()
        localFontIDOut?.pointee = UInt16(truncatingIfNeeded: style.localFontID)
        boldOut?.pointee = DarwinBoolean(style.bold)
        italicOut?.pointee = DarwinBoolean(style.italic)
        underlineOut?.pointee = DarwinBoolean(style.underline)
        fontSizeOut?.pointee = style.fontSize
        if let colorComponentsOut {
            for (index, component) in style.colorComponents.prefix(4).enumerated() { colorComponentsOut[index] = component }
        }
    }
}

/// The name of the font with local ID `localFontID` (3GPP text's font table; QuickTime text's
/// one font). Fails with `kCMFormatDescriptionError_ValueNotAvailable` when there is none.
///
/// Differs from Apple: the name comes as an `Unmanaged<NSString>` (Apple: `Unmanaged<CFString>`).
public func CMTextFormatDescriptionGetFontName(_ desc: CMFormatDescription, localFontID: UInt16,
                                               fontNameOut: UnsafeMutablePointer<Unmanaged<NSString>?>) -> OSStatus {
    CMFormatDescription.status {
        // The description's own string: it stays alive with the description, as Apple's "Get" does.
        fontNameOut.pointee = Unmanaged.passUnretained(try desc.storedFontName(localFontID: Int(localFontID)))
    }
}
