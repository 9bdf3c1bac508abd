import Foundation
import OpenCoreMedia

/// A metadata output's objects in a synchronized collection: what it found in the frame of the
/// collection's time.
public final class AVCaptureSynchronizedMetadataObjectData: AVCaptureSynchronizedData, @unchecked Sendable {
    /// The objects found in the frame; empty when the output read the frame and found nothing.
    public let metadataObjects: [AVMetadataObject]

    init(metadataObjects: [AVMetadataObject], timestamp: CMTime) {
        self.metadataObjects = metadataObjects
        super.init(timestamp: timestamp)
    }
}
