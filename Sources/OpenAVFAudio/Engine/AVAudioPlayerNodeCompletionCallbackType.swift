/// When a player's completion handler is called.
public enum AVAudioPlayerNodeCompletionCallbackType: Int, Sendable {
    /// When the player has taken the data (rendered it, or let it go on `stop()`).
    case dataConsumed = 0
    /// When the data has been rendered (the render cycle that took its last frame ended).
    case dataRendered = 1
    /// When the data has been heard: rendered, and the output's latency later.
    case dataPlayedBack = 2
}
