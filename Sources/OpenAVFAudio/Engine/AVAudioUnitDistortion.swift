import Foundation
import HostSystem

/// A distortion: the input, raised by `preGain`, through the chosen preset's chain of
/// libavfilter's filters (bit and rate reduction, clipping, band limits, echoes, phasers: see
/// `AVAudioUnitDistortionPreset`), mixed with the dry input by `wetDryMix`.
open class AVAudioUnitDistortion: AVAudioUnitEffect, @unchecked Sendable {
    private let settings = Locked((preset: AVAudioUnitDistortionPreset.drumsBitBrush, preGain: Float(-6), wetDryMix: Float(50)))

    /// A distortion of the `.drumsBitBrush` preset, −6 dB before it, half wet.
    public init() {
        super.init(name: "AUDistortion")
    }

    /// Makes the unit distort as `preset` does.
    open func loadFactoryPreset(_ preset: AVAudioUnitDistortionPreset) {
        settings.withLock { $0.preset = preset }
        chainChanged()
    }

    /// The gain before the distortion in decibels, −80 to 20 (−6 at first).
    open var preGain: Float {
        get { settings.withLock { $0.preGain } }
        set {
            settings.withLock { $0.preGain = min(20, max(-80, newValue)) }
            chainChanged()
        }
    }

    /// How much of the output is distorted, 0 (all dry) to 100 (all wet), in percent.
    open var wetDryMix: Float {
        get { settings.withLock { $0.wetDryMix } }
        set {
            settings.withLock { $0.wetDryMix = min(100, max(0, newValue)) }
            chainChanged()
        }
    }

    override var chain: String? {
        let (preset, gain, mix) = settings.withLock { $0 }
        return Self.mixing("[wet]volume=\(gain)dB,\(preset.chain)[effect]", wetDryMix: mix)
    }
}
