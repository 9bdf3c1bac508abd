import Foundation
import Synchronization

/// A node that processes audio as an audio unit does: the effects (`AVAudioUnitEffect`,
/// `AVAudioUnitTimeEffect`) are its subclasses. Here a unit is a chain of libavfilter's filters
/// (`EffectFilter`), made from the unit's settings when the engine prepares and whenever a
/// setting changes, on the caller's thread, and swapped in between two render cycles.
open class AVAudioUnit: AVAudioNode, @unchecked Sendable {
    /// The unit's name.
    public let name: String
    /// Who makes the unit: FFmpeg's libavfilter.
    open var manufacturerName: String { "FFmpeg libavfilter" }
    /// The unit's version.
    open var version: Int { 1 }

    /// Whether the unit is bypassed, read by the render thread without a lock.
    private let bypassed = Atomic(false)
    /// The filter the render thread runs (graph lock held).
    private var filter: EffectFilter?
    /// Filtered frames not yet handed out: a filter may give out its frames later than it took
    /// them (a convolution's blocks, a stretch), so its output is queued and handed out a
    /// cycle's worth at a time, its delay heard as silence at the start.
    private var queue: RenderBus?
    private var queued = 0

    /// A unit of one input and one output bus named `name`.
    init(name: String) {
        self.name = name
        super.init(inputs: 1, outputs: 1)
    }

    /// Whether the unit is bypassed: its input passes through untouched.
    var isBypassed: Bool {
        get { bypassed.load(ordering: .relaxed) }
        set { bypassed.store(newValue, ordering: .relaxed) }
    }

    /// The libavfilter chain the unit's settings make (nil: no filtering, the input passes).
    var chain: String? { nil }

    /// A chain that mixes the input (`wetDryMix` percent wet) with what `wet` makes of it: `wet`
    /// takes the link `[wet]` (and may make other sources, ending each in a label) and ends in
    /// the link `[effect]`.
    static func mixing(_ wet: String, wetDryMix: Float) -> String {
        let share = Double(min(100, max(0, wetDryMix))) / 100
        return "asplit[dry][wet];\(wet);[dry][effect]amix=inputs=2:weights=\(1 - share) \(share):normalize=0"
    }

    /// Makes the filter for the current settings on the calling thread and puts it in place
    /// between two cycles.
    func chainChanged() {
        guard let engine else { return }
        // Before the engine prepares there is nothing to replace: preparing makes the filter.
        let (chain, format, prepared) = engine.graph.withLock { (self.chain, currentOutputFormat(0), renderBuses[0] != nil) }
        guard prepared else { return }
        let made = Self.makeFilter(chain, format: format)
        engine.graph.withLock { filter = made }
    }

    /// A filter running `chain` in `format`.
    private static func makeFilter(_ chain: String?, format: AVAudioFormat) -> EffectFilter? {
        chain.flatMap { try? EffectFilter(chain: $0, sampleRate: Int(format.sampleRate), channelCount: Int(format.channelCount)) }
    }

    override func prepareRendering(maximumFrames: Int) {
        super.prepareRendering(maximumFrames: maximumFrames)
        clearRenderingState()
    }

    override func clearRenderingState() {
        guard let bus = renderBuses[0] else { return }
        filter = Self.makeFilter(chain, format: currentOutputFormat(0))
        queue = RenderBus(channelCount: bus.channelCount, capacity: bus.capacity * 4)
        queued = 0
    }

    /// Renders `frames` frames through the filter: pulls the input (`inputFramesPerOutputFrame`
    /// of it for each output frame, again within the cycle under another number while one pull
    /// gives too few and the filter gives something back, at most 64 times), queues what the
    /// filter gives and hands out the cycle's frames. A bypassed unit, or one whose settings
    /// ask for no filtering, passes its input through.
    func renderFiltered(frames: Int, into target: RenderBus, cycle: RenderCycle, graph: EngineGraph, inputFramesPerOutputFrame rate: Double) {
        guard !isBypassed, let filter, let queue else {
            passThrough(graph.pull(into: self, bus: 0, frames: frames, cycle: cycle), frames: frames, into: target)
            return
        }
        var pass = 0
        repeat {
            let wanted = rate == 1 ? frames : Int((Double(frames - queued) * rate).rounded(.up)) + 1
            guard let input = graph.pull(into: self, bus: 0, frames: wanted, cycle: pass == 0 ? cycle : cycle.subCycle(pass)),
                  input.frames > 0 else { break }
            let added = filter.append(input, frames: input.frames, to: queue, at: queued)
            queued += added
            pass += 1
            if added == 0 || rate == 1 { break }
        } while queued < frames && pass < 64
        let given = min(frames, queued), missing = frames - given
        for channel in 0..<target.channelCount {
            target.planes[channel].update(repeating: 0, count: missing)
            (target.planes[channel] + missing).update(from: queue.planes[channel], count: given)
            queue.planes[channel].update(from: queue.planes[channel] + given, count: queued - given)
        }
        queued -= given
    }

    /// Copies `frames` frames of `input` into `target` as they are (silence where the input is
    /// missing or short); whether there was input.
    @discardableResult
    func passThrough(_ input: RenderBus?, frames: Int, into target: RenderBus) -> Bool {
        guard let input else {
            target.silence(frames)
            return false
        }
        let count = min(frames, input.frames)
        for channel in 0..<target.channelCount {
            target.planes[channel].update(from: input.planes[min(channel, input.channelCount - 1)], count: count)
            (target.planes[channel] + count).update(repeating: 0, count: frames - count)
        }
        return true
    }

    /// A unit's output has the format of its input's connection.
    override func inputWasConnected(bus: AVAudioNodeBus, format: AVAudioFormat) {
        if bus == 0, engine?.graph.connections(from: self, bus: 0).isEmpty ?? true { outputFormats[0] = format }
    }
}
