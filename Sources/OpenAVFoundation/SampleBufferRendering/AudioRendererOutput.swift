import Display
import Foundation
import HostSystem
import MediaEngine
import OpenCoreMedia

/// The sound of an `AVSampleBufferAudioRenderer`: a thread of its own
/// (`OpenAVFoundation.AVSampleBufferAudioRenderer`) writes the enqueued samples (48 kHz stereo
/// float, converted as they were enqueued) to one `PulseAudioOutput` stream so that each is
/// heard when the timebase reaches its presentation time.
///
/// Every write starts with the sample due when the stream will play it (the timebase's time now
/// plus what the stream holds unheard, at the timebase's rate). Samples already late are
/// dropped, silence fills the time before one that is early. The sound device's clock drives
/// the timebase (for the synchronizer's first audio renderer): while sound waits to be played
/// and the stream plays ahead of or behind the timebase by a millisecond, the timebase is
/// nudged to what is heard, so a device whose clock runs fast or slow against the host's is
/// followed without a gap; once the sound enqueued is all written, the timebase runs on by
/// itself. Other renderers, and a drift past 20 ms (a jump of the timebase's time or rate), flush
/// what the stream holds and start over from what is due. At rates other than 1 the samples are
/// stretched by the engine's `AudioFilterGraph` (the pitch kept, or following the rate); rate 0
/// pauses the stream, keeping what it holds; negative rates are not heard.
final class AudioRendererOutput: @unchecked Sendable {
    /// The stream's format.
    static let sampleRate = 48_000
    /// How far the stream may drift from the timebase before it is put back.
    static let tolerance = 0.02
    /// How far the stream may drift from the timebase before a stream that drives it moves it.
    static let nudgeThreshold = 0.001
    /// The longest the sound server gets to answer.
    private static let timeout: UInt64 = 2_000_000_000
    /// How long the thread waits for the server before it looks again.
    private static let iteration: UInt64 = 5_000_000

    /// Samples waiting to be written: from `start` (seconds of presentation time), interleaved
    /// stereo, of which `consumed` frames are done with.
    private struct Chunk {
        var start: Double
        var samples: [Float]
        var consumed = 0
        var frames: Int { samples.count / 2 }
        var end: Double { start + Double(frames) / Double(AudioRendererOutput.sampleRate) }
    }

    /// What the renderer and the thread share.
    private struct Shared {
        var chunks: [Chunk] = []
        var pendingFrames = 0
        var volume: Float = 1
        var isMuted = false
        var keepsPitch = true
        var flushRequested = false
        var stopRequested = false
        var timebase: CMTimebase
        var drivesTimebase = false
        var failure: String?
    }

    private let shared: Locked<Shared>
    private let done = DispatchSemaphore(value: 0)
    /// Called on the thread after each look at the stream (for the renderer's readiness).
    private let served: @Sendable () -> Void

    /// Starts the thread, playing to `sink` of `server` (nil: the defaults) in time with
    /// `timebase`; `served` is called on it as it goes. Throws `SoundServerError` when no
    /// stream can be opened.
    init(server: String?, sink: String?, timebase: CMTimebase, served: @escaping @Sendable () -> Void) throws {
        let output = try PulseAudioOutput(server: server, sink: sink, sampleRate: Self.sampleRate, channelCount: 2, timeout: Self.timeout,
                                          name: "OpenAVFoundation AVSampleBufferAudioRenderer")
        shared = Locked(Shared(timebase: timebase))
        self.served = served
        nonisolated(unsafe) let stream = output  // used by the thread alone from here on
        let thread = Thread { [self] in
            run(stream)
            done.signal()
        }
        thread.name = "OpenAVFoundation.AVSampleBufferAudioRenderer"
        thread.start()
    }

    /// Stops the thread and waits until it has (the stream closed).
    func stop() {
        shared.withLock { $0.stopRequested = true }
        done.wait()
        done.signal()
    }

    /// Adds samples (48 kHz interleaved stereo) heard from presentation time `start`.
    func append(_ samples: [Float], at start: CMTime) {
        guard !samples.isEmpty, start.isNumeric else { return }
        shared.withLock {
            $0.chunks.append(Chunk(start: start.seconds, samples: samples))
            $0.pendingFrames += samples.count / 2
        }
    }

    /// Drops the samples waiting, those from `time` on when it is numeric (all of them
    /// otherwise), and what the stream holds unheard.
    func flush(from time: CMTime = .invalid) {
        shared.withLock { state in
            if time.isNumeric {
                let cut = time.seconds
                state.chunks = state.chunks.compactMap { chunk in
                    guard chunk.start < cut else { return nil }
                    var kept = chunk
                    let frames = min(chunk.frames, Int(((cut - chunk.start) * Double(Self.sampleRate)).rounded(.up)))
                    kept.samples.removeLast((chunk.frames - frames) * 2)
                    return kept
                }
            } else {
                state.chunks = []
            }
            state.pendingFrames = state.chunks.reduce(0) { $0 + $1.frames - $1.consumed }
            state.flushRequested = true
        }
    }

    /// How many seconds of samples wait to be written.
    var pendingSeconds: Double { Double(shared.withLock { $0.pendingFrames }) / Double(Self.sampleRate) }

    /// The volume the samples are written at, and whether they are silenced.
    func setLevel(volume: Float, muted: Bool) {
        shared.withLock {
            $0.volume = volume
            $0.isMuted = muted
        }
    }

    /// Whether sound played at other rates than 1 keeps its pitch (else it follows the rate).
    func setKeepsPitch(_ keepsPitch: Bool) {
        shared.withLock { $0.keepsPitch = keepsPitch }
    }

    /// Follows another timebase (a synchronizer's), driving it by the sound device's clock when
    /// `drives`.
    func follow(_ timebase: CMTimebase, drives: Bool) {
        shared.withLock {
            $0.timebase = timebase
            $0.drivesTimebase = drives
        }
    }

    /// The sound server's failure that ended the thread, if one did.
    var failure: String? { shared.withLock { $0.failure } }

    // MARK: The thread

    /// The stretching of a rate other than 1, and how many frames it took and gave.
    private struct Stretch {
        let rate: Double
        let keepsPitch: Bool
        let filter: AudioFilterGraph
        var taken = 0
        var given = 0

        /// A new stretching, or nil when FFmpeg cannot make its filter.
        init?(rate: Double, keepsPitch: Bool) {
            guard let filter = try? AudioFilterGraph(rate: rate, keepsPitch: keepsPitch, sampleRate: AudioRendererOutput.sampleRate, channelCount: 2)
            else { return nil }
            (self.rate, self.keepsPitch, self.filter) = (rate, keepsPitch, filter)
        }

        /// Seconds of presentation time taken and not yet given out.
        var held: Double { max(0, Double(taken) - Double(given) * rate) / Double(AudioRendererOutput.sampleRate) }
    }

    private func run(_ output: PulseAudioOutput) {
        var written: Int64 = 0
        // The presentation time of the next sample taken from the chunks.
        var next: Double?
        var corked = true
        var scratch: [Float] = []
        var stretched: [Float] = []
        var stretch: Stretch?
        while true {
            guard output.iterate(timeout: Self.iteration) else {
                shared.withLock { $0.failure = "the sound server went away: \(output.errorText)" }
                return
            }
            let (stop, flush, timebase, keepsPitch, drives, fed) = shared.withLock { state in
                defer { state.flushRequested = false }
                return (state.stopRequested, state.flushRequested, state.timebase, state.keepsPitch, state.drivesTimebase,
                        state.pendingFrames > 0)
            }
            if stop { return }
            if flush {
                output.flush(timeout: Self.timeout)
                written = output.playedFrames
                next = nil
                stretch = nil
            }
            defer { served() }
            let (time, rate) = timebase.timeAndRate
            guard rate > 0, time.isNumeric else {
                if !corked { output.setCorked(true, timeout: Self.timeout) }
                corked = true
                continue
            }
            if rate == 1 {
                stretch = nil
            } else if stretch?.rate != rate || stretch?.keepsPitch != keepsPitch {
                // A new rate: what the stream holds was stretched for the old one, and the
                // drift check below starts over.
                stretch = Stretch(rate: rate, keepsPitch: keepsPitch)
                if stretch == nil { continue }
            }
            let unheard = max(0, written - output.playedFrames)
            let heardAt = time.seconds + Double(unheard) * rate / Double(Self.sampleRate)
            // How far ahead of the timebase the stream plays: the time of the next sample written
            // (what the stretching holds is before it) against when the timebase reaches it.
            let drift = next.map { $0 - (stretch?.held ?? 0) - heardAt }
            if let drift, abs(drift) <= Self.tolerance {
                // Only while sound waits to be played: a stream that ran out is not behind.
                if drives, fed, abs(drift) > Self.nudgeThreshold {
                    timebase.nudge(by: CMTime(seconds: drift, preferredTimescale: 1_000_000_000))
                }
            } else if drift != nil {
                // The timebase jumped (or the stream drifted): start over from what is due.
                output.flush(timeout: Self.timeout)
                written = output.playedFrames
                next = time.seconds
                if stretch != nil { stretch = Stretch(rate: rate, keepsPitch: keepsPitch) }
            } else if next == nil {
                next = heardAt
            }
            let room = output.writableFrames
            guard room > 0, let start = next else { continue }
            // The samples of `room` frames of the stream: as many, or `rate` times as many to stretch.
            let frames = stretch.map { max(1, Int(Double(room) * $0.rate)) } ?? room
            if scratch.count < frames * 2 { scratch = [Float](repeating: 0, count: frames * 2) }
            let filled = fill(&scratch, frames: frames, from: start)
            guard filled > 0 else { continue }
            next = start + Double(filled) / Double(Self.sampleRate)
            var playing = scratch  // shared, not copied: neither is changed until the next turn
            var count = filled
            if var stretching = stretch {
                stretched.removeAll(keepingCapacity: true)
                let fed: Bool = scratch.withUnsafeBufferPointer { samples in
                    (try? stretching.filter.process(samples.baseAddress!, frames: filled) { piece, pieceFrames in
                        stretched.append(contentsOf: UnsafeBufferPointer(start: piece, count: pieceFrames * 2))
                    }) != nil
                }
                guard fed else { continue }
                stretching.taken += filled
                stretching.given += stretched.count / 2
                stretch = stretching
                playing = stretched
                count = stretched.count / 2
            }
            guard count > 0 else { continue }
            guard playing.withUnsafeBufferPointer({ output.write($0.baseAddress!, frames: count) }) else { continue }
            written += Int64(count)
            if corked {
                output.setCorked(false, timeout: Self.timeout)
                corked = false
            }
        }
    }

    /// Fills `buffer` with up to `frames` frames due from `start` seconds on: silence before a
    /// chunk that is early, nothing of what is late; how many frames (0 when nothing waits).
    private func fill(_ buffer: inout [Float], frames: Int, from start: Double) -> Int {
        let rate = Double(Self.sampleRate)
        return shared.withLock { state in
            let gain: Float = state.isMuted ? 0 : state.volume
            var filled = 0
            while filled < frames, var chunk = state.chunks.first {
                let slot = start + Double(filled) / rate
                let chunkTime = chunk.start + Double(chunk.consumed) / rate
                let offset = Int(((chunkTime - slot) * rate).rounded())
                if offset < 0 {
                    // Late: skip what is past.
                    let skipped = min(-offset, chunk.frames - chunk.consumed)
                    chunk.consumed += skipped
                    state.pendingFrames -= skipped
                } else if offset > 0 {
                    let silence = min(offset, frames - filled)
                    for index in (filled * 2)..<((filled + silence) * 2) { buffer[index] = 0 }
                    filled += silence
                    continue
                } else {
                    let count = min(frames - filled, chunk.frames - chunk.consumed)
                    for index in 0..<(count * 2) { buffer[filled * 2 + index] = chunk.samples[chunk.consumed * 2 + index] * gain }
                    chunk.consumed += count
                    filled += count
                    state.pendingFrames -= count
                }
                if chunk.consumed >= chunk.frames { state.chunks.removeFirst() } else { state.chunks[0] = chunk }
            }
            return filled
        }
    }
}
