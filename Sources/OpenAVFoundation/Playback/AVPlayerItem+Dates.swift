import Foundation

extension AVPlayerItem {
    /// The date the current time stands for, in a stream whose times are mapped to dates: nil
    /// here, as files and the HTTP Live Streams played carry no such mapping
    /// (`EXT-X-PROGRAM-DATE-TIME` is not read).
    public func currentDate() -> Date? { nil }

    /// Moves the playhead to the time that stands for `date`, then calls the handler with
    /// whether it moved; whether it moved. The items played here have no dates
    /// (`currentDate()` is nil), so it never moves: false, and the handler is told false.
    @discardableResult
    public func seek(to date: Date, completionHandler: (@Sendable (Bool) -> Void)? = nil) -> Bool {
        if let completionHandler { DispatchQueue.global().async { completionHandler(false) } }
        return false
    }

    /// Moves the playhead to the time that stands for `date`; whether it moved (never here, see
    /// `seek(to:completionHandler:)`).
    public func seek(to date: Date) async -> Bool { false }

    /// Cancels the seek asked for and not yet begun: its completion handler is told false. A
    /// seek under way finishes.
    public func cancelPendingSeeks() {
        if let player, player.currentItem === self { player.engine.cancelPendingSeek() }
    }
}
