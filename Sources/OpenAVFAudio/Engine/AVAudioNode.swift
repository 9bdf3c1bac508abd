import Foundation
import OpenCoreMedia

/// A unit of an `AVAudioEngine`'s graph that makes, processes or takes audio: players, mixers,
/// the engine's input and output, source and sink nodes, effects. A node has input buses and
/// output buses, each with a format (the format of the connection made to it); the engine
/// connects one node's output bus to another's input bus.
///
/// Rendering pulls: the output asks its input for a cycle's frames, which asks its own inputs,
/// and so on, each bus rendered once a cycle into memory prepared beforehand (`RenderBus`). A tap
/// (`installTap(onBus:bufferSize:format:block:)`) sees what an output bus rendered.
open class AVAudioNode: NSObject, @unchecked Sendable {
    /// The engine the node is attached to, if any.
    public internal(set) weak var engine: AVAudioEngine?

    /// How many input buses the node has.
    open var numberOfInputs: Int { inputBusCount }
    /// How many output buses the node has.
    open var numberOfOutputs: Int { outputBusCount }

    /// The node's input and output bus counts.
    let inputBusCount: Int
    let outputBusCount: Int
    /// The formats of the connections made to the input buses, and the formats of the output
    /// buses (set when connected); guarded by the engine's graph lock once attached.
    var inputFormats: [AVAudioNodeBus: AVAudioFormat] = [:]
    var outputFormats: [AVAudioNodeBus: AVAudioFormat] = [:]
    /// The rendered samples of each output bus, made when the engine prepares.
    var renderBuses: [AVAudioNodeBus: RenderBus] = [:]
    /// The taps on output buses.
    var taps: [AVAudioNodeBus: NodeTap] = [:]
    /// Where bus 0's next frame is on the node's sample timeline: the engine's timeline at the
    /// node's rate, joined when the node first renders (a node connected to a running engine
    /// starts at the engine's time, so that node times mean the same in every node); and the
    /// cycle's start of the last render, on that timeline and the host clock.
    var renderedFrames: Int64 = 0
    private var lastRender: (sampleTime: Int64, hostTime: UInt64, rate: Double)?

    /// A node of `inputs` input buses and `outputs` output buses.
    init(inputs: Int, outputs: Int) {
        inputBusCount = inputs
        outputBusCount = outputs
        super.init()
    }

    deinit {
        // A tap's thread holds its tap: it ends with the node.
        for tap in taps.values { tap.stop() }
    }

    /// The format of the connection made to an input bus (the node's default when none is).
    open func inputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat {
        engine?.graph.withLock { inputFormats[bus] } ?? inputFormats[bus] ?? defaultFormat
    }

    /// The format of an output bus: the format of its connection, else the node's default.
    open func outputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat {
        engine?.graph.withLock { currentOutputFormat(bus) } ?? currentOutputFormat(bus)
    }

    /// The output format of `bus` without the graph lock (the caller holds it, or the node is
    /// not attached).
    func currentOutputFormat(_ bus: AVAudioNodeBus) -> AVAudioFormat {
        outputFormats[bus] ?? defaultFormat
    }

    /// The format a bus has before any connection: 44.1 kHz stereo, deinterleaved 32-bit float
    /// (Apple's default for players and mixers).
    var defaultFormat: AVAudioFormat { AVAudioNode.standardStereo }

    /// 44.1 kHz stereo in the standard format.
    static let standardStereo = AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2)!

    /// The name of an input bus; nil (buses have no names here).
    open func name(forInputBus bus: AVAudioNodeBus) -> String? { nil }

    /// The name of an output bus; nil (buses have no names here).
    open func name(forOutputBus bus: AVAudioNodeBus) -> String? { nil }

    /// The time of the last render cycle's first frame on the node's sample timeline (its output
    /// rate) and the host clock; nil while the engine is not rendering.
    open var lastRenderTime: AVAudioTime? {
        guard let engine, engine.isRunning else { return nil }
        return engine.graph.withLock {
            lastRender.map { AVAudioTime(hostTime: $0.hostTime, sampleTime: $0.sampleTime, atRate: $0.rate) }
        }
    }

    /// The time the node takes to process audio; 0 (no node here delays its input).
    open var latency: TimeInterval { 0 }

    /// The time from a sample leaving the node to its being heard: the output's latency for
    /// nodes that reach the output, 0 offline.
    open var outputPresentationLatency: TimeInterval { engine?.presentationLatency ?? 0 }

    /// Clears what the node holds from rendering (a mixer's resamplers, an effect's state).
    open func reset() {
        engine?.graph.withLock { clearRenderingState() } ?? clearRenderingState()
    }

    /// Forgets the state rendering built up; called with the graph lock held.
    func clearRenderingState() {}

    // MARK: Hooks for the engine

    /// The format of the connection into input bus `bus` (the caller holds the graph lock).
    func currentInputFormat(_ bus: AVAudioNodeBus) -> AVAudioFormat {
        inputFormats[bus] ?? defaultFormat
    }

    /// Called (graph lock held) when input bus `bus` was connected in `format`.
    func inputWasConnected(bus: AVAudioNodeBus, format: AVAudioFormat) {}

    /// Called when the engine stopped.
    func engineDidStop() {}

    // MARK: Mixing

    /// The volume and pan the node's mixing settings (`AVAudioMixing`) last set for every mixer
    /// it feeds; a new connection into a mixer starts from them.
    let mixingDefaults = MixingSettings()

    /// Changes the mixing defaults and the settings of every connection out of the node.
    func setMixing(_ change: (MixingSettings) -> Void) {
        change(mixingDefaults)
        guard let engine else { return }
        engine.graph.withLock {
            for connection in engine.graph.connections(from: self) { change(connection.mixing.current) }
        }
    }

    // MARK: Taps

    /// Sees what an output bus renders: `block` is called on a thread of the tap's own with
    /// `bufferSize` frames at a time in the bus's format and the time of their first frame. One
    /// tap a bus: installing a second stops the process, as Apple's engine does.
    open func installTap(onBus bus: AVAudioNodeBus, bufferSize: AVAudioFrameCount, format: AVAudioFormat?,
                         block tapBlock: @escaping AVAudioNodeTapBlock) {
        precondition(bus >= 0 && bus < outputBusCount, "AVAudioNode.installTap: bus \(bus) is not an output bus of the node")
        let install = { [self] in
            precondition(taps[bus] == nil, "AVAudioNode.installTap: required condition is false: nullptr == Tap() (bus \(bus) has a tap)")
            let busFormat = currentOutputFormat(bus)
            if let format {
                precondition(format.sampleRate == busFormat.sampleRate && format.channelCount == busFormat.channelCount,
                             "AVAudioNode.installTap: the format \(format) is not the bus's format \(busFormat)")
            }
            let tap = NodeTap(format: AVAudioFormat(standardFormatWithSampleRate: busFormat.sampleRate, channels: busFormat.channelCount)!,
                              bufferSize: max(1, Int(bufferSize)), block: tapBlock)
            taps[bus] = tap
        }
        if let engine { engine.graph.withLock(install) } else { install() }
    }

    /// Removes the tap on an output bus, if there is one; its block is not called again.
    open func removeTap(onBus bus: AVAudioNodeBus) {
        let removed = engine?.graph.withLock { taps.removeValue(forKey: bus) } ?? taps.removeValue(forKey: bus)
        removed?.stop()
    }

    // MARK: Rendering (the graph lock held)

    /// Makes the output buses' memory for cycles of up to `maximumFrames` frames.
    func prepareRendering(maximumFrames: Int) {
        for bus in 0..<outputBusCount {
            let channels = Int(currentOutputFormat(bus).channelCount)
            if let existing = renderBuses[bus], existing.channelCount == channels, existing.capacity >= maximumFrames { continue }
            renderBuses[bus] = RenderBus(channelCount: channels, capacity: maximumFrames)
        }
    }

    /// Starts the node's timeline over (the engine stopped or was reset).
    func resetTimeline() {
        renderedFrames = 0
        lastRender = nil
        for bus in renderBuses.values { bus.cycle = .max }
    }

    /// Marks the start of a render in `cycle` at `rate`: the node joins the engine's timeline the
    /// first time it renders after its timeline started over (`renderedFrames` is where the
    /// render starts), and the start is its last render time.
    final func beginRender(_ cycle: RenderCycle, rate: Double) {
        if lastRender == nil { renderedFrames = cycle.sampleTime(atRate: rate) }
        lastRender = (renderedFrames, cycle.hostTime, rate)
    }

    /// Output bus `bus`'s samples for `cycle`: `frames` frames at the bus's rate, rendered once a
    /// cycle (`render(bus:frames:into:cycle:graph:)`) and handed to the bus's tap.
    final func pullOutput(bus: AVAudioNodeBus, frames: Int, cycle: RenderCycle, graph: EngineGraph) -> RenderBus? {
        guard let target = renderBuses[bus] else { return nil }
        if target.cycle == cycle.id { return target }
        let count = min(frames, target.capacity)
        target.cycle = cycle.id
        target.frames = count
        if bus == 0 { beginRender(cycle, rate: currentOutputFormat(0).sampleRate) }
        render(bus: bus, frames: count, into: target, cycle: cycle, graph: graph)
        taps[bus]?.append(target, frames: count, sampleTime: lastRender?.sampleTime ?? 0,
                          hostTime: cycle.hostTime, wait: cycle.isOffline)
        if bus == 0 { renderedFrames += Int64(count) }
        return target
    }

    /// Renders `frames` frames of output bus `bus` into `target` (the node's work); the default
    /// is silence.
    func render(bus: AVAudioNodeBus, frames: Int, into target: RenderBus, cycle: RenderCycle, graph: EngineGraph) {
        target.silence(frames)
    }
}
