import Foundation

/// Receives the segments of an `AVAssetWriter` made with `init(contentType:)`.
///
/// As Apple's, the protocol refines `NSObjectProtocol`: adopt it in an `NSObject` subclass.
///
/// Differs from Apple: the methods are optional in Apple's protocol; here both have default
/// implementations, the report-taking one calling the other, so that implementing either
/// works. The writer always calls the report-taking one.
public protocol AVAssetWriterDelegate: NSObjectProtocol {
    /// A segment is ready: the initialization segment first, then each separable segment, in
    /// order, with a report of what it holds. Called on a queue of the writer's.
    func assetWriter(_ writer: AVAssetWriter, didOutputSegmentData segmentData: Data, segmentType: AVAssetSegmentType,
                     segmentReport: AVAssetSegmentReport?)

    /// A segment is ready (without its report).
    func assetWriter(_ writer: AVAssetWriter, didOutputSegmentData segmentData: Data, segmentType: AVAssetSegmentType)
}

extension AVAssetWriterDelegate {
    /// Calls `assetWriter(_:didOutputSegmentData:segmentType:)`.
    public func assetWriter(_ writer: AVAssetWriter, didOutputSegmentData segmentData: Data, segmentType: AVAssetSegmentType,
                            segmentReport: AVAssetSegmentReport?) {
        assetWriter(writer, didOutputSegmentData: segmentData, segmentType: segmentType)
    }

    /// Does nothing.
    public func assetWriter(_ writer: AVAssetWriter, didOutputSegmentData segmentData: Data, segmentType: AVAssetSegmentType) {}
}
