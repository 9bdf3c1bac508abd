import Foundation
import OpenCoreVideo

/// A four-character code naming the kind of media a format description describes.
public typealias CMMediaType = FourCharCode

/// Video media (`'vide'`).
public let kCMMediaType_Video: CMMediaType = 0x7669_6465 // 'vide'
/// Audio media (`'soun'`).
public let kCMMediaType_Audio: CMMediaType = 0x736F_756E // 'soun'
/// Multiplexed media, such as an MPEG-2 transport stream (`'muxx'`).
public let kCMMediaType_Muxed: CMMediaType = 0x6D75_7878 // 'muxx'
/// Text media (`'text'`).
public let kCMMediaType_Text: CMMediaType = 0x7465_7874 // 'text'
/// Closed-caption media (`'clcp'`).
public let kCMMediaType_ClosedCaption: CMMediaType = 0x636C_6370 // 'clcp'
/// Subtitle media (`'sbtl'`).
public let kCMMediaType_Subtitle: CMMediaType = 0x7362_746C // 'sbtl'
/// Time code media (`'tmcd'`).
public let kCMMediaType_TimeCode: CMMediaType = 0x746D_6364 // 'tmcd'
/// Timed metadata media (`'meta'`).
public let kCMMediaType_Metadata: CMMediaType = 0x6D65_7461 // 'meta'
