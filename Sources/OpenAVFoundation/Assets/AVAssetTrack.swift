import Foundation
import MediaEngine
import OpenCoreMedia
import OpenCoreVideo

/// One track of an asset: its media type, format, timing and size. Every value is loaded as
/// soon as the asset's tracks are, so loading a track's values never waits.
open class AVAssetTrack: NSObject, AVAsynchronousKeyValueLoading, @unchecked Sendable {
    /// What the asset read about the track.
    private let storedContents: TrackContents

    /// What the asset read about the track (a composition track works it out from its
    /// segments).
    var contents: TrackContents { storedContents }

    /// The asset the track belongs to.
    public private(set) weak var asset: AVAsset?
    /// What loads the asset's contents, kept by the track so that it can be read (inserted
    /// into a composition, say) after the asset object is gone, as on Apple platforms.
    let assetLoader: AssetLoader

    init(asset: AVAsset, contents: TrackContents) {
        self.asset = asset
        assetLoader = asset.loader
        storedContents = contents
        super.init()
    }

    /// The track's ID within its asset.
    public var trackID: CMPersistentTrackID { contents.trackID }
    /// The kind of media the track holds.
    public var mediaType: AVMediaType { contents.mediaType }
    /// The track's format descriptions (one per format the track uses; one here).
    public var formatDescriptions: [Any] { contents.formatDescription.map { [$0] } ?? [] }
    /// Whether the track can be played: it is decodable video or audio.
    public var isPlayable: Bool { contents.isDecodable && (mediaType == .video || mediaType == .audio) }
    /// Whether the track's media can be decoded.
    public var isDecodable: Bool { contents.isDecodable }
    /// FFmpeg's name of the track's codec ("vorbis", "wmav2"): what `openav probe` shows for a
    /// codec without a CoreMedia code. Not Apple's.
    package var engineCodecName: String { contents.codecName }
    /// An audio track's sample rate and channels as the engine reads them (0 when unknown), also
    /// for codecs without a CoreMedia code, which have no format description. Not Apple's.
    package var engineAudioFormat: (sampleRate: Int, channels: Int) { (contents.sampleRate, contents.channelCount) }
    /// Whether the track is enabled for playback.
    open var isEnabled: Bool { contents.isEnabled }
    /// Whether the track's media lives in the asset's own file (always true here).
    public var isSelfContained: Bool { true }
    /// The time range of the track on the asset's timeline.
    public var timeRange: CMTimeRange { contents.timeRange }
    /// The timescale of the track's media.
    open var naturalTimeScale: CMTimeScale { contents.naturalTimeScale }
    /// The track's data rate in bits per second.
    public var estimatedDataRate: Float { contents.estimatedDataRate }
    /// The track's ISO 639-2/T language code, or nil.
    open var languageCode: String? { contents.languageCode }
    /// The track's language as a BCP 47 tag, or nil.
    open var extendedLanguageTag: String? { nil }
    /// The video frame size before the preferred transform (zero for audio).
    public var naturalSize: CGSize { contents.naturalSize }
    /// The transform that displays the track upright, as stored in the file.
    open var preferredTransform: CGAffineTransform { contents.preferredTransform }
    /// The track's volume, 1 for audio and 0 otherwise.
    open var preferredVolume: Float { mediaType == .audio ? 1 : 0 }
    /// Frames per second, 0 when not video.
    public var nominalFrameRate: Float { contents.nominalFrameRate }
    /// The shortest frame duration, invalid when not video.
    public var minFrameDuration: CMTime { contents.minFrameDuration }
    /// Whether samples are stored in another order than they are presented (B-frames).
    public var requiresFrameReordering: Bool { contents.requiresFrameReordering }
    /// The media characteristics of the track: visual, audible, legible, frame based, and what
    /// the container says of its role (forced subtitles only, for accessibility, a dubbed
    /// translation, auxiliary content such as commentary, the original content).
    ///
    /// Linux addition: Apple's SDK has this value only as the loadable `.mediaCharacteristics`
    /// (`try await track.load(.mediaCharacteristics)`), which works here too.
    public var mediaCharacteristics: [AVMediaCharacteristic] {
        var characteristics: [AVMediaCharacteristic]
        switch mediaType {
        case .video: characteristics = [.visual, .frameBased]
        case .audio: characteristics = [.audible]
        case .text, .subtitle, .closedCaption: characteristics = [.legible]
        default: characteristics = []
        }
        let roles = contents.roles
        let fromRoles: [(StreamRoles, [AVMediaCharacteristic])] = [
            (.forced, [.containsOnlyForcedSubtitles]),
            (.hearingImpaired, [.transcribesSpokenDialogForAccessibility, .describesMusicAndSoundForAccessibility]),
            (.captions, [.transcribesSpokenDialogForAccessibility]), (.visualImpaired, [.describesVideoForAccessibility]),
            (.dub, [.dubbedTranslation]), (.comment, [.isAuxiliaryContent]), (.original, [.isOriginalContent]),
        ]
        for (role, added) in fromRoles where roles.contains(role) {
            characteristics += added.filter { !characteristics.contains($0) }
        }
        return characteristics
    }

    /// How the track's media is laid out on its timeline: one segment mapping the track's time
    /// range onto itself (a composition track has one per edit).
    open var segments: [AVAssetTrackSegment] {
        timeRange.isValid ? [AVAssetTrackSegment(timeMapping: CMTimeMapping(source: timeRange, target: timeRange))] : []
    }

    /// The segment whose target range holds `trackTime`, or the nearest one when none does.
    open func segment(forTrackTime trackTime: CMTime) -> AVAssetTrackSegment? {
        let all = segments
        if let holding = all.first(where: { $0.timeMapping.target.containsTime(trackTime) }) { return holding }
        guard let first = all.first, let last = all.last else { return nil }
        return trackTime < first.timeMapping.target.start ? first : last
    }

    /// Loads the segment whose target range holds `trackTime` (or the nearest one).
    public func loadSegment(forTrackTime trackTime: CMTime) async throws -> AVAssetTrackSegment? {
        segment(forTrackTime: trackTime)
    }

    /// Calls `completionHandler` on an arbitrary queue with the segment whose target range
    /// holds `trackTime` (or the nearest one); a track's values are loaded with its asset.
    public func loadSegment(forTrackTime trackTime: CMTime,
                            completionHandler: @escaping @Sendable (AVAssetTrackSegment?, (any Error)?) -> Void) {
        let segment = segment(forTrackTime: trackTime)
        DispatchQueue.global().async { completionHandler(segment, nil) }
    }

    /// The track's metadata items in every key space.
    public var metadata: [AVMetadataItem] { contents.metadata }
    /// The track's metadata items in the common key space.
    public var commonMetadata: [AVMetadataItem] { contents.commonMetadata }
    /// The metadata formats the track has items in.
    public var availableMetadataFormats: [AVMetadataFormat] { AVAsset.formats(of: contents.metadata) }

    /// The track's metadata items in one format.
    public func metadata(forFormat format: AVMetadataFormat) -> [AVMetadataItem] {
        metadata.filter { $0.keySpace.flatMap(AVMetadataFormat.init(keySpace:)) == format }
    }

    /// The track's metadata items in one format.
    public func loadMetadata(for format: AVMetadataFormat) async throws -> [AVMetadataItem] {
        metadata(forFormat: format)
    }

    /// Calls `completionHandler` on an arbitrary queue with the track's metadata items in one
    /// format; a track's values are loaded with its asset.
    public func loadMetadata(for format: AVMetadataFormat,
                             completionHandler: @escaping @Sendable ([AVMetadataItem]?, (any Error)?) -> Void) {
        let items = metadata(forFormat: format)
        DispatchQueue.global().async { completionHandler(items, nil) }
    }

    /// Whether the track has a media characteristic.
    public func hasMediaCharacteristic(_ mediaCharacteristic: AVMediaCharacteristic) -> Bool {
        mediaCharacteristics.contains(mediaCharacteristic)
    }

    /// The keys `statusOfValue(forKey:error:)` knows for a track.
    static let loadableKeys: Set<String> = [
        "trackID", "mediaType", "formatDescriptions", "playable", "decodable", "enabled", "selfContained",
        "timeRange", "naturalTimeScale", "estimatedDataRate", "languageCode", "extendedLanguageTag", "naturalSize",
        "preferredTransform", "preferredVolume", "nominalFrameRate", "minFrameDuration", "requiresFrameReordering",
        "metadata", "commonMetadata", "availableMetadataFormats", "totalSampleDataLength", "segments",
    ]

    /// `.loaded` for every key a track has: a track's values load with the asset's tracks.
    public func statusOfValue(forKey key: String, error outError: NSErrorPointer) -> AVKeyValueStatus {
        guard Self.loadableKeys.contains(key) else {
            outError?.pointee = AVError(.unknown, reason: "\"\(key)\" is not a loadable key of AVAssetTrack") as NSError
            return .failed
        }
        return .loaded
    }

    /// Calls `handler` at once, on an arbitrary queue: a track's values are already loaded.
    public func loadValuesAsynchronously(forKeys keys: [String], completionHandler handler: (@Sendable () -> Void)? = nil) {
        if let handler { DispatchQueue.global().async(execute: handler) }
    }
}
