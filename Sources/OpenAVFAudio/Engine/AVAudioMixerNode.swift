import Foundation

/// Mixes any number of inputs into one output: each input at its connection's volume and pan
/// (`AVAudioMixing`), converted to the output's sample rate (libswresample) and channel count,
/// summed, then scaled by `outputVolume`.
///
/// Channels: a mono input is heard on every output channel; a stereo output takes a stereo input
/// as it is; otherwise input channel *n* goes to output channel *n*. Pan is a balance on a
/// stereo output: the far side is lowered in proportion (`AVAudioStereoMixing`).
open class AVAudioMixerNode: AVAudioNode, AVAudioMixing, @unchecked Sendable {
    /// The most inputs a mixer takes.
    static let inputBuses = 1024

    /// The level of the mix, 0 to 1.
    open var outputVolume: Float {
        get { output.volume }
        set { output.volume = newValue }
    }

    private let output = MixingSettings()
    /// The inputs whose rate is not the output's, by bus.
    private var resamplers: [AVAudioNodeBus: ResamplingInput] = [:]

    /// A mixer with no inputs.
    public init() {
        super.init(inputs: Self.inputBuses, outputs: 1)
    }

    /// A mixer's output format before it is connected: the engine's output format.
    override var defaultFormat: AVAudioFormat { engine?.outputFormat ?? AVAudioNode.standardStereo }

    /// The lowest input bus nothing is connected to.
    open var nextAvailableInputBus: AVAudioNodeBus {
        engine?.graph.withLock { nextAvailableInputBusLocked } ?? 0
    }

    /// `nextAvailableInputBus` with the graph lock held.
    var nextAvailableInputBusLocked: AVAudioNodeBus {
        guard let graph = engine?.graph else { return 0 }
        let used = Set(graph.connections(into: self).map(\.destinationBus))
        return (0..<Self.inputBuses).first { !used.contains($0) } ?? Self.inputBuses
    }

    override func clearRenderingState() {
        resamplers.removeAll()
    }

    override func render(bus: AVAudioNodeBus, frames: Int, into target: RenderBus, cycle: RenderCycle, graph: EngineGraph) {
        target.silence(frames)
        let rate = currentOutputFormat(0).sampleRate
        for connection in graph.connections(into: self) {
            let input: RenderBus?
            if connection.format.sampleRate == rate {
                // Only when there is one: removing from an empty dictionary allocates its storage.
                if resamplers[connection.destinationBus] != nil { resamplers[connection.destinationBus] = nil }
                input = graph.pull(into: self, bus: connection.destinationBus, frames: frames, cycle: cycle)
            } else {
                let resampler = resamplers[connection.destinationBus].flatMap { $0.matches(connection.format, outputRate: rate) ? $0 : nil }
                    ?? ResamplingInput(format: connection.format, outputRate: rate, capacity: target.capacity)
                resamplers[connection.destinationBus] = resampler
                input = resampler.pull(frames: frames) { count, pass in
                    graph.pull(into: self, bus: connection.destinationBus, frames: count, cycle: pass == 0 ? cycle : cycle.subCycle(pass))
                }
            }
            guard let input else { continue }
            let settings = connection.mixing.current
            Self.add(input, frames: frames, to: target, volume: settings.volume, pan: settings.pan)
        }
        let level = output.volume
        if level != 1 {
            for channel in 0..<target.channelCount {
                let plane = target.planes[channel]
                for frame in 0..<frames { plane[frame] *= level }
            }
        }
    }

    /// Adds `frames` frames of `input` to `target` at `volume` and `pan`.
    private static func add(_ input: RenderBus, frames: Int, to target: RenderBus, volume: Float, pan: Float) {
        let stereo = target.channelCount == 2
        for channel in 0..<target.channelCount {
            let source: Int
            if input.channelCount == 1 {
                source = 0
            } else if channel < input.channelCount {
                source = channel
            } else {
                continue
            }
            var gain = volume
            if stereo { gain *= channel == 0 ? min(1, 1 - pan) : min(1, 1 + pan) }
            guard gain != 0 else { continue }
            let from = input.planes[source], to = target.planes[channel]
            for frame in 0..<min(frames, input.frames) { to[frame] += from[frame] * gain }
        }
    }
}
