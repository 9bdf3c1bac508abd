import MediaEngine

/// A unit's libavfilter chain (`AudioFilterGraph`) run over render buses: the planes are
/// interleaved into the filter's input, filtered, and spread back out onto the end of the
/// unit's queue.
final class EffectFilter {
    private let graph: AudioFilterGraph
    private let channelCount: Int

    /// A filter running `chain` over `channelCount` channels at `sampleRate`. Throws when
    /// libavfilter refuses the chain.
    init(chain: String, sampleRate: Int, channelCount: Int) throws {
        graph = try AudioFilterGraph(chain: chain, sampleRate: sampleRate, channelCount: channelCount)
        self.channelCount = channelCount
    }

    /// Filters `frames` frames of `input` and writes what comes out to `queue` from frame
    /// `offset` on, as far as its room; how many frames were written.
    func append(_ input: RenderBus, frames: Int, to queue: RenderBus, at offset: Int) -> Int {
        run(input, frames: frames, into: queue, at: offset, room: queue.capacity - offset)
    }

    private func run(_ input: RenderBus, frames: Int, into output: RenderBus, at offset: Int, room: Int) -> Int {
        let channels = channelCount
        var written = 0
        do {
            try graph.process(frames: frames, fill: { samples in
                for channel in 0..<channels {
                    let plane = input.planes[channel]
                    for frame in 0..<frames { samples[frame * channels + channel] = plane[frame] }
                }
            }, output: { samples, count in
                let taken = min(count, room - written)
                for channel in 0..<channels {
                    let plane = output.planes[channel] + offset + written
                    for frame in 0..<taken { plane[frame] = samples[frame * channels + channel] }
                }
                written += taken
            })
        } catch {
            return 0
        }
        return written
    }
}
