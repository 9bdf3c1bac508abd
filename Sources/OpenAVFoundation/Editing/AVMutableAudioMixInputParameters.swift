import Foundation
import OpenCoreMedia

/// The volume of a track in an audio mix, which you set up.
open class AVMutableAudioMixInputParameters: AVAudioMixInputParameters, @unchecked Sendable {
    /// Parameters for no track yet, at full volume.
    public required init() {
        super.init()
    }

    /// Parameters for `track` (nil: for no track yet), at full volume.
    public convenience init(track: AVAssetTrack?) {
        self.init()
        values.trackID = track?.trackID ?? kCMPersistentTrackID_Invalid
    }

    /// The ID of the track the parameters apply to.
    open override var trackID: CMPersistentTrackID {
        get { super.trackID }
        set { values.trackID = newValue }
    }

    /// How the track's time-scaled edits are stretched; nil for the output's own.
    open override var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm? {
        get { super.audioTimePitchAlgorithm }
        set { values.pitchAlgorithm = newValue }
    }

    /// Ramps the volume from `startVolume` to `endVolume` over `timeRange`.
    open func setVolumeRamp(fromStartVolume startVolume: Float, toEndVolume endVolume: Float, timeRange: CMTimeRange) {
        values.withLock { $0.volumes.add(.init(start: startVolume, end: endVolume, timeRange: timeRange)) }
    }

    /// Sets the volume from `time` on, until the next ramp.
    open func setVolume(_ volume: Float, at time: CMTime) {
        values.withLock { $0.volumes.set(volume, at: time) }
    }
}
