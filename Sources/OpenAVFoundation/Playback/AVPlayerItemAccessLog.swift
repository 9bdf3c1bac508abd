import Foundation

/// A snapshot of a player item's access log: its events, oldest first, and the same as text in
/// the W3C Extended Log File Format.
open class AVPlayerItemAccessLog: NSObject, NSCopying, @unchecked Sendable {
    /// The events, in the order they began.
    public let events: [AVPlayerItemAccessLogEvent]

    init(events: [AVPlayerItemAccessLogEvent]) {
        self.events = events
        super.init()
    }

    /// The log itself: a snapshot does not change.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// The encoding of `extendedLogData()`: UTF-8.
    open var extendedLogDataStringEncoding: UInt { String.Encoding.utf8.rawValue }

    /// The log in the Extended Log File Format: the `#Version`, `#Software`, `#Date` and
    /// `#Fields` directives, then one line per event.
    open func extendedLogData() -> Data? {
        let log = ExtendedLogFormat()
        let fields = ["date", "time", "s-uri", "cs-guid", "s-playback-type", "c-start-time", "c-duration-watched", "c-stalls",
                      "c-frames-dropped", "sc-indicated-bitrate"]
        return log.data(fields: fields, rows: events.map { event in
            [log.stamp(event.playbackStartDate, "yyyy-MM-dd"), log.stamp(event.playbackStartDate, "HH:mm:ss"), log.field(event.uri),
             log.field(event.playbackSessionID), log.field(event.playbackType), String(format: "%.3f", event.playbackStartOffset),
             String(format: "%.3f", event.durationWatched), "\(event.numberOfStalls)", "\(event.numberOfDroppedVideoFrames)",
             String(format: "%.0f", event.indicatedBitrate)]
        })
    }
}
