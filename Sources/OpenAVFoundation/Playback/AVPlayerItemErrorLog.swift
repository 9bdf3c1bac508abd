import Foundation

/// A snapshot of a player item's error log: its events, oldest first, and the same as text in
/// the W3C Extended Log File Format.
open class AVPlayerItemErrorLog: NSObject, NSCopying, @unchecked Sendable {
    /// The events, in the order they happened.
    public let events: [AVPlayerItemErrorLogEvent]

    init(events: [AVPlayerItemErrorLogEvent]) {
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
        return log.data(fields: ["date", "time", "s-uri", "s-ip", "cs-guid", "status", "domain", "comment"], rows: events.map { event in
            [log.stamp(event.date, "yyyy-MM-dd"), log.stamp(event.date, "HH:mm:ss"), log.field(event.uri), log.field(event.serverAddress),
             log.field(event.playbackSessionID), "\(event.errorStatusCode)", log.field(event.errorDomain), log.field(event.errorComment)]
        })
    }
}
