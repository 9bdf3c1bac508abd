import Foundation

extension AVAudioSession {
    /// Posted (by the session) when its route changes: a device plugged in or out, the
    /// preferred input changed. `userInfo`: `AVAudioSessionRouteChangeReasonKey`,
    /// `AVAudioSessionRouteChangePreviousRouteKey`.
    public static let routeChangeNotification = Notification.Name("AVAudioSessionRouteChangeNotification")
    /// Posted when the sound server goes away (`.began`) and comes back (`.ended`).
    /// `userInfo`: `AVAudioSessionInterruptionTypeKey`, `AVAudioSessionInterruptionOptionKey`.
    public static let interruptionNotification = Notification.Name("AVAudioSessionInterruptionNotification")
    /// Posted when the sound server restarted and its clients must set up again (never on
    /// Linux: a restart is an interruption that ends).
    public static let mediaServicesWereResetNotification = Notification.Name("AVAudioSessionMediaServicesWereResetNotification")
    /// Posted when the media services became unavailable (never on Linux).
    public static let mediaServicesWereLostNotification = Notification.Name("AVAudioSessionMediaServicesWereLostNotification")
}

/// The key of a route change's reason (an `AVAudioSession.RouteChangeReason` raw value).
public let AVAudioSessionRouteChangeReasonKey = "AVAudioSessionRouteChangeReasonKey"
/// The key of a route change's previous route (an `AVAudioSessionRouteDescription`).
public let AVAudioSessionRouteChangePreviousRouteKey = "AVAudioSessionRouteChangePreviousRouteKey"
/// The key of an interruption's type (an `AVAudioSession.InterruptionType` raw value).
public let AVAudioSessionInterruptionTypeKey = "AVAudioSessionInterruptionTypeKey"
/// The key of an ended interruption's options (`AVAudioSession.InterruptionOptions` raw value).
public let AVAudioSessionInterruptionOptionKey = "AVAudioSessionInterruptionOptionKey"
