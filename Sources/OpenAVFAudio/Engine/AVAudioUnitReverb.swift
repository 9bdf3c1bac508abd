import Foundation
import HostSystem

/// A room's reverberation: libavfilter's `afir` convolves the input with an impulse response
/// made for the chosen room (noise falling by 60 dB over the room's decay time, one noise a
/// channel), mixed with the dry input by `wetDryMix`.
open class AVAudioUnitReverb: AVAudioUnitEffect, @unchecked Sendable {
    private let settings = Locked((preset: AVAudioUnitReverbPreset.mediumHall, wetDryMix: Float(100)))

    /// A reverb of a medium hall, all wet.
    public init() {
        super.init(name: "AUReverb2")
    }

    /// Makes the reverb sound like `preset`'s room.
    open func loadFactoryPreset(_ preset: AVAudioUnitReverbPreset) {
        settings.withLock { $0.preset = preset }
        chainChanged()
    }

    /// How much of the output is reverberation, 0 (all dry) to 100 (all wet), in percent.
    open var wetDryMix: Float {
        get { settings.withLock { $0.wetDryMix } }
        set {
            settings.withLock { $0.wetDryMix = min(100, max(0, newValue)) }
            chainChanged()
        }
    }

    override var chain: String? {
        let (preset, mix) = settings.withLock { $0 }
        let format = currentOutputFormat(0)
        let decay = preset.decayTime
        let noise = (0..<Int(format.channelCount)).map { "(random(\($0))*2-1)*exp(-6.9078*t/\(decay))" }.joined(separator: "|")
        return Self.mixing("aevalsrc=exprs='\(noise)':s=\(Int(format.sampleRate)):d=\(decay)[ir];[wet][ir]afir=gtype=gn[effect]", wetDryMix: mix)
    }
}
