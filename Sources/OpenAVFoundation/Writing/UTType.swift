/// A uniform type identifier: the few media types `AVAssetWriter(contentType:)` takes.
///
/// Linux addition: on Apple platforms `UTType` comes from the UniformTypeIdentifiers framework,
/// which Linux lacks; this is its `UTType` with Apple's spelling, for the media types only.
public struct UTType: Hashable, Sendable, CustomStringConvertible {
    /// The type's identifier, such as "public.mpeg-4".
    public let identifier: String

    /// The type with `identifier`, or nil for an identifier this type does not know.
    public init?(_ identifier: String) {
        guard Self.known.contains(where: { $0.identifier == identifier }) else { return nil }
        self.identifier = identifier
    }

    private init(known identifier: String) {
        self.identifier = identifier
    }

    /// The type of files with this extension, or nil for one this type does not know.
    public init?(filenameExtension: String) {
        guard let type = Self.extensions.first(where: { $0.value.contains(filenameExtension.lowercased()) })?.key else { return nil }
        self = type
    }

    /// The usual filename extension of the type.
    public var preferredFilenameExtension: String? { Self.extensions[self]?.first }

    /// The identifier.
    public var description: String { identifier }

    /// Whether the type is `type` or one of its kinds (an MPEG-4 movie conforms to movie).
    public func conforms(to type: UTType) -> Bool {
        self == type || (Self.parents[self] ?? []).contains { $0.conforms(to: type) }
    }

    /// MPEG-4 movies ("public.mpeg-4").
    public static let mpeg4Movie = UTType(known: "public.mpeg-4")
    /// QuickTime movies ("com.apple.quicktime-movie").
    public static let quickTimeMovie = UTType(known: "com.apple.quicktime-movie")
    /// MPEG-4 audio ("public.mpeg-4-audio").
    public static let mpeg4Audio = UTType(known: "public.mpeg-4-audio")
    /// Movies of any kind ("public.movie").
    public static let movie = UTType(known: "public.movie")
    /// Video without audio ("public.video").
    public static let video = UTType(known: "public.video")
    /// Audio ("public.audio").
    public static let audio = UTType(known: "public.audio")
    /// Audiovisual content ("public.audiovisual-content").
    public static let audiovisualContent = UTType(known: "public.audiovisual-content")

    private static let known: [UTType] = [.mpeg4Movie, .quickTimeMovie, .mpeg4Audio, .movie, .video, .audio, .audiovisualContent]
    private static let extensions: [UTType: [String]] = [.mpeg4Movie: ["mp4"], .quickTimeMovie: ["mov", "qt"], .mpeg4Audio: ["m4a"]]
    private static let parents: [UTType: [UTType]] = [
        .mpeg4Movie: [.movie], .quickTimeMovie: [.movie], .mpeg4Audio: [.audio],
        .movie: [.audiovisualContent], .video: [.movie], .audio: [.audiovisualContent],
    ]
}
