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

    /// A snapshot of the item's error log: an event for each error that stopped it (loading
    /// it, or reading it while it played); nil while there is none.
    public func errorLog() -> AVPlayerItemErrorLog? {
        let events = state.errorEvents
        return events.isEmpty ? nil : AVPlayerItemErrorLog(events: events)
    }

    /// Adds `error` to the error log (state locked by the caller) and says so, once the lock is
    /// released, with `newErrorLogEntryNotification`.
    func logError(_ error: Error, in state: inout State) {
        state.errorEvents.append(AVPlayerItemErrorLogEvent(error: error, url: (asset as? AVURLAsset)?.url, sessionID: accessRecord.sessionID))
        let item = self
        DispatchQueue.global().async { NotificationCenter.default.post(name: AVPlayerItem.newErrorLogEntryNotification, object: item) }
    }
}
