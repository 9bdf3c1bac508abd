import Foundation
import HostSystem

/// Plays its input faster or slower with the pitch following, as a tape does: libavfilter's
/// `asetrate` and `aresample` (libswresample).
open class AVAudioUnitVarispeed: AVAudioUnitTimeEffect, @unchecked Sendable {
    private let storedRate = Locked(Float(1))

    /// A unit at rate 1.
    public init() {
        super.init(name: "AUVarispeed")
    }

    /// The playback rate, 0.25 to 4 (1 at first): 2 plays twice as fast, an octave up.
    open var rate: Float {
        get { storedRate.withLock { $0 } }
        set {
            storedRate.withLock { $0 = min(4, max(0.25, newValue)) }
            chainChanged()
        }
    }

    override var inputFramesPerOutputFrame: Double { Double(rate) }

    override var chain: String? {
        let rate = storedRate.withLock { $0 }
        guard rate != 1 else { return nil }
        let sampleRate = Int(currentOutputFormat(0).sampleRate)
        return "asetrate=\(Int((Double(sampleRate) * Double(rate)).rounded())),aresample=\(sampleRate)"
    }
}
