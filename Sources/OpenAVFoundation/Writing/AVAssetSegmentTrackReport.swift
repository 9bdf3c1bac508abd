import Foundation
import OpenCoreMedia

/// What one track holds in a segment.
public final class AVAssetSegmentTrackReport: NSObject, @unchecked Sendable {
    /// The track's ID in the movie.
    public let trackID: CMPersistentTrackID
    /// The track's media type.
    public let mediaType: AVMediaType
    /// The earliest presentation time of the track's samples in the segment.
    public let earliestPresentationTimeStamp: CMTime
    /// From the earliest presentation time to the end of the latest sample.
    public let duration: CMTime
    /// The first video sample of the segment (in decode order); nil for other tracks.
    public let firstVideoSampleInformation: AVAssetSegmentReportSampleInformation?

    init(trackID: CMPersistentTrackID, mediaType: AVMediaType, earliestPresentationTimeStamp: CMTime, duration: CMTime,
         firstVideoSampleInformation: AVAssetSegmentReportSampleInformation?) {
        self.trackID = trackID
        self.mediaType = mediaType
        self.earliestPresentationTimeStamp = earliestPresentationTimeStamp
        self.duration = duration
        self.firstVideoSampleInformation = firstVideoSampleInformation
        super.init()
    }
}
