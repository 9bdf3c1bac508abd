import Foundation

extension AVPlayerItem: NSCopying {
    /// A new item of the same asset with the same settings (end times, audio time pitch
    /// algorithm, video composition, audio mix, buffering and variant preferences), not in a
    /// player, at time zero; its outputs are not copied.
    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = AVPlayerItem(asset: asset, automaticallyLoadedAssetKeys: automaticallyLoadedAssetKeys)
        copy.forwardPlaybackEndTime = forwardPlaybackEndTime
        copy.reversePlaybackEndTime = reversePlaybackEndTime
        copy.audioTimePitchAlgorithm = audioTimePitchAlgorithm
        copy.videoComposition = videoComposition
        copy.audioMix = audioMix
        copy.preferredForwardBufferDuration = preferredForwardBufferDuration
        copy.preferredPeakBitRate = preferredPeakBitRate
        copy.preferredMaximumResolution = preferredMaximumResolution
        return copy
    }
}
