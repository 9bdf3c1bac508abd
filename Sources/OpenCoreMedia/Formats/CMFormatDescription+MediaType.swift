import Foundation
import OpenCoreVideo

extension CMFormatDescription {
    /// The kind of media a format description describes, as a Swift type.
    public struct MediaType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The four-character code, such as `kCMMediaType_Video`.
        public let rawValue: FourCharCode
        /// Creates a media type from its four-character code.
        public init(rawValue: FourCharCode) { self.rawValue = rawValue }
        /// Creates a media type from a four-character code.
        public init(_ rawValue: FourCharCode) { self.rawValue = rawValue }

        /// Video (`'vide'`).
        public static let video = MediaType(rawValue: kCMMediaType_Video)
        /// Audio (`'soun'`).
        public static let audio = MediaType(rawValue: kCMMediaType_Audio)
        /// Multiplexed media (`'muxx'`).
        public static let muxed = MediaType(rawValue: kCMMediaType_Muxed)
        /// Text (`'text'`).
        public static let text = MediaType(rawValue: kCMMediaType_Text)
        /// Closed captions (`'clcp'`).
        public static let closedCaption = MediaType(rawValue: kCMMediaType_ClosedCaption)
        /// Subtitles (`'sbtl'`).
        public static let subtitle = MediaType(rawValue: kCMMediaType_Subtitle)
        /// Time code (`'tmcd'`).
        public static let timeCode = MediaType(rawValue: kCMMediaType_TimeCode)
        /// Timed metadata (`'meta'`).
        public static let metadata = MediaType(rawValue: kCMMediaType_Metadata)

        /// The four characters of the code, such as `vide`.
        public var description: String { rawValue.fourCCString }
    }
}
