import Foundation
import OpenCoreMedia

/// Where a sample is in a segment: its presentation time, byte offset and length, and whether
/// it is a sync sample.
public final class AVAssetSegmentReportSampleInformation: NSObject, @unchecked Sendable {
    /// The sample's presentation time.
    public let presentationTimeStamp: CMTime
    /// Where the sample's bytes start in the segment.
    public let offset: Int
    /// How many bytes the sample has.
    public let length: Int
    /// Whether the sample is a sync sample (decodable on its own).
    public let isSyncSample: Bool

    init(presentationTimeStamp: CMTime, offset: Int, length: Int, isSyncSample: Bool) {
        self.presentationTimeStamp = presentationTimeStamp
        self.offset = offset
        self.length = length
        self.isSyncSample = isSyncSample
        super.init()
    }
}
