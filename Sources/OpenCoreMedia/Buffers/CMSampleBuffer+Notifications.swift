import Foundation
import OpenCoreVideo

/// Posted by a sample buffer (the notification's object) when its data becomes ready.
public let kCMSampleBufferNotification_DataBecameReady: CFString = "CMSampleBufferDataBecameReady"
/// Posted by a sample buffer (the notification's object) when loading its data failed.
public let kCMSampleBufferNotification_DataFailed: CFString = "CMSampleBufferDataFailed"
/// The data-failed notification's user-info key for the failure's status (a number).
public let kCMSampleBufferNotificationKey_Status: CFString = "Status"

extension CMSampleBuffer {
    /// Posted through `NotificationCenter.default` by a sample buffer when its data becomes
    /// ready, on the thread that made it ready.
    public static let dataBecameReady = NSNotification.Name(kCMSampleBufferNotification_DataBecameReady)

    /// Posted through `NotificationCenter.default` by a sample buffer when loading its data
    /// failed, with the status under `NotificationKey.status`.
    public static let dataFailed = NSNotification.Name(kCMSampleBufferNotification_DataFailed)

    /// The keys of the sample buffer notifications' user info.
    public struct NotificationKey: RawRepresentable, Hashable, Sendable {
        /// The key's string.
        public let rawValue: String

        /// A key with `rawValue` as its string.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The status of a failure: `kCMSampleBufferNotificationKey_Status`.
        public static let status = NotificationKey(rawValue: kCMSampleBufferNotificationKey_Status)
    }
}
