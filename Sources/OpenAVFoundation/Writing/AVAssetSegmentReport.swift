import Foundation

/// What a segment an `AVAssetWriter` handed to its delegate holds, track by track: what a
/// playlist (`#EXTINF`) or a CMAF index needs.
public final class AVAssetSegmentReport: NSObject, @unchecked Sendable {
    /// The kind of segment.
    public let segmentType: AVAssetSegmentType
    /// One report per track with samples in the segment (none for an initialization segment).
    public let trackReports: [AVAssetSegmentTrackReport]

    init(segmentType: AVAssetSegmentType, trackReports: [AVAssetSegmentTrackReport]) {
        self.segmentType = segmentType
        self.trackReports = trackReports
        super.init()
    }
}
