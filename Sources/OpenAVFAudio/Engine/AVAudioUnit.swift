import Foundation

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
    private let bypassed = MixingSettings(volume: 0)
    /// The filter the render thread runs (graph lock held).
    var filter: EffectFilter?

    /// A unit of one input and one output bus named `name`.
    init(name: String) {
        self.name = name
        super.init(inputs: 1, outputs: 1)
    }

    /// Whether the unit is bypassed: its input passes through untouched.
    var isBypassed: Bool {
        get { bypassed.volume == 1 }
        set { bypassed.volume = newValue ? 1 : 0 }
    }

    /// The libavfilter chain the unit's settings make (nil: no filtering, the input passes).
    var chain: String? { nil }

    /// Makes the filter for the current settings on the calling thread and puts it in place
    /// between two cycles.
    func chainChanged() {
        guard let engine else { return }
        let (chain, format, capacity) = engine.graph.withLock { (self.chain, currentOutputFormat(0), renderBuses[0]?.capacity) }
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
        clearRenderingState()
    }

    override func clearRenderingState() {
        if let bus = renderBuses[0] { filter = Self.makeFilter(chain, format: currentOutputFormat(0), capacity: bus.capacity) }
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
