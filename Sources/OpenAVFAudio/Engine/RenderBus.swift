import Foundation

/// The samples one output bus of a node rendered in the current render cycle: deinterleaved
/// 32-bit float, one plane a channel, allocated once when the engine prepares (room for the
/// engine's largest cycle) and reused every cycle, so that rendering allocates nothing.
///
/// A bus is rendered once a cycle (`cycle` says which); a node feeding several inputs (an
/// output connected to several connection points) hands each the same samples.
final class RenderBus {
    /// The channels.
    let channelCount: Int
    /// The frames each plane has room for.
    let capacity: Int
    /// One plane a channel.
    let planes: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// The valid frames.
    var frames = 0
    /// The render cycle the samples are of (`UInt64.max`: none yet).
    var cycle = UInt64.max

    /// A bus of `channelCount` planes of `capacity` frames, silent.
    init(channelCount: Int, capacity: Int) {
        self.channelCount = channelCount
        self.capacity = capacity
        planes = .allocate(capacity: max(1, channelCount))
        for channel in 0..<channelCount {
            planes[channel] = .allocate(capacity: capacity)
            planes[channel].initialize(repeating: 0, count: capacity)
        }
    }

    deinit {
        for channel in 0..<channelCount { planes[channel].deallocate() }
        planes.deallocate()
    }

    /// Sets the first `count` frames of every plane to silence.
    func silence(_ count: Int) {
        for channel in 0..<channelCount { planes[channel].update(repeating: 0, count: count) }
    }
}
