import Foundation

extension AVPlayerItem {
    /// A snapshot of the item's access log: an event per variant played (one for a file), with
    /// the time watched, stalls and dropped pictures so far; nil before the item first plays.
    public func accessLog() -> AVPlayerItemAccessLog? {
        let entries = accessRecord.snapshot(at: currentTime())
        guard !entries.isEmpty else { return nil }
        let url = (asset as? AVURLAsset)?.url
        let type = state.playbackType
        return AVPlayerItemAccessLog(events: entries.map {
            AVPlayerItemAccessLogEvent(entry: $0, uri: url?.absoluteString, sessionID: accessRecord.sessionID, playbackType: type)
        })
    }
}
