import Foundation

/// One track of a player item, as the player presents it.
open class AVPlayerItemTrack: NSObject, @unchecked Sendable {
    private let lock = NSLock()
    private var enabled = true

    /// The asset track it presents.
    public let assetTrack: AVAssetTrack?

    init(assetTrack: AVAssetTrack) {
        self.assetTrack = assetTrack
        super.init()
    }

    /// Whether the track is presented; a disabled audio track is not heard, a disabled video
    /// track is not decoded.
    open var isEnabled: Bool {
        get { lock.withLock { enabled } }
        set { lock.withLock { enabled = newValue } }
    }

    /// The frame rate the track is presented at: its nominal rate.
    open var currentVideoFrameRate: Float {
        assetTrack?.mediaType == .video ? assetTrack?.nominalFrameRate ?? 0 : 0
    }
}
