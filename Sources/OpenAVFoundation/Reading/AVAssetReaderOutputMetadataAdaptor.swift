import Foundation
import OpenCoreMedia

/// Reads a timed metadata track's samples through a track output as timed metadata groups.
public class AVAssetReaderOutputMetadataAdaptor: NSObject, @unchecked Sendable {
    /// The track output the groups are read from: made with nil output settings, for a track of
    /// `AVMediaType.metadata`.
    public let assetReaderTrackOutput: AVAssetReaderTrackOutput

    /// Creates an adaptor reading groups from `trackOutput`.
    public init(assetReaderTrackOutput trackOutput: AVAssetReaderTrackOutput) {
        assetReaderTrackOutput = trackOutput
        super.init()
    }

    /// The next sample's group; nil at the end of the track (or when the reader failed or was
    /// cancelled: see its `status` and `error`). Samples that hold no metadata read here are
    /// passed over (see `AVTimedMetadataGroup.init(sampleBuffer:)`).
    public func nextTimedMetadataGroup() -> AVTimedMetadataGroup? {
        while let sample = assetReaderTrackOutput.copyNextSampleBuffer() {
            if let group = AVTimedMetadataGroup(sampleBuffer: sample) { return group }
        }
        return nil
    }
}
