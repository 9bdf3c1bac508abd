import Foundation

/// One entry of a player item's access log: the playback of one variant (a whole file is one),
/// over all its stretches between pauses and stalls, as it stood when the log was taken.
///
/// Differs from Apple: the network counters (bytes, requests, observed bit rates, server
/// address, startup time) are not kept: they read as unknown (negative, or nil), as Apple's do
/// when unknown.
open class AVPlayerItemAccessLogEvent: NSObject, NSCopying, @unchecked Sendable {
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

    /// A count of media read requests (segments of an HTTP Live Stream); -1, unknown: not kept.
    /// Corresponds to "sc-count".
    open var numberOfMediaRequests: Int { -1 }
    /// The address of the server the last media came from; nil, unknown: not kept.
    /// Corresponds to "s-ip".
    open var serverAddress: String? { nil }
    /// How many times `serverAddress` changed; -1, unknown: not kept. Corresponds to
    /// "s-ip-changes".
    open var numberOfServerAddressChanges: Int { -1 }
    /// Seconds of media downloaded; -1, unknown: not kept. Corresponds to
    /// "c-duration-downloaded".
    open var segmentsDownloadedDuration: TimeInterval { -1 }
    /// Bytes transferred; -1, unknown: not kept. Corresponds to "bytes".
    open var numberOfBytesTransferred: Int64 { -1 }
    /// Seconds of active network transfer; -1, unknown: not kept. Corresponds to
    /// "c-transfer-duration".
    open var transferDuration: TimeInterval { -1 }
    /// The throughput measured over all media downloaded, in bits per second; -1, unknown: not
    /// kept. Corresponds to "c-observed-bitrate".
    open var observedBitrate: Double { -1 }
    /// The standard deviation of the measured segment bit rates; -1, unknown: not kept.
    /// Corresponds to "c-observed-bitrate-sd".
    open var observedBitrateStandardDeviation: Double { -1 }
    /// The average bit rate the server states for the stream; -1, unknown: not kept.
    /// Corresponds to "sc-indicated-avg-bitrate".
    open var indicatedAverageBitrate: Double { -1 }
    /// The average bit rate of the video; -1, unknown: not kept. Corresponds to
    /// "c-avg-video-bitrate".
    open var averageVideoBitrate: Double { -1 }
    /// The average bit rate of the audio; -1, unknown: not kept. Corresponds to
    /// "c-avg-audio-bitrate".
    open var averageAudioBitrate: Double { -1 }
    /// Seconds until the item was ready to play; -1, unknown: not kept. Corresponds to
    /// "c-startup-time".
    open var startupTime: TimeInterval { -1 }
    /// How many segment downloads took too long; -1, unknown: not kept. Corresponds to
    /// "c-overdue".
    open var downloadOverdue: Int { -1 }
    /// Media read requests over a cellular network; -1, unknown: not kept. Corresponds to
    /// "sc-wwan-count".
    open var mediaRequestsWWAN: Int { -1 }
    /// The bandwidth that made the player switch variant; -1, unknown: not kept. Corresponds to
    /// "c-switch-bitrate".
    open var switchBitrate: Double { -1 }

    /// The event itself: it does not change.
    open func copy(with zone: NSZone? = nil) -> Any { self }

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
