import Foundation
import HostSystem

/// Plays its input faster or slower with the pitch kept, and moves the pitch without changing
/// the speed: librubberband, through libavfilter's `rubberband` filter.
open class AVAudioUnitTimePitch: AVAudioUnitTimeEffect, @unchecked Sendable {
    private let settings = Locked((rate: Float(1), pitch: Float(0), overlap: Float(8)))

    /// A unit at rate 1 and no pitch change.
    public init() {
        super.init(name: "AUNewTimePitch")
    }

    /// The playback rate, 1/32 to 32 (1 at first): 2 plays twice as fast at the same pitch.
    open var rate: Float {
        get { settings.withLock { $0.rate } }
        set { change { $0.rate = min(32, max(1 / 32, newValue)) } }
    }

    /// The pitch shift in cents, −2400 to 2400 (0 at first): 1200 is an octave up.
    open var pitch: Float {
        get { settings.withLock { $0.pitch } }
        set { change { $0.pitch = min(2400, max(-2400, newValue)) } }
    }

    /// The analysis windows' overlap, 3 to 32 (8 at first); kept, as librubberband chooses its own.
    open var overlap: Float {
        get { settings.withLock { $0.overlap } }
        set { settings.withLock { $0.overlap = min(32, max(3, newValue)) } }
    }

    private func change(_ body: (inout (rate: Float, pitch: Float, overlap: Float)) -> Void) {
        settings.withLock(body)
        chainChanged()
    }

    override var inputFramesPerOutputFrame: Double { Double(rate) }

    override var chain: String? {
        let (rate, pitch, _) = settings.withLock { $0 }
        guard rate != 1 || pitch != 0 else { return nil }
        return "rubberband=tempo=\(rate):pitch=\(pow(2, Double(pitch) / 1200))"
    }
}
