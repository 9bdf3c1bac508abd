import Foundation
import HostSystem

/// A collection of metadata items that belong to one stretch of a timeline: the base of
/// `AVTimedMetadataGroup`. Safe to use from several threads.
public class AVMetadataGroup: NSObject, @unchecked Sendable {
    /// The items (`items`, settable in the mutable subclass).
    @Locked var itemList: [AVMetadataItem]

    init(items: [AVMetadataItem]) {
        itemList = items
        super.init()
    }

    /// The group's metadata items.
    public var items: [AVMetadataItem] { itemList }

    /// A label that classifies the group (an HLS date range's class); nil: no group read on Linux has one.
    public var classifyingLabel: String? { nil }

    /// An identifier unique to the group (an HLS date range's identifier); nil: no group read on Linux has one.
    public var uniqueID: String? { nil }
}
