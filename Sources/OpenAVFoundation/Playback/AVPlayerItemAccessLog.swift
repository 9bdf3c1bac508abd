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
        let dateFormatter = DateFormatter()
        dateFormatter.locale = Locale(identifier: "en_US_POSIX")
        dateFormatter.timeZone = TimeZone(identifier: "UTC")
        func stamp(_ date: Date?, _ format: String) -> String {
            guard let date else { return "-" }
            dateFormatter.dateFormat = format
            return dateFormatter.string(from: date)
        }
        func field(_ text: String?) -> String {
            guard let text, !text.isEmpty else { return "-" }
            return text.contains(" ") ? "\"\(text)\"" : text
        }
        var lines = [
            "#Version: 1.0",
            "#Software: OpenAVFoundation",
            "#Date: \(stamp(Date(), "dd-MMM-yyyy HH:mm:ss"))",
            "#Fields: date time s-uri cs-guid s-playback-type c-start-time c-duration-watched c-stalls c-frames-dropped sc-indicated-bitrate",
        ]
        for event in events {
            lines.append([
                stamp(event.playbackStartDate, "yyyy-MM-dd"), stamp(event.playbackStartDate, "HH:mm:ss"), field(event.uri),
                field(event.playbackSessionID), field(event.playbackType), String(format: "%.3f", event.playbackStartOffset),
                String(format: "%.3f", event.durationWatched), "\(event.numberOfStalls)", "\(event.numberOfDroppedVideoFrames)",
                String(format: "%.0f", event.indicatedBitrate),
            ].joined(separator: " "))
        }
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }
}
