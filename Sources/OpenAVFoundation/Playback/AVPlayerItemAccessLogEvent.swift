import Foundation

/// One entry of a player item's access log: the playback of one variant (a whole file is one),
/// over all its stretches between pauses and stalls, as it stood when the log was taken.
///
/// Differs from Apple: the network counters (bytes, requests, observed bit rate, server
/// address) are not kept; only what is listed here.
open class AVPlayerItemAccessLogEvent: NSObject, @unchecked Sendable {
    /// The URI of the item (its asset's URL). Corresponds to "s-uri".
    public let uri: String?
    /// A GUID of the item's playback session. Corresponds to "cs-guid".
    public let playbackSessionID: String?
    /// When playback began for this event. Corresponds to "date".
    public let playbackStartDate: Date?
    /// Where, in seconds of the item, the last uninterrupted period of playback began;
    /// negative if unknown. Corresponds to "c-start-time".
    public let playbackStartOffset: TimeInterval
    /// "LIVE", "VOD" or "FILE"; nil if unknown. Corresponds to "s-playback-type".
    public let playbackType: String?
    /// Seconds of media played (in item time: pauses, stalls and the wait for the sound to
    /// start add nothing). Corresponds to "c-duration-watched".
    public let durationWatched: TimeInterval
    /// The stalls while playing. Corresponds to "c-stalls".
    public let numberOfStalls: Int
    /// Decoded pictures passed over without being shown by any video output (late ones).
    /// Corresponds to "c-frames-dropped".
    public let numberOfDroppedVideoFrames: Int
    /// The bit rate the stream needs, in bits per second: the variant's stated bandwidth for an
    /// HTTP Live Stream, the tracks' estimated data rates otherwise; negative if unknown.
    /// Corresponds to "sc-indicated-bitrate".
    public let indicatedBitrate: Double

    init(entry: PlaybackAccessRecord.Entry, uri: String?, sessionID: String, playbackType: String?) {
        self.uri = uri
        playbackSessionID = sessionID
        playbackStartDate = entry.startDate
        playbackStartOffset = entry.startOffset
        self.playbackType = playbackType
        durationWatched = entry.watched
        numberOfStalls = entry.stalls
        numberOfDroppedVideoFrames = entry.dropped
        indicatedBitrate = entry.indicatedBitrate
        super.init()
    }
}
