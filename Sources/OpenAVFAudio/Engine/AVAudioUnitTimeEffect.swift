import Foundation

/// An effect that changes its input's pace (`AVAudioUnitTimePitch`, `AVAudioUnitVarispeed`):
/// each render pulls about as many input frames as its output frames take at the unit's rate,
/// through the unit's filter.
open class AVAudioUnitTimeEffect: AVAudioUnit, @unchecked Sendable {
    /// Whether the effect is bypassed: its input passes through untouched, at its own pace.
    open var bypass: Bool {
        get { isBypassed }
        set { isBypassed = newValue }
    }

    /// Input frames the unit takes for each output frame (2: twice as fast).
    var inputFramesPerOutputFrame: Double { 1 }

    override func render(bus: AVAudioNodeBus, frames: Int, into target: RenderBus, cycle: RenderCycle, graph: EngineGraph) {
        renderFiltered(frames: frames, into: target, cycle: cycle, graph: graph, inputFramesPerOutputFrame: inputFramesPerOutputFrame)
    }
}
