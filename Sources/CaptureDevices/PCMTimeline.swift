import Foundation
import HostSystem
import OpenCoreMedia

/// Cuts a microphone's incoming PCM into fixed-size buffers and stamps them on the host clock:
/// the one timing rule of every hardware audio backend (PulseAudio, ALSA).
///
/// The backend hands over each chunk it reads with the measured host time of its first frame
/// (`consume(_:frames:recordedAt:handler:thread:)`), and reports lost audio with `lose()`.
/// Each buffer starts exactly where the previous one ended, and only when that drifts more than
/// `maximumDrift` from the measurement (for `gapConfirmation` when it lags) does a buffer
/// re-anchor on it; the buffers skipped that way are reported in `drops` (`.late`), a part of
/// one counting as one. Used by
/// one thread at a time.
final class PCMTimeline {
    /// How far the continued timeline may drift from the measured one before a buffer
    /// re-anchors: 5 ms.
    static let maximumDrift = CMTime(value: 5, timescale: 1000)
    /// How long the timeline must lag the measurement by more than `maximumDrift` before it is
    /// taken for a gap and re-anchored: 200 ms, both of audio (buffers in a row) and of host time.
    /// A backlog (a loaded server, a consumer that stalled the device thread) is read in a burst
    /// of many buffers within milliseconds, measured late until it is caught up; a stall is much
    /// host time within few buffers. Neither is a gap; audio resuming after a real one (a
    /// suspended source) keeps lagging, buffer after buffer, in real time.
    static let gapConfirmation = CMTime(value: 200, timescale: 1000)

    /// The factory of the buffers, which sets their format and frame count.
    let maker: PCMBufferMaker
    private let samples: HostTimeGrid
    private let bytesPerFrame: Int
    private let maximumDriftTicks: Int64
    /// How long, in ticks and in host nanoseconds, the timeline must lag the measurement to
    /// count as a gap.
    private let gapConfirmationTicks: Int
    private let gapConfirmationNanoseconds: UInt64

    /// The buffer being filled, its first sample's tick and the frames in it so far.
    private var pending: (block: UnsafeMutableRawPointer, start: UInt64, frames: Int)?
    /// Where the next buffer starts if the timeline continues; nil before the first.
    private var nextStart: UInt64?
    private var sequence: UInt64 = 0
    private var drops: [CaptureDropRun] = []
    /// The buffers in a row that started more than `maximumDrift` before the measured time, the
    /// smallest of their lags, in ticks, and the host nanosecond of the first.
    private var lag: (smallest: Int64, buffers: Int, since: UInt64)?
    /// Set when lost audio made the timeline unusable: the next buffer re-anchors at once.
    private var lost = false

    /// A timeline delivering buffers made by `maker`.
    init(maker: PCMBufferMaker) {
        self.maker = maker
        let rate = maker.format.sampleRate
        samples = HostTimeGrid(step: CMTime(value: 1, timescale: CMTimeScale(rate)))!
        bytesPerFrame = maker.format.bytesPerFrame
        maximumDriftTicks = Int64((Self.maximumDrift.seconds * Double(rate)).rounded())
        gapConfirmationTicks = Int((Self.gapConfirmation.seconds * Double(rate)).rounded())
        gapConfirmationNanoseconds = UInt64(Self.gapConfirmation.seconds * Double(HostClock.nanosecondsPerSecond))
    }

    deinit {
        if let pending { maker.discard(pending.block) }
    }

    /// Records that audio was lost before the next chunk (a hole in the stream, an overrun): the
    /// partly filled buffer is discarded, and the next buffer re-anchors on its measured time,
    /// reporting the buffers skipped (at least one) as dropped.
    func lose() {
        if let partial = pending {
            maker.discard(partial.block)
            pending = nil
        }
        lost = nextStart != nil
    }

    /// Copies `frames` frames at `data` into buffers, delivering each one filled; `start` is the
    /// host nanosecond at which the first of them was recorded. Stops after a delivery during
    /// which a stop was asked for.
    func consume(_ data: UnsafeRawPointer, frames: Int, recordedAt start: Int64,
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
    /// (an upper bound: a backend may pass data on late, never early) says otherwise. A
    /// timeline more than `maximumDrift` ahead of the measurement re-anchors at once. One more
    /// than `maximumDrift` behind it for `gapConfirmation` in a row, of audio and of host time, is
    /// a gap (the source was suspended, data was lost) or a latency misjudged, not a late
    /// delivery: it re-anchors by the smallest lag seen in that time, the audio skipped counted
    /// as drops in buffers, rounded up (a monitor whose sink rewinds loses a few milliseconds).
    /// After `lose()`, the next buffer re-anchors at
    /// once. A start never goes back to or before the previous buffer's.
    private func firstTick(measured: UInt64) -> UInt64 {
        guard let expected = nextStart else { return measured }
        let drift = Int64(measured) - Int64(expected)
        let frames = Int64(maker.framesPerBuffer)
        if drift > maximumDriftTicks {
            lag = (min(lag?.smallest ?? drift, drift), (lag?.buffers ?? 0) + 1, lag?.since ?? HostClock.now)
        } else {
            lag = nil
        }
        let start: Int64
        if lost {
            start = max(Int64(measured), Int64(expected))
        } else if drift < -maximumDriftTicks {
            start = max(Int64(measured), Int64(expected) - frames + 1)
        } else if let lag, lag.buffers * Int(frames) >= gapConfirmationTicks,
                  HostClock.now - lag.since >= gapConfirmationNanoseconds {
            start = Int64(expected) + lag.smallest
        } else {
            return expected
        }
        // A move forward lost audio: at least one buffer's worth (part of one counts as one).
        let skipped = start - Int64(expected)
        let dropped = max(skipped > 0 ? Int((skipped + frames - 1) / frames) : 0, lost ? 1 : 0)
        drops.record(dropped, .late)
        sequence += UInt64(dropped)
        lost = false
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
