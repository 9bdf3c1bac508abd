import CPulseAudio
import Foundation
import OpenCoreMedia

/// One record stream from a PulseAudio source, cut into fixed-size buffers stamped on the host
/// clock (see `PulseAudioMicrophone` for the timing rules). Made on the caller's thread by
/// `start`, then run on the device thread until stopped or failed: one thread at a time.
final class PulseAudioRecorder: @unchecked Sendable {
    private let connection: PulseAudioConnection
    private let stream: OpaquePointer
    private let maker: PCMBufferMaker
    private let samples: HostTimeGrid
    private let bytesPerFrame: Int
    private let maximumDriftTicks: Int64

    /// The buffer being filled, its first sample's tick and the frames in it so far.
    private var pending: (block: UnsafeMutableRawPointer, start: UInt64, frames: Int)?
    /// Where the next buffer starts if the timeline continues; nil before the first.
    private var nextStart: UInt64?
    private var sequence: UInt64 = 0
    private var drops: [CaptureDropRun] = []
    /// The buffers in a row that started more than `maximumDrift` before the measured time,
    /// and the smallest of their lags, in ticks.
    private var lag: (smallest: Int64, buffers: Int)?
    /// How long, in ticks, the timeline must lag the measurement to count as a gap.
    private let gapConfirmationTicks: Int
    /// Set when a hole in the stream discarded a partly filled buffer.
    private var discardedPartialBuffer = false

    /// Connects to `server` and opens a record stream of `maker`'s format from `source`, with a
    /// fragment size of one buffer; throws when either is not ready within `timeout`.
    init(server: String?, source: String, maker: PCMBufferMaker, timeout: UInt64) throws(CaptureDeviceError) {
        let deadline = HostClock.now + timeout
        let connection = try PulseAudioConnection(server: server, clientName: "OpenAVFoundation", timeout: timeout)
        let format = maker.format
        var spec = pa_sample_spec(
            format: format.sampleFormat == .float32 ? cpulseaudio_sample_float32ne() : cpulseaudio_sample_s16ne(),
            rate: UInt32(format.sampleRate), channels: UInt8(format.channelCount))
        guard let stream = pa_stream_new(connection.context, "OpenAVFoundation capture", &spec, nil) else {
            throw CaptureDeviceError(.failed, "cannot make a stream of \(format): \(connection.errorText)")
        }
        self.connection = connection
        self.stream = stream
        self.maker = maker
        samples = HostTimeGrid(step: CMTime(value: 1, timescale: CMTimeScale(format.sampleRate)))!
        bytesPerFrame = format.bytesPerFrame
        maximumDriftTicks = Int64((PulseAudioMicrophone.maximumDrift.seconds * Double(format.sampleRate)).rounded())
        gapConfirmationTicks = Int((PulseAudioMicrophone.gapConfirmation.seconds * Double(format.sampleRate)).rounded())

        var attributes = pa_buffer_attr(maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max,
                                        minreq: UInt32.max, fragsize: UInt32(maker.byteCount))
        let flags = pa_stream_flags_t(PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_AUTO_TIMING_UPDATE.rawValue)
        guard pa_stream_connect_record(stream, source, &attributes, flags) >= 0,
              connection.iterate(untilNanoseconds: deadline, {
                  let state = pa_stream_get_state(stream)
                  return state == PA_STREAM_READY || PA_STREAM_IS_GOOD(state) == 0
              }),
              pa_stream_get_state(stream) == PA_STREAM_READY
        else {
            let missing = pa_context_errno(connection.context) == Int32(PA_ERR_NOENTITY.rawValue)
            throw CaptureDeviceError(missing ? .disconnected : .unavailable,
                                     "cannot record from PulseAudio source \(source): \(connection.errorText)")
        }
    }

    deinit {
        if let pending { maker.discard(pending.block) }
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
                consume(data, frames: frames, recordedAt: start, handler: handler, thread: thread)
            } else if let partial = pending {  // a hole: the server has no data for these frames
                maker.discard(partial.block)
                pending = nil
                discardedPartialBuffer = true
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
        return now - device - queued * Int64(HostClock.nanosecondsPerSecond) / Int64(maker.format.sampleRate)
    }

    /// Copies `frames` frames into buffers, delivering each one filled.
    private func consume(_ data: UnsafeRawPointer, frames: Int, recordedAt start: Int64,
                         handler: CaptureHandler, thread: DeviceThread) {
        let rate = Int64(maker.format.sampleRate)
        var offset = 0
        while offset < frames {
            let buffer = pending ?? {
                let measured = start + Int64(offset) * Int64(HostClock.nanosecondsPerSecond) / rate
                return (maker.takeBlock(), firstTick(measured: samples.tick(atOrBefore: UInt64(max(0, measured)))), 0)
            }()
            let count = min(maker.framesPerBuffer - buffer.frames, frames - offset)
            (buffer.block + buffer.frames * bytesPerFrame).copyMemory(from: data + offset * bytesPerFrame,
                                                                       byteCount: count * bytesPerFrame)
            offset += count
            pending = (buffer.block, buffer.start, buffer.frames + count)
            if buffer.frames + count == maker.framesPerBuffer {
                pending = nil
                deliver(buffer.block, start: buffer.start, handler: handler)
                if thread.isStopRequested { return }
            }
        }
    }

    /// Where a new buffer starts: where the previous one ended, unless the measured time
    /// (an upper bound: the server may pass data on late, never early) says otherwise. A
    /// timeline more than `maximumDrift` ahead of the measurement re-anchors at once. One more
    /// than `maximumDrift` behind it for `gapConfirmation` in a row is a gap (the source was
    /// suspended, data was lost), not a late delivery: it re-anchors by the smallest lag seen in
    /// that time, whole buffers counted as drops. After a hole cut the previous buffer, the
    /// next re-anchors at once. A start never goes back to or before the previous buffer's.
    private func firstTick(measured: UInt64) -> UInt64 {
        guard let expected = nextStart else { return measured }
        let drift = Int64(measured) - Int64(expected)
        let frames = Int64(maker.framesPerBuffer)
        if drift > maximumDriftTicks {
            lag = (min(lag?.smallest ?? drift, drift), (lag?.buffers ?? 0) + 1)
        } else {
            lag = nil
        }
        let start: Int64
        if discardedPartialBuffer {
            start = Int64(measured)
        } else if drift < -maximumDriftTicks {
            start = max(Int64(measured), Int64(expected) - frames + 1)
        } else if let lag, lag.buffers * Int(frames) >= gapConfirmationTicks {
            start = Int64(expected) + lag.smallest
        } else {
            return expected
        }
        let dropped = max(start > Int64(expected) ? Int((start - Int64(expected)) / frames) : 0, discardedPartialBuffer ? 1 : 0)
        drops.record(dropped, .late)
        sequence += UInt64(dropped)
        discardedPartialBuffer = false
        lag = nil
        return UInt64(start)
    }

    /// Hands a filled buffer to the handler.
    private func deliver(_ block: UnsafeMutableRawPointer, start: UInt64, handler: CaptureHandler) {
        let frames = maker.framesPerBuffer
        nextStart = start + UInt64(frames)
        defer { sequence += 1 }
        guard let buffer = maker.makeBuffer(block: block, firstSample: start) else {
            drops.record(1, .outOfBuffers)
            return
        }
        let rate = CMTimeScale(maker.format.sampleRate)
        handler(.success(CaptureSample(
            payload: .audio(buffer), presentationTime: CMTime(value: CMTimeValue(start), timescale: rate),
            duration: CMTime(value: CMTimeValue(frames), timescale: rate), sequenceNumber: sequence, drops: drops)))
        drops.removeAll()
    }
}
