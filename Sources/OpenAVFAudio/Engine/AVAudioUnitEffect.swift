import Foundation

/// An effect that changes its input's samples without changing their pace (the equalizer, the
/// reverb): each render pulls a cycle's frames of its input through the unit's filter, or
/// passes them through untouched when `bypass` is set.
open class AVAudioUnitEffect: AVAudioUnit, @unchecked Sendable {
    /// Whether the effect is bypassed: its input passes through untouched.
    open var bypass: Bool {
        get { isBypassed }
        set { isBypassed = newValue }
    }

    override func render(bus: AVAudioNodeBus, frames: Int, into target: RenderBus, cycle: RenderCycle, graph: EngineGraph) {
        renderFiltered(frames: frames, into: target, cycle: cycle, graph: graph, inputFramesPerOutputFrame: 1)
    }
}
