import Foundation
import HostSystem

/// A tap on a node's output bus: the render thread copies each cycle's frames into buffers of
/// `bufferSize` frames taken from a small pool made up front, and a thread of the tap's own calls
/// the block with each full one, so that the render thread neither allocates nor waits for the
/// block. When the block falls so far behind that no buffer is free, a buffer's worth is dropped
/// rather than the render thread waiting; offline (manual rendering) it waits instead, so that a
/// tap sees every frame, and when the block does not give a buffer back in 100 ms (it may be
/// waiting for the graph the render holds) new ones are made for the rest of the cycle.
final class NodeTap: @unchecked Sendable {
    /// The buffers in the pool.
    private static let poolSize = 8
    /// How long an offline render waits for the block to give a buffer back before it makes one.
    private static let offlineWait = DispatchTimeInterval.milliseconds(100)

    private struct State {
        /// Buffers free to fill.
        var free: [AVAudioPCMBuffer]
        /// Full buffers waiting for the block, with the times of their first frames.
        var full: [(buffer: AVAudioPCMBuffer, sampleTime: Int64, hostTime: UInt64)] = []
        var stopped = false
    }

    private let format: AVAudioFormat
    private let bufferSize: Int
    private let block: AVAudioNodeTapBlock
    private let state: Locked<State>
    private let ready = DispatchSemaphore(value: 0)
    /// Signalled each time a buffer goes back to the pool.
    private let freed = DispatchSemaphore(value: 0)
    /// The buffer being filled on the render thread, and where its first frame is.
    private var filling: AVAudioPCMBuffer?
    private var fillingStart: (sampleTime: Int64, hostTime: UInt64) = (0, 0)

    /// A tap delivering `bufferSize` frames of `format` (deinterleaved float) to `block`.
    init(format: AVAudioFormat, bufferSize: Int, block: @escaping AVAudioNodeTapBlock) {
        self.format = format
        self.bufferSize = bufferSize
        self.block = block
        state = Locked(State(free: (0..<Self.poolSize).map { _ in
            AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(bufferSize))!
        }))
        let thread = Thread { [self] in deliver() }
        thread.name = "OpenAVFAudio.AVAudioNode tap"
        thread.start()
    }

    /// Stops delivering; the thread ends after the block call under way.
    func stop() {
        state.withLock { $0.stopped = true }
        ready.signal()
        freed.signal()
    }

    /// Copies `frames` frames of `bus` (render thread), whose first frame is at `sampleTime` on
    /// the node's timeline and `hostTime` on the host clock; `wait` (offline) waits for a free
    /// buffer instead of dropping.
    func append(_ bus: RenderBus, frames: Int, sampleTime: Int64, hostTime: UInt64, wait: Bool) {
        var offset = 0, patient = true
        let rate = format.sampleRate
        while offset < frames {
            if filling == nil {
                filling = state.withLock { state in
                    if state.free.isEmpty { return nil }
                    return state.free.removeLast()
                }
                if filling == nil, wait, !state.withLock({ $0.stopped }) {
                    // Offline the render waits for the block, but not for ever: a block that
                    // calls into the graph (removing its own tap, say) waits for the lock this
                    // render holds, so after a while the pool grows instead, for the rest of
                    // this cycle.
                    if !patient || freed.wait(timeout: .now() + Self.offlineWait) == .timedOut {
                        patient = false
                        filling = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(bufferSize))
                    }
                    if filling == nil { continue }
                }
                let start = sampleTime + Int64(offset)
                fillingStart = (start, hostTime + UInt64(Double(offset) / rate * 1e9))
            }
            guard let buffer = filling, let planes = buffer.floatChannelData else {
                // No free buffer: this buffer's worth is dropped.
                offset += bufferSize
                continue
            }
            let length = Int(buffer.frameLength)
            let count = min(frames - offset, bufferSize - length)
            for channel in 0..<min(bus.channelCount, Int(format.channelCount)) {
                (planes[channel] + length).update(from: bus.planes[channel] + offset, count: count)
            }
            buffer.frameLength = AVAudioFrameCount(length + count)
            offset += count
            if Int(buffer.frameLength) == bufferSize {
                let start = fillingStart
                state.withLock { $0.full.append((buffer, start.sampleTime, start.hostTime)) }
                filling = nil
                ready.signal()
            }
        }
    }

    /// The tap's thread: calls the block with each full buffer, then puts the buffer back in the
    /// pool, or a new one in its place when the block kept it.
    private func deliver() {
        while true {
            ready.wait()
            while true {
                if state.withLock({ $0.stopped }) { return }
                guard var item = state.withLock({ $0.full.isEmpty ? nil : $0.full.removeFirst() }) else { break }
                block(item.buffer, AVAudioTime(hostTime: item.hostTime, sampleTime: item.sampleTime, atRate: format.sampleRate))
                if isKnownUniquelyReferenced(&item.buffer) {
                    item.buffer.frameLength = 0
                } else {
                    item.buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(bufferSize))!
                }
                let buffer = item.buffer
                state.withLock { $0.free.append(buffer) }
                freed.signal()
            }
        }
    }
}
