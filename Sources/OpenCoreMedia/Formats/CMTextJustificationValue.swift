/// Where text sits in its box, horizontally or vertically
/// (`kCMTextFormatDescriptionExtension_HorizontalJustification`, `…_VerticalJustification`,
/// `…_TextJustification`).
public typealias CMTextJustificationValue = Int8

/// Left (horizontally) or top (vertically).
public var kCMTextJustification_left_top: CMTextJustificationValue { 0 }
/// Centred.
public var kCMTextJustification_centered: CMTextJustificationValue { 1 }
/// Right (horizontally) or bottom (vertically).
public var kCMTextJustification_bottom_right: CMTextJustificationValue { -1 }
