import Foundation
import OpenCoreMedia

/// What an `AVAssetWriterInput` asks to be appended in the current pass: the source time ranges.
///
/// Inputs here encode in one pass (`canPerformMultiplePasses` is always false), so the only
/// description is the first pass's: one range from zero to positive infinity, all the media.
public final class AVAssetWriterInputPassDescription: NSObject, @unchecked Sendable {
    private let ranges: [CMTimeRange]

    init(timeRanges: [CMTimeRange]) {
        ranges = timeRanges
        super.init()
    }

    /// The source time ranges to append, each a `CMTimeRange` in an `NSValue`; suitable for
    /// `AVAssetReaderOutput.reset(forReadingTimeRanges:)`.
    public var sourceTimeRanges: [NSValue] { ranges.map { NSValue(timeRange: $0) } }
}
