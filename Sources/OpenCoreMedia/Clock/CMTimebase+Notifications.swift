import Foundation
import OpenCoreVideo

/// Posted by a timebase after its effective rate changed: its own rate, or a source timebase's.
public let kCMTimebaseNotification_EffectiveRateChanged: CFString = "CMTimebaseEffectiveRateChanged"
/// Posted by a timebase after its time jumped: set, anchored, or its source's time jumped.
public let kCMTimebaseNotification_TimeJumped: CFString = "CMTimebaseTimeJumped"
/// The notifications' user-info key for the time of the event, a `CMTimeCopyAsDictionary`
/// dictionary.
///
/// Differs from Apple: the time is the timebase's own, just after the change.
public let kCMTimebaseNotificationKey_EventTime: CFString = "EventTime"

extension CMTimebase {
    /// Posted by a timebase (the notification's object) after its effective rate changed.
    public static let effectiveRateChanged = NSNotification.Name(kCMTimebaseNotification_EffectiveRateChanged)

    /// Posted by a timebase (the notification's object) after its time jumped.
    public static let timeJumped = NSNotification.Name(kCMTimebaseNotification_TimeJumped)

    /// The keys of the timebase notifications' user info.
    public struct NotificationKey: RawRepresentable, Hashable, Sendable {
        /// The key's string.
        public let rawValue: String

        /// A key with `rawValue` as its string.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The time of the event: `kCMTimebaseNotificationKey_EventTime`.
        public static let eventTime = NotificationKey(rawValue: kCMTimebaseNotificationKey_EventTime)
    }
}
