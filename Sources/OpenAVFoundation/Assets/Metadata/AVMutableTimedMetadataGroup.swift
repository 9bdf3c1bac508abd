import Foundation
import OpenCoreMedia

/// A timed metadata group whose items and time range can be changed.
public final class AVMutableTimedMetadataGroup: AVTimedMetadataGroup, @unchecked Sendable {
    /// Creates an empty group with an invalid time range.
    public convenience init() {
        self.init(items: [], timeRange: .invalid)
    }

    /// The group's metadata items.
    override public var items: [AVMetadataItem] {
        get { super.items }
        set { itemList = newValue }
    }

    /// The time range the items hold for.
    override public var timeRange: CMTimeRange {
        get { super.timeRange }
        set { range = newValue }
    }
}
