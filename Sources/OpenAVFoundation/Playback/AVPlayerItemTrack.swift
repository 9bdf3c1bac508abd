import Foundation
import HostSystem

/// One track of a player item, as the player presents it.
open class AVPlayerItemTrack: NSObject, @unchecked Sendable {
    /// The asset track it presents.
    public let assetTrack: AVAssetTrack?

    init(assetTrack: AVAssetTrack) {
        self.assetTrack = assetTrack
        super.init()
    }

    /// Whether the track is presented; a disabled audio track is not heard, a disabled video
    /// track is not decoded.
    @Locked open var isEnabled = true

    /// The frame rate the track is presented at: its nominal rate.
    open var currentVideoFrameRate: Float {
        assetTrack?.mediaType == .video ? assetTrack?.nominalFrameRate ?? 0 : 0
    }
}
