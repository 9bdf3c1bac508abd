import Foundation

/// The bytes a resource loader wants: from `requestedOffset`, `requestedLength` of them or all
/// to the end of the resource. The delegate hands them over in order with `respond(with:)`,
/// in as many pieces as it likes, then finishes the loading request.
public final class AVAssetResourceLoadingDataRequest: NSObject, @unchecked Sendable {
    /// Where the bytes asked for start in the resource.
    public let requestedOffset: Int64

    /// How many bytes are asked for; with `requestsAllDataToEndOfResource`, the rest of the
    /// resource (`Int.max` when its length is unknown).
    public let requestedLength: Int

    /// Whether everything from `requestedOffset` to the end is asked for.
    public let requestsAllDataToEndOfResource: Bool

    /// The loading request this belongs to.
    weak var loadingRequest: AVAssetResourceLoadingRequest?

    init(offset: Int64, length: Int, toEnd: Bool) {
        requestedOffset = offset
        requestedLength = length
        requestsAllDataToEndOfResource = toEnd
        super.init()
    }

    /// Where the next byte responded with goes: `requestedOffset` plus what was responded.
    public var currentOffset: Int64 { requestedOffset + Int64(loadingRequest?.receivedCount ?? 0) }

    /// Hands over the next bytes, following those given before.
    public func respond(with data: Data) {
        loadingRequest?.append(data)
    }
}
