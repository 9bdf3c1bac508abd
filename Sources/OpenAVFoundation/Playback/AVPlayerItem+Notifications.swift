import Foundation

extension AVPlayerItem {
    /// Posted (with the item as object) when the item has played to its end time.
    public static let didPlayToEndTimeNotification = Notification.Name("AVPlayerItemDidPlayToEndTimeNotification")
    /// Posted when the item failed to play to its end; the error is under
    /// `AVPlayerItemFailedToPlayToEndTimeErrorKey` in the user info.
    public static let failedToPlayToEndTimeNotification = Notification.Name("AVPlayerItemFailedToPlayToEndTimeNotification")
    /// Posted when playback stalled because media did not arrive in time.
    public static let playbackStalledNotification = Notification.Name("AVPlayerItemPlaybackStalledNotification")
    /// Posted when the item's time changed other than by playing on (a seek).
    public static let timeJumpedNotification = Notification.Name("AVPlayerItemTimeJumpedNotification")
    /// Posted when a new event is added to the item's access log (`accessLog()`): when it
    /// first plays, and at each change of HTTP Live Streaming variant.
    public static let newAccessLogEntryNotification = Notification.Name("AVPlayerItemNewAccessLogEntryNotification")
    /// Posted when a new event is added to the item's error log (`errorLog()`): when an error
    /// stops it.
    public static let newErrorLogEntryNotification = Notification.Name("AVPlayerItemNewErrorLogEntryNotification")
}

/// The user-info key of the error in a failed-to-play-to-end notification.
public let AVPlayerItemFailedToPlayToEndTimeErrorKey = "AVPlayerItemFailedToPlayToEndTimeErrorKey"

extension NSNotification.Name {
    /// The older spelling of `AVPlayerItem.didPlayToEndTimeNotification`.
    public static let AVPlayerItemDidPlayToEndTime = AVPlayerItem.didPlayToEndTimeNotification
    /// The older spelling of `AVPlayerItem.failedToPlayToEndTimeNotification`.
    public static let AVPlayerItemFailedToPlayToEndTime = AVPlayerItem.failedToPlayToEndTimeNotification
    /// The older spelling of `AVPlayerItem.playbackStalledNotification`.
    public static let AVPlayerItemPlaybackStalled = AVPlayerItem.playbackStalledNotification
    /// The older spelling of `AVPlayerItem.timeJumpedNotification`.
    public static let AVPlayerItemTimeJumped = AVPlayerItem.timeJumpedNotification
    /// The older spelling of `AVPlayerItem.newAccessLogEntryNotification`.
    public static let AVPlayerItemNewAccessLogEntry = AVPlayerItem.newAccessLogEntryNotification
    /// The older spelling of `AVPlayerItem.newErrorLogEntryNotification`.
    public static let AVPlayerItemNewErrorLogEntry = AVPlayerItem.newErrorLogEntryNotification
}
