import Foundation
import OpenCoreMedia

/// The data of one output in a synchronized collection: the abstract superclass of
/// `AVCaptureSynchronizedSampleBufferData` and `AVCaptureSynchronizedMetadataObjectData`.
public class AVCaptureSynchronizedData: NSObject, @unchecked Sendable {
    /// When the data was captured: its presentation time on the session's clock.
    public let timestamp: CMTime

    init(timestamp: CMTime) {
        self.timestamp = timestamp
    }
}
