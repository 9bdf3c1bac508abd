import Foundation

extension NSNotification.Name {
    /// Posted by an `AVSampleBufferDisplayLayer` whose buffers could not be decoded; the error is
    /// under `AVSampleBufferDisplayLayerFailedToDecodeNotificationErrorKey`.
    public static let AVSampleBufferDisplayLayerFailedToDecode = Notification.Name("AVSampleBufferDisplayLayerFailedToDecodeNotification")
    /// Posted when a display layer's `requiresFlushToResumeDecoding` changes (never here).
    public static let AVSampleBufferDisplayLayerRequiresFlushToResumeDecodingDidChange =
        Notification.Name("AVSampleBufferDisplayLayerRequiresFlushToResumeDecodingDidChangeNotification")
}

/// The user-info key of the error in `AVSampleBufferDisplayLayerFailedToDecode`.
public let AVSampleBufferDisplayLayerFailedToDecodeNotificationErrorKey = "AVSampleBufferDisplayLayerFailedToDecodeNotificationErrorKey"

extension AVSampleBufferVideoRenderer {
    /// Posted by a renderer whose buffers could not be decoded; the error is under
    /// `AVSampleBufferVideoRendererDidFailToDecodeNotificationErrorKey`.
    public static let didFailToDecodeNotification = Notification.Name("AVSampleBufferVideoRendererDidFailToDecodeNotification")
    /// Posted when a renderer's `requiresFlushToResumeDecoding` changes (never here).
    public static let requiresFlushToResumeDecodingDidChangeNotification =
        Notification.Name("AVSampleBufferVideoRendererRequiresFlushToResumeDecodingDidChangeNotification")
}

/// The user-info key of the error in `AVSampleBufferVideoRenderer.didFailToDecodeNotification`.
public let AVSampleBufferVideoRendererDidFailToDecodeNotificationErrorKey = "AVSampleBufferVideoRendererDidFailToDecodeNotificationErrorKey"
