import CaptureDevices
import Display
import Foundation
import HostSystem
import Logging

/// A running engine's sound: a real-time thread (`OpenAVFAudio.AVAudioEngine`, `SCHED_FIFO`
/// where the process may, as capture's device threads) that renders the engine a cycle at a
/// time and writes each cycle to one `PulseAudioOutput` stream, whenever the stream has room for
/// a cycle. The stream holds 100 ms (or four cycles, if more), enough for a sound server that a
/// busy machine starves to catch up without a gap; the thread's real-time priority keeps it fed. The stream sets the pace: the thread waits on the sound server between writes.
/// Interleaving into the stream's layout uses memory made once. The thread never waits for a
/// node: a node that is late (a file not read far enough) is silence, not a gap.
final class EngineOutput: @unchecked Sendable {
    /// The longest the sound server gets to answer.
    private static let timeout: UInt64 = 2_000_000_000
    /// The least the stream holds ahead of what is heard: 100 ms, as `AVAudioPlayer`'s. A sound
    /// server starved by a busy machine renders late and then takes more at once; with 40 ms
    /// held a clean-clone run with two busy cores heard a 10 ms gap.
    private static let buffered: UInt64 = 100_000_000
    /// How long the thread waits for the server before it looks at the stop request again. While
    /// playing the server asks for sound far more often than this, so a stop is seen at its next
    /// request; waking on a short timeout instead would cost hundreds of wake-ups a second.
    private static let iteration: UInt64 = 50_000_000

    private let thread: DeviceThread
    private let sampleRate: Double
    private let shared = Locked((latency: 0.0, underruns: 0))

    /// Starts playing `engine` in `format` (its rate and channel count), `cycleFrames` frames a
    /// cycle, to the default sink of `server` (nil: the default server). Throws
    /// `SoundServerError` when no stream can be opened.
    init(engine: AVAudioEngine, server: String?, format: AVAudioFormat, cycleFrames: Int) throws {
        let channels = Int(format.channelCount)
        let output = try PulseAudioOutput(server: server, sink: nil, sampleRate: Int(format.sampleRate), channelCount: channels,
                                          timeout: Self.timeout, name: "OpenAVFoundation AVAudioEngine",
                                          buffered: max(Self.buffered, UInt64(Double(4 * max(64, cycleFrames)) / format.sampleRate * 1e9)))
        sampleRate = format.sampleRate
        let cycle = max(64, min(AVAudioEngine.maximumRealTimeFrames, cycleFrames))
        nonisolated(unsafe) let stream = output  // used by the thread alone from here on
        let shared = shared
        let rate = sampleRate
        thread = DeviceThread.start(name: "OpenAVFAudio.AVAudioEngine") { [weak engine] thread in
            Self.run(stream, engine: engine, channels: channels, cycle: cycle, rate: rate, thread: thread, shared: shared)
        }
    }

    /// The time from a write to its being heard: what the stream holds, as last measured.
    var latency: TimeInterval { shared.withLock { $0.latency } }

    /// How many times the sound server ran out of what the engine wrote while it played (each
    /// a gap the listener heard).
    var underruns: Int { shared.withLock { $0.underruns } }

    /// Stops the thread and closes the stream (what it holds is not played); reports the
    /// under-runs there were in the log.
    func stop() {
        thread.stop()
        let underruns = underruns
        if underruns > 0 {
            Self.logger.warning("AVAudioEngine: the sound server ran out of sound \(underruns) times while the engine played")
        }
    }

    private static let logger = Logger(label: "OpenAVFAudio.AVAudioEngine")

    private static func run(_ output: PulseAudioOutput, engine: AVAudioEngine?, channels: Int, cycle: Int, rate: Double,
                            thread: DeviceThread, shared: Locked<(latency: Double, underruns: Int)>) {
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: cycle * channels)
        defer { scratch.deallocate() }
        var written: Int64 = 0
        var corked = true
        while !thread.isStopRequested {
            guard output.iterate(timeout: iteration), let engine else {
                engine?.outputFailed()
                return
            }
            let underflows = output.underflows
            if underflows != shared.withLock({ $0.underruns }) { shared.withLock { $0.underruns = underflows } }
            var room = output.writableFrames
            while room >= cycle || (room > 0 && corked) {
                let frames = min(room, cycle)
                let unheard = Double(max(0, written - output.playedFrames)) / rate
                shared.withLock { $0.latency = unheard }
                engine.renderCycle(frames: frames, hostTime: HostClock.now + UInt64(unheard * 1e9)) { rendered in
                    for channel in 0..<channels {
                        let plane = rendered.flatMap { channel < $0.channelCount ? $0.planes[channel] : nil }
                        for frame in 0..<frames { scratch[frame * channels + channel] = plane?[frame] ?? 0 }
                    }
                }
                guard output.write(scratch, frames: frames) else { break }
                written += Int64(frames)
                room -= frames
            }
            if corked, written > 0 {
                output.setCorked(false, timeout: timeout)
                corked = false
            }
        }
    }
}
