import Foundation
import MediaEngine

/// An effect that changes its input's samples without changing their timing (equalizers
/// here): each render pulls the input's frames and runs them through the effect's libavfilter
/// chain (`EffectFilter`), or passes them through untouched when `bypass` is set.
open class AVAudioUnitEffect: AVAudioUnit, @unchecked Sendable {
    /// Whether the effect is bypassed: its input passes through untouched.
    open var bypass: Bool {
        get { bypassed.volume == 1 }
        set { bypassed.volume = newValue ? 1 : 0 }
    }

    /// The bypass flag, read by the render thread without a lock.
    private let bypassed = MixingSettings(volume: 0)
    /// The filter the render thread runs (graph lock held); made when the engine prepares and
    /// when a setting changes, never on the render thread.
    private var filter: EffectFilter?

    /// The libavfilter chain the effect's settings make (nil: no filtering, the input passes).
    var chain: String? { nil }

    /// Makes the filter for the current settings on the calling thread and puts it in place
    /// between two cycles.
    func chainChanged() {
        guard let engine else { return }
        let chain = self.chain
        let (format, capacity) = engine.graph.withLock { (currentOutputFormat(0), renderBuses[0]?.capacity) }
        guard let capacity else { return }
        let made = Self.makeFilter(chain, format: format, capacity: capacity)
        engine.graph.withLock { filter = made }
    }

    /// A filter running `chain` in `format` for renders of up to `capacity` frames.
    private static func makeFilter(_ chain: String?, format: AVAudioFormat, capacity: Int) -> EffectFilter? {
        chain.flatMap { try? EffectFilter(chain: $0, sampleRate: Int(format.sampleRate), channelCount: Int(format.channelCount), capacity: capacity) }
    }

    override func prepareRendering(maximumFrames: Int) {
        super.prepareRendering(maximumFrames: maximumFrames)
        if let bus = renderBuses[0] { filter = Self.makeFilter(chain, format: currentOutputFormat(0), capacity: bus.capacity) }
    }

    override func clearRenderingState() {
        if let bus = renderBuses[0] { filter = Self.makeFilter(chain, format: currentOutputFormat(0), capacity: bus.capacity) }
    }

    override func render(bus: AVAudioNodeBus, frames: Int, into target: RenderBus, cycle: RenderCycle, graph: EngineGraph) {
        guard let input = graph.pull(into: self, bus: 0, frames: frames, cycle: cycle) else { return target.silence(frames) }
        let count = min(frames, input.frames)
        for channel in 0..<target.channelCount {
            let source = input.planes[min(channel, input.channelCount - 1)]
            target.planes[channel].update(from: source, count: count)
            (target.planes[channel] + count).update(repeating: 0, count: frames - count)
        }
        guard !bypass, let filter else { return }
        filter.process(target, frames: frames)
    }
}
