extension AVAssetTrack {
    /// How one track relates to another (a QuickTime track reference): chapters, fallbacks,
    /// forced subtitles, selection followers, time codes, metadata. Apple's raw values are the
    /// track reference types.
    public struct AssociationType: RawRepresentable, Hashable, Sendable {
        /// The association's track reference type, such as "chap".
        public let rawValue: String

        /// An association type from its raw value.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The track has the same content as another, in a more widely supported format.
        public static let audioFallback = AssociationType(rawValue: "fall")
        /// The associated track holds the base track's chapters (a text, video or timed
        /// metadata track).
        public static let chapterList = AssociationType(rawValue: "chap")
        /// The associated subtitle track holds only the forced subtitles of the base track.
        public static let forcedSubtitlesOnly = AssociationType(rawValue: "forc")
        /// When the base track is selected, the associated track is a good default selection too.
        public static let selectionFollower = AssociationType(rawValue: "folw")
        /// The associated track holds the base track's time code.
        public static let timecode = AssociationType(rawValue: "tmcd")
        /// The base metadata track describes the associated track.
        public static let metadataReferent = AssociationType(rawValue: "cdsc")
    }
}
