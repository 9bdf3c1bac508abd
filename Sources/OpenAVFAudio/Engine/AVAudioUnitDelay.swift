import Foundation
import HostSystem

/// An echo: the input repeated every `delayTime`, each repeat `feedback` of the one before,
/// darkened by a low pass at `lowPassCutoff`, mixed with the dry input by `wetDryMix`.
/// libavfilter's `aecho` makes the repeats (one tap each, until they fall 60 dB) and `lowpass`
/// darkens them; a feedback loop darkens each repeat once more than the one before, these
/// taps are darkened once alike, and a negative feedback gives repeats of the same sign.
open class AVAudioUnitDelay: AVAudioUnitEffect, @unchecked Sendable {
    private let settings = Locked((delayTime: 1.0, feedback: Float(50), lowPassCutoff: Float(15_000), wetDryMix: Float(100)))

    /// A delay of 1 s, 50 % feedback, a 15 kHz low pass, all wet.
    public init() {
        super.init(name: "AUDelay")
    }

    private func change(_ body: (inout (delayTime: Double, feedback: Float, lowPassCutoff: Float, wetDryMix: Float)) -> Void) {
        settings.withLock(body)
        chainChanged()
    }

    /// The time between repeats in seconds, 0 to 2 (1 at first).
    open var delayTime: TimeInterval {
        get { settings.withLock { $0.delayTime } }
        set { change { $0.delayTime = min(2, max(0, newValue)) } }
    }

    /// Each repeat's level against the one before in percent, −100 to 100 (50 at first).
    open var feedback: Float {
        get { settings.withLock { $0.feedback } }
        set { change { $0.feedback = min(100, max(-100, newValue)) } }
    }

    /// The low pass cutoff of the repeats in hertz, 10 to half the sample rate (15 kHz at first).
    open var lowPassCutoff: Float {
        get { settings.withLock { $0.lowPassCutoff } }
        set { change { $0.lowPassCutoff = max(10, newValue) } }
    }

    /// How much of the output is the repeats, 0 (all dry) to 100 (all wet), in percent.
    open var wetDryMix: Float {
        get { settings.withLock { $0.wetDryMix } }
        set { change { $0.wetDryMix = min(100, max(0, newValue)) } }
    }

    override var chain: String? {
        let (delay, feedback, cutoff, mix) = settings.withLock { $0 }
        guard delay > 0 else { return nil }
        let decay = Double(abs(feedback)) / 100
        var gains = [1.0]
        while gains.count < 32, decay > 0, let last = gains.last, last * decay >= 0.001 { gains.append(last * decay) }
        let milliseconds = gains.indices.map { String(format: "%.3f", Double($0 + 1) * delay * 1000) }.joined(separator: "|")
        let nyquist = currentOutputFormat(0).sampleRate / 2 - 1
        let decays = gains.map { "\($0)" }.joined(separator: "|")
        return Self.mixing("[wet]aecho=in_gain=0:out_gain=1:delays=\(milliseconds):decays=\(decays),lowpass=f=\(min(Double(cutoff), nyquist))[effect]",
                           wetDryMix: mix)
    }
}
