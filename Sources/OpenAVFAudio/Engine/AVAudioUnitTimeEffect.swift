import Foundation

/// An effect that changes its input's timing (`AVAudioUnitTimePitch`, `AVAudioUnitVarispeed`):
/// each render pulls about as many input frames as its output frames take at the unit's rate
/// (once a cycle), filters them onto the end of a queue, and hands out the cycle's frames from
/// the queue; the filter's own delay is heard as silence at the start.
open class AVAudioUnitTimeEffect: AVAudioUnit, @unchecked Sendable {
    /// Whether the effect is bypassed: its input passes through untouched, at its own pace.
    open var bypass: Bool {
        get { isBypassed }
        set { isBypassed = newValue }
    }

    /// Filtered frames not yet handed out.
    private var queue: RenderBus?
    private var queued = 0

    /// Input frames the unit takes for each output frame (2: twice as fast).
    var inputFramesPerOutputFrame: Double { 1 }

    override func clearRenderingState() {
        super.clearRenderingState()
        queue = renderBuses[0].map { RenderBus(channelCount: $0.channelCount, capacity: $0.capacity * 4) }
        queued = 0
    }

    override func render(bus: AVAudioNodeBus, frames: Int, into target: RenderBus, cycle: RenderCycle, graph: EngineGraph) {
        guard !isBypassed, let filter, let queue else {
            passThrough(graph.pull(into: self, bus: 0, frames: frames, cycle: cycle), frames: frames, into: target)
            return
        }
        // Pulls until the queue holds the cycle's frames: more than once when the input needs
        // more frames than a pull gives (fast rates), while the filter gives something back
        // (not during its delay at the start), never more than 64 times a cycle.
        var pass = 0
        while queued < frames, pass < 64 {
            let wanted = Int((Double(frames - queued) * inputFramesPerOutputFrame).rounded(.up)) + 1
            guard let input = graph.pull(into: self, bus: 0, frames: wanted, cycle: pass == 0 ? cycle : cycle.subCycle(pass)),
                  input.frames > 0 else { break }
            let added = filter.append(input, frames: input.frames, to: queue, at: queued)
            queued += added
            pass += 1
            if added == 0 { break }
        }
        let given = min(frames, queued), missing = frames - given
        for channel in 0..<target.channelCount {
            target.planes[channel].update(repeating: 0, count: missing)
            (target.planes[channel] + missing).update(from: queue.planes[channel], count: given)
            queue.planes[channel].update(from: queue.planes[channel] + given, count: queued - given)
        }
        queued -= given
    }
}
