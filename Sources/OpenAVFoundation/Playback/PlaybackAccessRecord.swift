import Foundation
import OpenCoreMedia

/// What an item's access log is made of, kept while it plays: one entry per variant played
/// (one in all for a file), each with when and where playback began, how much of the media
/// played (in item time: a start-up wait or a stall adds nothing), its stalls and its dropped
/// pictures. `AVPlayerItem.accessLog()` takes a snapshot. Thread-safe.
final class PlaybackAccessRecord: @unchecked Sendable {
    /// One entry, as it stands.
    struct Entry {
        var startDate: Date
        var startOffset: TimeInterval
        var watched: TimeInterval = 0
        var stalls = 0
        var dropped = 0
        var indicatedBitrate: Double
    }

    /// The GUID of the item's playback session.
    let sessionID = UUID().uuidString
    private let lock = NSLock()
    private var entries: [Entry] = []
    /// The item time the current uninterrupted period began at, while it goes on.
    private var watchingSince: CMTime?

    /// Playback starts or stops at item time `time` (stalls stop it); the first start opens the
    /// first entry. Whether an entry was opened.
    func setWatching(_ watching: Bool, at time: CMTime, indicatedBitrate: Double) -> Bool {
        lock.withLock {
            guard watching else {
                closePeriod(at: time)
                return false
            }
            guard watchingSince == nil else { return false }
            watchingSince = time
            let offset = time.isNumeric ? time.seconds : -1
            if entries.isEmpty {
                entries.append(Entry(startDate: Date(), startOffset: offset, indicatedBitrate: indicatedBitrate))
                return true
            }
            entries[entries.count - 1].startOffset = offset
            return false
        }
    }

    /// Playback goes on in another variant from item time `time`: a new entry.
    func startEntry(at time: CMTime, indicatedBitrate: Double) {
        lock.withLock {
            let wasWatching = watchingSince != nil
            closePeriod(at: time)
            entries.append(Entry(startDate: Date(), startOffset: time.isNumeric ? time.seconds : -1, indicatedBitrate: indicatedBitrate))
            if wasWatching { watchingSince = time }
        }
    }

    /// A stall began.
    func recordStall() {
        lock.withLock { if !entries.isEmpty { entries[entries.count - 1].stalls += 1 } }
    }

    /// `count` decoded pictures were passed over, never given to an output.
    func recordDropped(_ count: Int) {
        lock.withLock { if !entries.isEmpty { entries[entries.count - 1].dropped += count } }
    }

    /// The entries so far, with the period under way counted up to item time `now`.
    func snapshot(at now: CMTime) -> [Entry] {
        lock.withLock {
            var copy = entries
            if let since = watchingSince, !copy.isEmpty { copy[copy.count - 1].watched += Self.played(from: since, to: now) }
            return copy
        }
    }

    /// Adds the period under way, up to item time `time`, to the current entry; lock held.
    private func closePeriod(at time: CMTime) {
        if let since = watchingSince, !entries.isEmpty { entries[entries.count - 1].watched += Self.played(from: since, to: time) }
        watchingSince = nil
    }

    /// Seconds of media from `start` to `end` (none when either is unknown).
    private static func played(from start: CMTime, to end: CMTime) -> TimeInterval {
        start.isNumeric && end.isNumeric ? max(0, (end - start).seconds) : 0
    }
}
