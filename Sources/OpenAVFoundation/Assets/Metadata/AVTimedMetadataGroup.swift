import Foundation
import HostSystem
import OpenCoreMedia

/// Metadata items that hold for a time range of an asset's timeline: a sample of a timed
/// metadata track, as `AVPlayerItemMetadataOutput` and `AVAssetReaderOutputMetadataAdaptor`
/// give them.
public class AVTimedMetadataGroup: AVMetadataGroup, NSCopying, NSMutableCopying, @unchecked Sendable {
    /// The time range (`timeRange`, settable in the mutable subclass).
    @Locked var range: CMTimeRange

    /// Creates a group of `items` for `timeRange`.
    public init(items: [AVMetadataItem], timeRange: CMTimeRange) {
        range = timeRange
        super.init(items: items)
    }

    /// Creates the group a sample of a timed metadata track holds: its items, for the sample's
    /// time and duration (a sample without a duration holds for an instant). Nil when the sample
    /// holds no metadata read here.
    ///
    /// Differs from Apple: only ID3 samples (`kCMMetadataFormatType_ID3`, as timed ID3 tracks of
    /// MPEG transport streams and HTTP Live Streaming carry them) are read; QuickTime boxed
    /// metadata tracks are not, since FFmpeg does not read them.
    public convenience init?(sampleBuffer: CMSampleBuffer) {
        guard let format = CMSampleBufferGetFormatDescription(sampleBuffer),
              CMFormatDescriptionGetMediaType(format) == kCMMediaType_Metadata,
              CMFormatDescriptionGetMediaSubType(format) == kCMMetadataFormatType_ID3,
              let block = CMSampleBufferGetDataBuffer(sampleBuffer) else { return nil }
        let length = CMBlockBufferGetDataLength(block)
        guard length > 0 else { return nil }
        var bytes = Data(count: length)
        let status = bytes.withUnsafeMutableBytes { CMBlockBufferCopyDataBytes(block, atOffset: 0, dataLength: length, destination: $0.baseAddress!) }
        let start = CMSampleBufferGetPresentationTimeStamp(sampleBuffer)
        let sampleDuration = CMSampleBufferGetDuration(sampleBuffer)
        let duration = sampleDuration.isNumeric ? sampleDuration : .zero
        guard status == noErr, let tag = ID3Tag(bytes, time: start, duration: duration) else { return nil }
        self.init(items: tag.items, timeRange: CMTimeRange(start: start, duration: duration))
    }

    /// The time range the items hold for.
    public var timeRange: CMTimeRange { range }

    /// A copy of the group.
    public func copy(with zone: NSZone? = nil) -> Any {
        AVTimedMetadataGroup(items: items, timeRange: timeRange)
    }

    /// A mutable copy of the group.
    public func mutableCopy(with zone: NSZone? = nil) -> Any {
        AVMutableTimedMetadataGroup(items: items, timeRange: timeRange)
    }
}
