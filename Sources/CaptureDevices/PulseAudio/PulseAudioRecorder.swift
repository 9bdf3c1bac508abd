import CPulseAudio
import Foundation
import HostSystem
import OpenCoreMedia

/// One record stream from a PulseAudio source, cut into fixed-size buffers stamped on the host
/// clock (see `PulseAudioMicrophone` for the timing rules). Made on the caller's thread by
/// `start`, then run on the device thread until stopped or failed: one thread at a time.
final class PulseAudioRecorder: @unchecked Sendable {
    private let connection: PulseAudioConnection
    private let stream: OpaquePointer
    private let timeline: PCMTimeline
    private let bytesPerFrame: Int
    private let sampleRate: Int64

    /// Connects to `server` and opens a record stream of `maker`'s format from `source`, with a
    /// fragment size of one buffer; throws when either is not ready within `timeout`.
    init(server: String?, source: String, maker: PCMBufferMaker, timeout: UInt64) throws(CaptureDeviceError) {
        let deadline = HostClock.now + timeout
        let connection = try PulseAudioConnection.forCapture(server: server, clientName: "OpenAVFoundation", timeout: timeout)
        let format = maker.format
        var spec = pa_sample_spec(
            format: format.sampleFormat == .float32 ? cpulseaudio_sample_float32ne() : cpulseaudio_sample_s16ne(),
            rate: UInt32(format.sampleRate), channels: UInt8(format.channelCount))
        guard let stream = pa_stream_new(connection.context, "OpenAVFoundation capture", &spec, nil) else {
            throw CaptureDeviceError(.failed, "cannot make a stream of \(format): \(connection.errorText)")
        }
        self.connection = connection
        self.stream = stream
        timeline = PCMTimeline(maker: maker)
        bytesPerFrame = format.bytesPerFrame
        sampleRate = Int64(format.sampleRate)

        var attributes = pa_buffer_attr(maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max,
                                        minreq: UInt32.max, fragsize: UInt32(maker.byteCount))
        // DONT_MOVE: a source that vanishes ends the stream (`.disconnected`), rather than the
        // server moving it to another source (PulseAudio rescues movable streams).
        let flags = pa_stream_flags_t(PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_AUTO_TIMING_UPDATE.rawValue
                                      | PA_STREAM_DONT_MOVE.rawValue)
        guard pa_stream_connect_record(stream, source, &attributes, flags) >= 0,
              connection.waitUntilReady(stream, untilNanoseconds: deadline)
        else {
            let missing = pa_context_errno(connection.context) == Int32(PA_ERR_NOENTITY.rawValue)
            throw CaptureDeviceError(missing ? .disconnected : .unavailable,
                                     "cannot record from PulseAudio source \(source): \(connection.errorText)")
        }
    }

    deinit {
        pa_stream_disconnect(stream)
        pa_stream_unref(stream)
    }

    /// Delivers buffers until a stop is asked for (nil) or the stream fails (the error).
    func run(on thread: DeviceThread, handler: CaptureHandler) -> CaptureDeviceError? {
        while !thread.isStopRequested {
            guard connection.iterate(timeout: DeviceThread.maximumSleepSlice), connection.isGood,
                  pa_stream_get_state(stream) == PA_STREAM_READY
            else {
                return CaptureDeviceError(.disconnected, connection.errorText)
            }
            if let error = readAvailable(on: thread, handler: handler) { return error }
        }
        return nil
    }

    /// Hands over everything the stream holds now; stops after the delivery that asked to.
    private func readAvailable(on thread: DeviceThread, handler: CaptureHandler) -> CaptureDeviceError? {
        while pa_stream_readable_size(stream) > 0 {
            var data: UnsafeRawPointer?
            var length = 0
            guard pa_stream_peek(stream, &data, &length) >= 0 else {
                return CaptureDeviceError(.failed, "pa_stream_peek: \(connection.errorText)")
            }
            guard length > 0 else { return nil }
            let start = measuredStartOfQueue()
            let frames = length / bytesPerFrame
            if let data {
                timeline.consume(data, frames: frames, recordedAt: start, handler: handler, thread: thread)
            } else {  // a hole: the server has no data for these frames
                timeline.lose()
            }
            pa_stream_drop(stream)
            if thread.isStopRequested { return nil }
        }
        return nil
    }

    /// The host nanosecond at which the first frame about to be read was recorded: now, minus
    /// what waits in the stream's local queue (that frame included), minus the time samples
    /// spend in the device's buffer (`source_usec`, 0 for monitors). Not the stream latency of
    /// `pa_stream_get_latency`: for a sink's monitor it counts the sink's render-ahead, hundreds
    /// of milliseconds when a stream starts playing, though the monitor hands data on at once.
    private func measuredStartOfQueue() -> Int64 {
        let now = Int64(HostClock.now)
        let queued = Int64(max(0, pa_stream_readable_size(stream))) / Int64(bytesPerFrame)
        let device = Int64(pa_stream_get_timing_info(stream)?.pointee.source_usec ?? 0) * 1000
        return now - device - queued * Int64(HostClock.nanosecondsPerSecond) / sampleRate
    }
}
