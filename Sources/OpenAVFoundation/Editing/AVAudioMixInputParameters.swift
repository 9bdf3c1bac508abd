import Foundation
import HostSystem
import OpenCoreMedia

/// The volume of one track in an audio mix over time: ramps, and values set at a time and held
/// until the next ramp. Before the first, the volume is 1; after a ramp, its end volume holds.
open class AVAudioMixInputParameters: NSObject, @unchecked Sendable {
    /// Everything the parameters hold (settable in the mutable subclass).
    struct Values {
        var trackID = kCMPersistentTrackID_Invalid
        var volumes = LayerRamps<Float>()
        var pitchAlgorithm: AVAudioTimePitchAlgorithm?
    }

    /// The values, behind one lock.
    let values = Locked(Values())

    /// Parameters for no track, at full volume.
    public required override init() {
        super.init()
    }

    /// The ID of the track the parameters apply to.
    open var trackID: CMPersistentTrackID { values.trackID }

    /// How the track's time-scaled edits are stretched; nil for the reading output's or
    /// player item's own.
    open var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm? { values.pitchAlgorithm }

    /// The volume ramp whose time range holds `time`, else the first one starting after it:
    /// its start and end volumes and time range (a volume set at a time holds until the next
    /// ramp). False when there is neither.
    open func getVolumeRamp(for time: CMTime, startVolume: UnsafeMutablePointer<Float>?, endVolume: UnsafeMutablePointer<Float>?,
                            timeRange: UnsafeMutablePointer<CMTimeRange>?) -> Bool {
        guard let ramp = values.withLock({ $0.volumes.reported(at: time) }) else { return false }
        startVolume?.pointee = ramp.start
        endVolume?.pointee = ramp.end
        timeRange?.pointee = ramp.timeRange
        return true
    }

    /// The volume at `time`.
    func volume(at time: CMTime) -> Float {
        values.withLock { $0.volumes.value(at: time, default: 1) { a, b, f in a + (b - a) * Float(f) } }
    }

    /// An immutable copy.
    open override func copy() -> Any { copied(as: AVAudioMixInputParameters.self) }

    /// A mutable copy.
    open override func mutableCopy() -> Any { copied(as: AVMutableAudioMixInputParameters.self) }

    private func copied(as type: AVAudioMixInputParameters.Type) -> AVAudioMixInputParameters {
        let copy = type.init()
        let snapshot = values.withLock { $0 }
        copy.values.withLock { $0 = snapshot }
        return copy
    }
}
