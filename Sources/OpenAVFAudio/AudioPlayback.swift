import Display
import Foundation
import HostSystem
import MediaEngine

/// One stretch of an `AVAudioPlayer`'s playing, from `play()` to a pause, a stop, a seek, a
/// rate change or the end: a thread of its own (`OpenAVFAudio.AVAudioPlayer`) reads the file
/// through `AVAudioFile` (the engine's decoding), stretches it to the rate with the pitch kept
/// (`AudioFilterGraph`), applies volume and pan, meters it, and writes it to one stream of
/// Display's `PulseAudioOutput`, whose position (`pa_stream_get_time`) says which file frame is
/// heard. The stream is stereo at the file's rate: mono is played on both sides, files of more
/// channels play their first two.
///
/// A pause, seek or rate change ends the stretch (closing the stream silences it at once) and
/// the player starts another where it was heard, so that every stretch plays at one rate from
/// one place. The player reads `heardFrame` and the meters; the thread reads the player's
/// `Settings` once a write.
final class AudioPlayback: @unchecked Sendable {
    /// What the player asked for that the thread reads as it writes.
    struct Settings {
        var volume: Float = 1
        /// A volume fade in progress: from `from` to `volume` over `frames` stream frames, from
        /// stream frame `start` (nil: not begun; set by the thread when it first writes).
        var fade: (from: Float, frames: Int64, start: Int64?)?
        var pan: Float = 0
        var isMeteringEnabled = false
    }

    /// How the stretch ended.
    enum Ending {
        /// Stopped by the player: `stop()` was called.
        case stopped
        /// Every loop was played to its end.
        case finished
        /// The file failed to decode (or the sound server went away): the error.
        case failed(any Error)
    }

    /// Where a loop of the file begins in the stream: from stream frame `stream`, file frame `file`.
    private struct Segment {
        let stream: Int64
        let file: Int64
    }

    /// One measurement of the written sound, for the meters.
    private struct MeterBlock {
        let endFrame: Int64
        let squares: [Float]
        let peaks: [Float]
        let frames: Int
    }

    /// The shared state: the stop request, what is heard, the meter blocks.
    private struct Shared {
        var stopRequested = false
        var heardFrame: Int64
        var heardAt: UInt64 = 0
        var isHearing = false
        var blocks: [MeterBlock] = []
        var playedFrames: Int64 = 0
    }

    /// The frames read from the file at a time.
    private static let sampleChunk = 2048
    /// The longest the sound server gets to answer.
    private static let timeout: UInt64 = 2_000_000_000
    /// How long the thread waits for the server before it looks at the stop request again.
    private static let iteration: UInt64 = 5_000_000

    private let file: AVAudioFile
    private let output: PulseAudioOutput
    private let filter: AudioFilterGraph?
    /// Signalled when the thread has stopped, before `ended` is called.
    private let done = DispatchSemaphore(value: 0)
    private let rate: Double
    private let sampleRate: Double
    private let channels: Int
    private let settings: Locked<Settings>
    private let shared: Locked<Shared>
    private let loopsLeft: Locked<Int>
    private let delayFrames: Int64
    private let ended: (AudioPlayback, Ending) -> Void

    /// Plays `file` from file frame `start` at `rate` (1: no stretching) to `sink` of `server`
    /// (nil: the defaults), after `delay` seconds of silence (`play(atTime:)`), looping
    /// `loops` more times (-1: forever), reading `settings` as it writes; `ended` is called on
    /// the thread once it has stopped, with this playback. Throws `SoundServerError` when no stream can be opened.
    init(file: AVAudioFile, start: Int64, rate: Double, delay: Double, server: String?, sink: String?, loops: Int,
         settings: Locked<Settings>, ended: @escaping (AudioPlayback, Ending) -> Void) throws {
        let sampleRate = file.processingFormat.sampleRate
        output = try PulseAudioOutput(server: server, sink: sink, sampleRate: Int(sampleRate), channelCount: 2, timeout: Self.timeout,
                                  name: "OpenAVFAudio AVAudioPlayer")
        filter = rate == 1 ? nil : try AudioFilterGraph(rate: rate, keepsPitch: true, sampleRate: Int(sampleRate), channelCount: 2)
        self.file = file
        self.rate = rate
        self.settings = settings
        self.ended = ended
        self.sampleRate = sampleRate
        channels = Int(file.processingFormat.channelCount)
        shared = Locked(Shared(heardFrame: start))
        loopsLeft = Locked(loops)
        delayFrames = Int64((max(0, delay) * file.processingFormat.sampleRate).rounded())
        file.framePosition = start
        let thread = Thread { [self] in run(from: start) }
        thread.name = "OpenAVFAudio.AVAudioPlayer"
        thread.start()
    }

    /// Stops the thread and waits until it has (the stream closed, the file no longer read);
    /// `ended(.stopped)` follows on it.
    func stop() {
        shared.withLock { $0.stopRequested = true }
        done.wait()
        done.signal()
    }

    /// Changes how many more times the file is played after this pass (-1: forever).
    func setLoops(_ loops: Int) { loopsLeft.wrappedValue = loops }

    /// The file frame heard now: the last one the stream reported, moved on by the host time
    /// since, at the rate.
    var heardFrame: Int64 {
        shared.withLock { s in
            guard s.isHearing else { return s.heardFrame }
            let elapsed = Double(HostClock.now - s.heardAt) / 1e9
            return s.heardFrame + Int64((min(elapsed, 0.05) * sampleRate * rate).rounded())
        }
    }

    /// The average and peak power of each channel played (the file's first two) in dBFS over
    /// the 100 ms heard last, as written (after the volume, before the pan).
    func meters() -> [(average: Float, peak: Float)] {
        shared.withLock { s in
            let window = Int64(sampleRate / 10)
            let recent = s.blocks.filter { $0.endFrame <= s.playedFrames + Int64(Self.sampleChunk) && $0.endFrame > s.playedFrames - window }
            return (0..<min(channels, 2)).map { channel in
                let frames = recent.reduce(0) { $0 + $1.frames }
                guard frames > 0 else { return (-160, -160) }
                let mean = recent.reduce(Float(0)) { $0 + $1.squares[channel] } / Float(frames)
                let peak = recent.reduce(Float(0)) { max($0, $1.peaks[channel]) }
                return (Self.decibels(mean.squareRoot()), Self.decibels(peak))
            }
        }
    }

    /// An amplitude in dBFS, −160 for silence.
    private static func decibels(_ amplitude: Float) -> Float {
        amplitude > 0 ? max(-160, 20 * log10(amplitude)) : -160
    }

    /// The thread's work: opens the stream, writes until the end or a stop, waits until what
    /// was written is heard, and says how it ended.
    private func run(from start: Int64) {
        let ending: Ending
        do {
            ending = try play(from: start)
        } catch {
            ending = .failed(error)
        }
        shared.withLock { $0.isHearing = false }
        done.signal()
        ended(self, ending)
    }

    /// Writes the file from `start` (its loops, stretched and shaped) as the stream takes it,
    /// notes what is heard after each wait for the server, and returns at a stop request or
    /// once the server says everything written was heard.
    private func play(from start: Int64) throws -> Ending {
        guard let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(Self.sampleChunk)) else {
            throw NSError(domain: NSOSStatusErrorDomain, code: Int(kAudio_ParamError))
        }
        var segments = [Segment(stream: delayFrames, file: start)]
        var written: Int64 = 0
        var fed: Int64 = 0
        var passFrames = 0
        // What is ready to write (interleaved stereo) from `pendingHead` on; first the silence
        // before a scheduled start, a chunk at a time.
        var pending: [Float] = []
        var pendingHead = 0
        var silenceLeft = delayFrames
        var readingDone = false
        var corked = true
        var triggered = false
        while true {
            if shared.stopRequested { return .stopped }
            // Fill what the stream takes.
            var writable = output.writableFrames
            while writable > 0 {
                if pendingHead == pending.count {
                    pending.removeAll(keepingCapacity: true)
                    pendingHead = 0
                    if silenceLeft > 0 {
                        let frames = min(silenceLeft, Int64(Self.sampleChunk))
                        pending.append(contentsOf: repeatElement(0, count: Int(frames) * 2))
                        silenceLeft -= frames
                        continue
                    }
                    guard !readingDone else { break }
                    try file.read(into: buffer)
                    let frames = Int(buffer.frameLength)
                    if frames == 0 {
                        let again = loopsLeft.withLock { loops -> Bool in
                            guard loops != 0 else { return false }
                            if loops > 0 { loops -= 1 }
                            return true
                        }
                        if again, passFrames > 0 {
                            passFrames = 0
                            file.framePosition = 0
                            segments.append(Segment(stream: delayFrames + Int64((Double(fed) / rate).rounded()), file: 0))
                            continue
                        }
                        readingDone = true
                        try filter?.process(nil, frames: 0) { pending.append(contentsOf: UnsafeBufferPointer(start: $0, count: $1 * 2)) }
                        continue
                    }
                    fed += Int64(frames)
                    passFrames += frames
                    let stereo = stereoFrames(buffer, frames: frames)
                    if let filter {
                        try stereo.withUnsafeBufferPointer { source in
                            try filter.process(source.baseAddress!, frames: frames) { pending.append(contentsOf: UnsafeBufferPointer(start: $0, count: $1 * 2)) }
                        }
                    } else {
                        pending = stereo
                    }
                    continue
                }
                let count = min(writable, (pending.count - pendingHead) / 2)
                let ok = pending.withUnsafeMutableBufferPointer { samples -> Bool in
                    let base = samples.baseAddress! + pendingHead
                    shape(base, frames: count, at: written, silentBefore: delayFrames)
                    return output.write(base, frames: count)
                }
                guard ok else { throw SoundServerError(.disconnected, output.errorText) }
                pendingHead += count * 2
                written += Int64(count)
                writable -= count
            }
            if corked && (written > 0 && output.writableFrames == 0 || readingDone) {
                output.setCorked(false, timeout: Self.timeout)
                corked = false
            }
            if readingDone && pendingHead == pending.count && !triggered {
                output.startDraining()
                triggered = true
            }
            guard output.iterate(timeout: Self.iteration) else { throw SoundServerError(.disconnected, output.errorText) }
            let played = min(output.playedFrames, written)
            // The loop being heard; those before it are done with (a loop forever adds one a pass).
            let current = segments.lastIndex { $0.stream <= played } ?? 0
            segments.removeFirst(current)
            let segment = segments[0]
            let heard = segment.file + Int64((Double(max(0, played - segment.stream)) * rate).rounded())
            shared.withLock { s in
                s.heardFrame = heard
                s.heardAt = HostClock.now
                s.isHearing = !corked && played >= delayFrames
                s.playedFrames = played
                s.blocks.removeAll { $0.endFrame < played - Int64(sampleRate) }
            }
            // Played out: the server says everything written was heard (closing the stream
            // sooner would cut off what it still holds).
            if triggered && output.isDrained { return .finished }
        }
    }

    /// The buffer's first `frames` frames as interleaved stereo: mono on both sides, the first
    /// two channels of more.
    private func stereoFrames(_ buffer: AVAudioPCMBuffer, frames: Int) -> [Float] {
        let source = buffer.floatChannelData![0]
        if channels == 2 { return Array(UnsafeBufferPointer(start: source, count: frames * 2)) }
        var stereo = [Float](repeating: 0, count: frames * 2)
        for frame in 0..<frames {
            stereo[frame * 2] = source[frame * channels]
            stereo[frame * 2 + 1] = source[frame * channels + (channels > 1 ? 1 : 0)]
        }
        return stereo
    }

    /// Applies the volume (and its fade) and the pan to `frames` stereo frames that start at
    /// stream frame `position`, and meters them (the frames before `silentBefore` are the
    /// silence before a scheduled start).
    private func shape(_ samples: UnsafeMutablePointer<Float>, frames: Int, at position: Int64, silentBefore: Int64) {
        let current = settings.withLock { s -> Settings in
            if var fade = s.fade {
                if fade.start == nil { fade.start = position }
                if position >= fade.start! + fade.frames { s.fade = nil } else { s.fade = fade }
            }
            return s
        }
        let left = current.pan > 0 ? 1 - current.pan : 1
        let right = current.pan < 0 ? 1 + current.pan : 1
        var squares: [Float] = [0, 0]
        var peaks: [Float] = [0, 0]
        for frame in 0..<frames {
            var gain = current.volume
            if let fade = current.fade, let start = fade.start, fade.frames > 0 {
                let progress = min(1, max(0, Float(position + Int64(frame) - start) / Float(fade.frames)))
                gain = fade.from + (current.volume - fade.from) * progress
            }
            let l = samples[frame * 2] * gain, r = samples[frame * 2 + 1] * gain
            squares[0] += l * l
            squares[1] += r * r
            peaks[0] = max(peaks[0], abs(l))
            peaks[1] = max(peaks[1], abs(r))
            samples[frame * 2] = l * left
            samples[frame * 2 + 1] = r * right
        }
        guard current.isMeteringEnabled, position + Int64(frames) > silentBefore else { return }
        let block = MeterBlock(endFrame: position + Int64(frames), squares: Array(squares.prefix(channels)),
                               peaks: Array(peaks.prefix(channels)), frames: frames)
        shared.withLock { $0.blocks.append(block) }
    }
}
