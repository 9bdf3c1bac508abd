/// One pass of the engine over its graph: which pass, how many frames at the output's rate,
/// and when the first is heard on the host clock.
struct RenderCycle {
    /// The pass's number; a bus rendered in it is not rendered again.
    let id: UInt64
    /// The frames the output asks for, at the output's sample rate.
    let frames: Int
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
        RenderCycle(id: (1 << 63) | (id << 8) | UInt64(index & 0xFF), frames: frames, hostTime: hostTime,
                    sampleRate: sampleRate, isOffline: isOffline)
    }
}
