/// One pass of the engine over its graph: which pass, how many frames at the output's rate,
/// where the first is on the engine's timeline and when it is heard on the host clock.
struct RenderCycle {
    /// The pass's number; a bus rendered in it is not rendered again.
    let id: UInt64
    /// The frames the output asks for, at the output's sample rate.
    let frames: Int
    /// The first frame's place on the engine's timeline (frames at the output's rate since it
    /// started).
    let sampleTime: Int64
    /// The host time (nanoseconds) at which the first frame is heard.
    let hostTime: UInt64
    /// The output's sample rate.
    let sampleRate: Double
    /// Whether the engine renders offline (manual rendering): a node may wait for its data.
    let isOffline: Bool

    /// The `index`th extra pass of this cycle over a node's inputs: a node that needs more input
    /// frames than one pull gives (a time effect playing fast, a mixer input at a higher rate)
    /// pulls again under another number, so that its inputs render their next frames.
    func subCycle(_ index: Int) -> RenderCycle {
        RenderCycle(id: (1 << 63) | (id << 8) | UInt64(index & 0xFF), frames: frames, sampleTime: sampleTime, hostTime: hostTime,
                    sampleRate: sampleRate, isOffline: isOffline)
    }

    /// The first frame's place on the engine's timeline counted at `rate` (a node's rate).
    func sampleTime(atRate rate: Double) -> Int64 {
        rate == sampleRate ? sampleTime : Int64((Double(sampleTime) * rate / sampleRate).rounded())
    }
}
