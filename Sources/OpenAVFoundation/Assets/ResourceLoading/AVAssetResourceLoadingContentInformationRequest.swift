import Foundation

/// What a resource loader delegate tells about a resource before its data: its type, length,
/// and whether it can be read from any offset.
public final class AVAssetResourceLoadingContentInformationRequest: NSObject, @unchecked Sendable {
    private let lock = NSLock()
    private var type: String?
    private var length: Int64 = 0
    private var byteRanges = false
    private var renewal: Date?
    private var entireLength = false

    override init() {
        super.init()
    }

    /// The resource's uniform type identifier, such as "public.mpeg-4" (informative here: the
    /// container is recognised from the bytes).
    public var contentType: String? {
        get { lock.withLock { type } }
        set { lock.withLock { type = newValue } }
    }

    /// The types the loader accepts, or nil for any.
    public var allowedContentTypes: [String]? { nil }

    /// The resource's length in bytes; 0 when unknown (reading then goes on until a data
    /// request finishes short).
    public var contentLength: Int64 {
        get { lock.withLock { length } }
        set { lock.withLock { length = newValue } }
    }

    /// Whether the delegate answers data requests at any offset; false makes the loader ask
    /// for the whole resource once. By default false, as Apple's.
    public var isByteRangeAccessSupported: Bool {
        get { lock.withLock { byteRanges } }
        set { lock.withLock { byteRanges = newValue } }
    }

    /// When the resource should be loaded again (not acted on here).
    public var renewalDate: Date? {
        get { lock.withLock { renewal } }
        set { lock.withLock { renewal = newValue } }
    }

    /// Whether the whole length can be had at once on demand (informative here).
    public var isEntireLengthAvailableOnDemand: Bool {
        get { lock.withLock { entireLength } }
        set { lock.withLock { entireLength = newValue } }
    }
}
