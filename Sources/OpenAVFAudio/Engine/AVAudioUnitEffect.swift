import Foundation

/// An effect that changes its input's samples without changing their timing (the equalizer):
/// each render pulls the input's frames and runs them through the unit's filter in place, or
/// passes them through untouched when `bypass` is set.
open class AVAudioUnitEffect: AVAudioUnit, @unchecked Sendable {
    /// Whether the effect is bypassed: its input passes through untouched.
    open var bypass: Bool {
        get { isBypassed }
        set { isBypassed = newValue }
    }

    override func render(bus: AVAudioNodeBus, frames: Int, into target: RenderBus, cycle: RenderCycle, graph: EngineGraph) {
        guard passThrough(graph.pull(into: self, bus: 0, frames: frames, cycle: cycle), frames: frames, into: target),
              !isBypassed, let filter else { return }
        filter.process(target, frames: frames)
    }
}
