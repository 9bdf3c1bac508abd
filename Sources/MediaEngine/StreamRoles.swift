import CFFmpeg

/// What a container says about a stream's role beyond being the default: forced subtitles,
/// accessibility, dubbing, commentary (FFmpeg's dispositions, from Matroska's flags, MP4's
/// `kind` boxes and the like).
package struct StreamRoles: OptionSet, Sendable {
    package let rawValue: Int32
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// Only forced subtitles (shown whatever the viewer chose).
    package static let forced = StreamRoles(rawValue: 1 << 0)
    /// For viewers who are hard of hearing (SDH subtitles, captions).
    package static let hearingImpaired = StreamRoles(rawValue: 1 << 1)
    /// For viewers with impaired sight (audio description).
    package static let visualImpaired = StreamRoles(rawValue: 1 << 2)
    /// A dubbed translation.
    package static let dub = StreamRoles(rawValue: 1 << 3)
    /// Commentary.
    package static let comment = StreamRoles(rawValue: 1 << 4)
    /// The original language.
    package static let original = StreamRoles(rawValue: 1 << 5)
    /// Captions: a transcription of the dialogue and sounds.
    package static let captions = StreamRoles(rawValue: 1 << 6)

    /// The roles of FFmpeg's disposition bits.
    init(disposition: Int32) {
        let bits: [(Int32, StreamRoles)] = [
            (AV_DISPOSITION_FORCED, .forced), (AV_DISPOSITION_HEARING_IMPAIRED, .hearingImpaired),
            (AV_DISPOSITION_VISUAL_IMPAIRED, .visualImpaired), (AV_DISPOSITION_DUB, .dub), (AV_DISPOSITION_COMMENT, .comment),
            (AV_DISPOSITION_ORIGINAL, .original), (AV_DISPOSITION_CAPTIONS, .captions),
        ]
        self = StreamRoles(bits.filter { disposition & $0.0 != 0 }.map(\.1))
    }
}
