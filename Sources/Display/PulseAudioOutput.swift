import CPulseAudio
import HostSystem

/// A playback stream to a PulseAudio sink (PipeWire's `pipewire-pulse` serves the same API):
/// interleaved 32-bit float PCM in, the position of the sample being heard now out, which is the
/// player's master clock. Made and used by one thread (a player's sound thread), on libpulse's
/// non-threaded main loop: every wait has a deadline, so a missing or hung sound server costs a
/// timeout, never a hang.
package final class PulseAudioOutput {
    /// The sample rate and channel count of the stream.
    package let sampleRate: Int
    package let channelCount: Int
    /// The sink's name, as the server knows it.
    package let sinkName: String

    private let connection: PulseAudioConnection
    private let stream: OpaquePointer
    private var corked = true
    /// The drain asked for by `startDraining()`, until the output goes away.
    private var drainOperation: OpaquePointer?
    /// How many times the server ran out of sound to play, counted by libpulse's underflow
    /// callback (on this thread, in `iterate`).
    private let underflowCount = UnsafeMutablePointer<Int>.allocate(capacity: 1)

    /// How much sound is buffered ahead of what is heard: 100 ms, enough to ride out a busy
    /// machine, little enough for a pause, a volume change or a seek to be heard at once.
    package static let bufferedNanoseconds: UInt64 = 100_000_000

    /// Connects to `server` (nil: libpulse's default) and opens a stream named `name` (as sound
    /// mixers list it) to `sink` (nil: the server's default sink), corked, within `timeout`
    /// nanoseconds, buffering `buffered` nanoseconds ahead of what is heard.
    package init(server: String?, sink: String?, sampleRate: Int, channelCount: Int, timeout: UInt64,
                 name: String = "OpenAVFoundation playback", buffered: UInt64 = bufferedNanoseconds) throws(SoundServerError) {
        let deadline = HostClock.now + timeout
        let connection = try PulseAudioConnection(server: server, clientName: "OpenAVFoundation", timeout: timeout)
        var spec = pa_sample_spec(format: cpulseaudio_sample_float32ne(), rate: UInt32(sampleRate), channels: UInt8(channelCount))
        guard pa_sample_spec_valid(&spec) != 0, let stream = pa_stream_new(connection.context, name, &spec, nil) else {
            throw SoundServerError(.unsupportedFormat, "PulseAudio cannot play \(sampleRate) Hz, \(channelCount) channels")
        }
        self.connection = connection
        self.stream = stream
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        let bytes = UInt32(HostClock.multiplyDivide(buffered, UInt64(sampleRate * channelCount * 4), HostClock.nanosecondsPerSecond))
        var attributes = pa_buffer_attr(maxlength: UInt32.max, tlength: bytes, prebuf: UInt32.max, minreq: UInt32.max, fragsize: UInt32.max)
        let flags = pa_stream_flags_t(PA_STREAM_START_CORKED.rawValue | PA_STREAM_INTERPOLATE_TIMING.rawValue
            | PA_STREAM_AUTO_TIMING_UPDATE.rawValue | PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_NOT_MONOTONIC.rawValue)
        guard pa_stream_connect_playback(stream, sink, &attributes, flags, nil, nil) >= 0,
              connection.waitUntilReady(stream, untilNanoseconds: deadline)
        else {
            let missing = pa_context_errno(connection.context) == Int32(PA_ERR_NOENTITY.rawValue)
            let text = connection.errorText
            pa_stream_unref(stream)
            throw SoundServerError(missing ? .disconnected : .unavailable, "cannot play to PulseAudio sink \(sink ?? "(default)"): \(text)")
        }
        sinkName = pa_stream_get_device_name(stream).map { String(cString: $0) } ?? sink ?? ""
        underflowCount.initialize(to: 0)
        pa_stream_set_underflow_callback(stream, { _, count in count?.assumingMemoryBound(to: Int.self).pointee += 1 }, underflowCount)
    }

    deinit {
        if let drainOperation { pa_operation_unref(drainOperation) }
        pa_stream_set_underflow_callback(stream, nil, nil)
        pa_stream_disconnect(stream)
        pa_stream_unref(stream)
        underflowCount.deallocate()
    }

    /// How many times the server ran out of what was written while the stream played (an
    /// under-run: a gap the listener hears), as libpulse has told since the stream opened.
    package var underflows: Int { underflowCount.pointee }

    /// Whether the server and the stream are still up.
    package var isGood: Bool { connection.isGood && pa_stream_get_state(stream) == PA_STREAM_READY }

    /// libpulse's text for the last error.
    package var errorText: String { connection.errorText }

    /// Handles what the server sent, waiting at most `timeout` nanoseconds for it; false when the
    /// connection failed.
    package func iterate(timeout: UInt64) -> Bool {
        connection.iterate(timeout: timeout) && isGood
    }

    /// How many frames the stream takes now without growing past its buffer.
    package var writableFrames: Int {
        let bytes = pa_stream_writable_size(stream)
        return bytes == Int.max || bytes < 0 ? 0 : bytes / (4 * channelCount)
    }

    /// Queues `frames` interleaved float frames; false when the server refused them.
    package func write(_ samples: UnsafePointer<Float>, frames: Int) -> Bool {
        pa_stream_write(stream, samples, frames * 4 * channelCount, nil, 0, PA_SEEK_RELATIVE) >= 0
    }

    /// Pauses (true) or resumes what is heard, keeping what is buffered; waits at most
    /// `timeout` nanoseconds for the server to confirm. Resuming first makes an idle sink that
    /// renders far ahead start over (`restartIdleSink`), so that the sound is heard at once.
    package func setCorked(_ value: Bool, timeout: UInt64) {
        guard value != corked else { return }
        corked = value
        let deadline = HostClock.now + timeout
        if !value { restartIdleSink(untilNanoseconds: deadline) }
        _ = connection.wait(for: pa_stream_cork(stream, value ? 1 : 0, nil, nil), untilNanoseconds: deadline)
    }

    /// How far ahead of what is heard a sink may render before a stream starting on it makes
    /// it start over.
    package static let lateSinkNanoseconds: UInt64 = 3 * bufferedNanoseconds

    /// The sink's own latency (how far ahead of what is heard it has rendered), as the server
    /// reports it now; nil when it does not answer by `deadline`.
    package func sinkLatency(untilNanoseconds deadline: UInt64) -> UInt64? {
        guard connection.wait(for: pa_stream_update_timing_info(stream, nil, nil), untilNanoseconds: deadline),
              let timing = pa_stream_get_timing_info(stream) else { return nil }
        return timing.pointee.sink_usec * 1000
    }

    /// A sink that nothing plays to or records from renders silence far ahead and sleeps
    /// between long blocks (PulseAudio's null sink and timer-scheduled cards: up to 2 s when
    /// no client asks for less). A stream that joins it is mixed in only when the sink wakes,
    /// and its lower latency takes effect only then: up to that block late (the server cannot
    /// rewind it, its rewind limit having shrunk to the new latency). Such a sink is suspended
    /// and resumed here, which makes it start over from now at this stream's latency. Nothing
    /// is heard or recorded from an idle sink, so nobody else notices; a sink in use (another
    /// stream playing, its monitor recorded) is left alone.
    private func restartIdleSink(untilNanoseconds deadline: UInt64) {
        guard let latency = sinkLatency(untilNanoseconds: deadline), latency > Self.lateSinkNanoseconds else { return }
        let index = pa_stream_get_device_index(stream)
        final class Box { var state = PA_SINK_INVALID_STATE }
        let box = Box()
        let info = pa_context_get_sink_info_by_index(connection.context, index, { _, info, eol, userdata in
            guard eol == 0, let info, let userdata else { return }
            Unmanaged<Box>.fromOpaque(userdata).takeUnretainedValue().state = info.pointee.state
        }, Unmanaged.passUnretained(box).toOpaque())
        guard withExtendedLifetime(box, { connection.wait(for: info, untilNanoseconds: deadline) && box.state == PA_SINK_IDLE }) else { return }
        _ = connection.wait(for: pa_context_suspend_sink_by_index(connection.context, index, 1, nil, nil), untilNanoseconds: deadline)
        _ = connection.wait(for: pa_context_suspend_sink_by_index(connection.context, index, 0, nil, nil), untilNanoseconds: deadline)
    }

    /// Drops what is written and not yet heard (the server's buffer), waiting at most `timeout`
    /// nanoseconds for it to confirm: the next write is heard next.
    package func flush(timeout: UInt64) {
        _ = connection.wait(for: pa_stream_flush(stream, nil, nil), untilNanoseconds: HostClock.now + timeout)
    }

    /// Starts playing what is buffered even when it is less than the stream waits for before
    /// starting (the end of the sound).
    package func trigger(timeout: UInt64) {
        _ = connection.wait(for: pa_stream_trigger(stream, nil, nil), untilNanoseconds: HostClock.now + timeout)
    }

    /// Asks the server to play everything written (even less than the stream waits for before
    /// starting) and to say when it has been heard: `isDrained`. Once for a stream.
    package func startDraining() {
        guard drainOperation == nil else { return }
        drainOperation = pa_stream_drain(stream, nil, nil)
    }

    /// Whether everything written before `startDraining()` has been heard (or the server
    /// could not say: the stream failed); false before it was asked.
    package var isDrained: Bool {
        guard let drainOperation else { return false }
        return pa_operation_get_state(drainOperation) != PA_OPERATION_RUNNING
    }

    /// The frames heard so far: the stream's position, which stops while corked or starved.
    /// Not monotonic: libpulse interpolates between the server's reports as if the stream
    /// played, and a report after the stream ran dry moves it back (the caller keeps it within
    /// what was written).
    package var playedFrames: Int64 {
        var microseconds: pa_usec_t = 0
        guard pa_stream_get_time(stream, &microseconds) >= 0 else { return 0 }
        return Int64(HostClock.multiplyDivide(microseconds, UInt64(sampleRate), 1_000_000))
    }
}
