import MediaEngine

/// An effect's libavfilter chain (`AudioFilterGraph`) run over a render bus in place: the planes
/// are interleaved into memory made with the filter, filtered, and spread back. Filters that
/// give out fewer frames than they took (a delay at the start) are padded with silence first.
final class EffectFilter {
    private let graph: AudioFilterGraph
    private let channelCount: Int
    private let interleaved: UnsafeMutablePointer<Float>

    /// A filter running `chain` over `channelCount` channels at `sampleRate`, for renders of up
    /// to `capacity` frames. Throws when libavfilter refuses the chain.
    init(chain: String, sampleRate: Int, channelCount: Int, capacity: Int) throws {
        graph = try AudioFilterGraph(chain: chain, sampleRate: sampleRate, channelCount: channelCount)
        self.channelCount = channelCount
        interleaved = .allocate(capacity: capacity * channelCount)
    }

    deinit {
        interleaved.deallocate()
    }

    /// Filters the first `frames` frames of `bus` in place.
    func process(_ bus: RenderBus, frames: Int) {
        let channels = channelCount
        var written = 0
        do {
            try graph.process(frames: frames, fill: { samples in
                for channel in 0..<channels {
                    let plane = bus.planes[channel]
                    for frame in 0..<frames { samples[frame * channels + channel] = plane[frame] }
                }
            }, output: { samples, count in
                let room = min(count, frames - written)
                for channel in 0..<channels {
                    let plane = bus.planes[channel] + written
                    for frame in 0..<room { plane[frame] = samples[frame * channels + channel] }
                }
                written += room
            })
        } catch {
            written = 0
        }
        guard written < frames else { return }
        // Fewer frames came out than went in: what came is the end of the render.
        for channel in 0..<channels {
            let plane = bus.planes[channel]
            (plane + frames - written).update(from: plane, count: written)
            plane.update(repeating: 0, count: frames - written)
        }
    }
}
