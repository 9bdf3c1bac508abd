import Foundation
import OpenCoreMedia

/// A segment of a composition track: a span of a source file's track presented at a span of
/// the composition's timeline, or an empty span.
open class AVCompositionTrackSegment: AVAssetTrackSegment, @unchecked Sendable {
    /// The file the segment's media comes from; nil for an empty segment.
    public let sourceURL: URL?
    /// The ID of the track in `sourceURL` the media comes from (`kCMPersistentTrackID_Invalid`
    /// for an empty segment).
    public let sourceTrackID: CMPersistentTrackID

    /// A segment presenting `sourceTimeRange` of track `trackID` of the file at `url` during
    /// `targetTimeRange`.
    public init(url: URL, trackID: CMPersistentTrackID, sourceTimeRange: CMTimeRange, targetTimeRange: CMTimeRange) {
        sourceURL = url
        sourceTrackID = trackID
        super.init(timeMapping: CMTimeMapping(source: sourceTimeRange, target: targetTimeRange))
    }

    /// An empty segment lasting `timeRange`.
    public init(timeRange: CMTimeRange) {
        sourceURL = nil
        sourceTrackID = kCMPersistentTrackID_Invalid
        super.init(timeMapping: CMTimeMappingMakeEmpty(target: timeRange))
    }

    /// A segment with the given source (nil for an empty one) and mapping.
    init(sourceURL: URL?, sourceTrackID: CMPersistentTrackID, timeMapping: CMTimeMapping) {
        self.sourceURL = sourceURL
        self.sourceTrackID = sourceTrackID
        super.init(timeMapping: timeMapping)
    }
}
