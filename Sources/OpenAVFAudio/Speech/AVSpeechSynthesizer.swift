import CaptureDevices
import Display
import Foundation
import HostSystem

/// Speaks utterances with espeak-ng, one after another from a queue, to the sound server
/// (PulseAudio, or PipeWire through `pipewire-pulse`), or writes their sound to buffers.
///
/// `speak(_:)` queues the utterance; a thread of the synthesizer's own synthesizes each in
/// turn (espeak-ng's synchronous mode, off the caller's thread) and plays it to a stream of
/// the server's default sink, telling the delegate of each word as it is heard. What differs
/// from Apple: the delegate is called on the synthesizer's threads; `usesApplicationAudioSession`
/// is kept but changes nothing (the sound server mixes every stream); a sound server that cannot
/// be reached cancels the utterance (`didCancel`).
open class AVSpeechSynthesizer: NSObject, @unchecked Sendable {
    /// A block that receives the synthesized sound: `AVAudioPCMBuffer`s, the last one empty.
    public typealias BufferCallback = (AVAudioBuffer) -> Void

    /// The delegate told of utterances starting, finishing, pausing, continuing, cancelled, and of words.
    open weak var delegate: (any AVSpeechSynthesizerDelegate)?
    /// Whether the app's audio session is used (true, the default) or one of the synthesizer's
    /// own; kept, but it makes no difference here: the sound server mixes every stream.
    open var usesApplicationAudioSession = true

    /// The sound server, as capture discovery asks (tests bind it to a private daemon).
    private let server: String? = PulseAudioDiscovery.server

    private struct State {
        var queue: [AVSpeechUtterance] = []
        var current: AVSpeechUtterance?
        var threadRunning = false
        var stopRequest: AVSpeechBoundary?
        var pauseRequest: AVSpeechBoundary?
        var paused = false
        /// Counts `stopSpeaking` calls; a write in progress stops when it changes.
        var stops = 0
    }

    private let state = Locked(State())

    /// A synthesizer with an empty queue.
    public override init() {
        super.init()
    }

    /// Whether an utterance is being spoken or waits in the queue (paused included).
    open var isSpeaking: Bool { state.withLock { $0.current != nil || !$0.queue.isEmpty } }

    /// Whether speaking is paused.
    open var isPaused: Bool { state.withLock { $0.paused } }

    /// Adds the utterance to the queue; it is spoken after those before it.
    open func speak(_ utterance: AVSpeechUtterance) {
        let start = state.withLock { s -> Bool in
            s.queue.append(utterance)
            guard !s.threadRunning else { return false }
            s.threadRunning = true
            return true
        }
        guard start else { return }
        let thread = Thread { [self] in runQueue() }
        thread.name = "OpenAVFAudio.AVSpeechSynthesizer"
        thread.start()
    }

    /// Stops speaking at the boundary and empties the queue; the utterance being spoken is
    /// cancelled (`didCancel`). Also stops writes in progress. False when nothing was being spoken.
    @discardableResult
    open func stopSpeaking(at boundary: AVSpeechBoundary) -> Bool {
        state.withLock { s in
            s.stops += 1
            let speaking = s.current != nil || !s.queue.isEmpty
            s.queue.removeAll()
            if s.current != nil { s.stopRequest = boundary }
            return speaking
        }
    }

    /// Pauses speaking at the boundary; `continueSpeaking()` goes on from there. False when
    /// nothing is being spoken or speaking is already paused.
    @discardableResult
    open func pauseSpeaking(at boundary: AVSpeechBoundary) -> Bool {
        state.withLock { s in
            guard s.current != nil || !s.queue.isEmpty, !s.paused, s.pauseRequest == nil else { return false }
            s.pauseRequest = boundary
            return true
        }
    }

    /// Goes on speaking after a pause. False when speaking was not paused.
    @discardableResult
    open func continueSpeaking() -> Bool {
        state.withLock { s in
            if s.pauseRequest != nil && !s.paused {
                s.pauseRequest = nil
                return true
            }
            guard s.paused else { return false }
            s.paused = false
            return true
        }
    }

    /// Synthesizes the utterance on a thread of its own and gives its sound to `bufferCallback`
    /// there as `AVAudioPCMBuffer`s in the voice's format (16-bit integer, mono, espeak-ng's
    /// 22 050 Hz; `AVSpeechSynthesisVoice.audioFileSettings`), block by block as espeak-ng makes
    /// them. The delegate is told `didStart`, each word before the buffer that holds its start,
    /// and `didFinish` (or `didCancel` after `stopSpeaking(at:)`); then one empty buffer ends the sound.
    open func write(_ utterance: AVSpeechUtterance, toBufferCallback bufferCallback: @escaping BufferCallback) {
        let stops = state.withLock { $0.stops }
        // Called on the write's thread only.
        nonisolated(unsafe) let bufferCallback = bufferCallback
        let thread = Thread { [self] in
            let engine = EspeakEngine.shared
            guard let format = AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: Double(max(engine.sampleRate, 1)), channels: 1,
                                             interleaved: true) else { return }
            delegate?.speechSynthesizer(self, didStart: utterance)
            var words = SpeechWords(utterance.speechString)
            let volume = min(max(utterance.volume, 0), 1)
            let finished = synthesize(utterance) { samples, events in
                if self.state.withLock({ $0.stops }) != stops { return false }
                for event in events {
                    if let range = words.tell(codePoint: event.codePoint) {
                        self.delegate?.speechSynthesizer(self, willSpeakRangeOfSpeechString: range, utterance: utterance)
                    }
                }
                guard samples.count > 0,
                      let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(samples.count)) else { return true }
                let out = buffer.int16ChannelData![0]
                for i in 0..<samples.count {
                    out[i] = volume == 1 ? samples[i] : Int16((Float(samples[i]) * volume).rounded())
                }
                buffer.frameLength = AVAudioFrameCount(samples.count)
                bufferCallback(buffer)
                return true
            }
            if finished {
                delegate?.speechSynthesizer(self, didFinish: utterance)
            } else {
                delegate?.speechSynthesizer(self, didCancel: utterance)
            }
            if let empty = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 1) { bufferCallback(empty) }
        }
        thread.name = "OpenAVFAudio.AVSpeechSynthesizer.write"
        thread.start()
    }

    /// Synthesizes the utterance with its voice, rate and pitch through the one engine.
    private func synthesize(_ utterance: AVSpeechUtterance,
                            receive: @escaping (UnsafeBufferPointer<Int16>, [EspeakEngine.WordEvent]) -> Bool) -> Bool {
        let voice = utterance.voice ?? AVSpeechSynthesisVoice(language: nil) ?? AVSpeechSynthesisVoice(language: "en")
        guard let voice else { return false }
        return EspeakEngine.shared.synthesize(utterance.speechString, voice: voice.identifier,
                                              wordsPerMinute: AVSpeechUtterance.wordsPerMinute(rate: utterance.rate),
                                              pitch: AVSpeechUtterance.espeakPitch(multiplier: utterance.pitchMultiplier), receive: receive)
    }

    // MARK: Speaking out loud

    /// The queue's thread: speaks each utterance in turn until the queue is empty.
    private func runQueue() {
        while true {
            let next = state.withLock { s -> AVSpeechUtterance? in
                guard !s.queue.isEmpty else {
                    s.threadRunning = false
                    s.current = nil
                    s.paused = false
                    s.pauseRequest = nil
                    return nil
                }
                s.current = s.queue.removeFirst()
                s.stopRequest = nil
                return s.current
            }
            guard let utterance = next else { return }
            speakOne(utterance)
            state.withLock { $0.current = nil }
        }
    }

    /// Waits `seconds` (not counting paused time); false when stopped meanwhile.
    private func wait(seconds: TimeInterval) -> Bool {
        var left = seconds
        while left > 0 {
            let (stopped, paused) = state.withLock { s -> (Bool, Bool) in
                if s.pauseRequest != nil { s.pauseRequest = nil; s.paused = true }
                return (s.stopRequest != nil, s.paused)
            }
            if stopped { return false }
            usleep(5000)
            if !paused { left -= 0.005 }
        }
        return true
    }

    /// Speaks one utterance: its delay, its synthesis, its playing, the delay after it.
    private func speakOne(_ utterance: AVSpeechUtterance) {
        guard wait(seconds: utterance.preUtteranceDelay) else {
            delegate?.speechSynthesizer(self, didCancel: utterance)
            return
        }
        delegate?.speechSynthesizer(self, didStart: utterance)
        // The whole utterance first (espeak-ng makes it many times faster than it is heard).
        var samples: [Float] = []
        var wordStarts: [(sample: Int, range: NSRange)] = []
        var words = SpeechWords(utterance.speechString)
        let volume = min(max(utterance.volume, 0), 1)
        let synthesized = synthesize(utterance) { block, events in
            for event in events {
                if let range = words.tell(codePoint: event.codePoint) { wordStarts.append((event.sample, range)) }
            }
            samples.append(contentsOf: block.lazy.map { Float($0) / 32768 * volume })
            return self.state.withLock { $0.stopRequest != .immediate }
        }
        guard synthesized, play(samples, words: wordStarts, utterance: utterance) else {
            delegate?.speechSynthesizer(self, didCancel: utterance)
            return
        }
        delegate?.speechSynthesizer(self, didFinish: utterance)
        _ = wait(seconds: utterance.postUtteranceDelay)
    }

    /// Plays the samples to the sound server, telling the delegate of each word as it is heard
    /// and following pause and stop requests; true when all of it was heard.
    private func play(_ samples: [Float], words: [(sample: Int, range: NSRange)], utterance: AVSpeechUtterance) -> Bool {
        let timeout: UInt64 = 2_000_000_000
        guard let output = try? PulseAudioOutput(server: server, sink: nil, sampleRate: EspeakEngine.shared.sampleRate, channelCount: 1,
                                                 timeout: timeout, name: "OpenAVFAudio AVSpeechSynthesizer") else { return false }
        var written = 0
        var limit = samples.count
        var told = 0
        var corked = true
        var draining = false
        var pauseAt: Int?
        var stopping = false
        var wasPaused = false
        /// The first word start after `played`, or the end.
        func nextBoundary(after played: Int) -> Int { words.first { $0.sample > played }?.sample ?? samples.count }
        while true {
            let played = min(Int(output.playedFrames), written)
            let (stop, pause) = state.withLock { s -> (AVSpeechBoundary?, AVSpeechBoundary?) in
                let pause = s.pauseRequest
                s.pauseRequest = nil
                return (s.stopRequest, pause)
            }
            if stop == .immediate { return false }
            if stop == .word, !stopping {
                stopping = true
                limit = min(limit, nextBoundary(after: played))
                if limit < written { return false }
            }
            if let pause {
                if pause == .immediate { state.withLock { $0.paused = true } } else { pauseAt = nextBoundary(after: played) }
            }
            if let at = pauseAt, played >= at {
                pauseAt = nil
                state.withLock { $0.paused = true }
            }
            let nowPaused = state.withLock { $0.paused }
            if nowPaused && !wasPaused {
                output.setCorked(true, timeout: timeout)
                corked = true
                wasPaused = true
                delegate?.speechSynthesizer(self, didPause: utterance)
            } else if !nowPaused && wasPaused {
                wasPaused = false
                delegate?.speechSynthesizer(self, didContinue: utterance)
                if written > 0 {
                    output.setCorked(false, timeout: timeout)
                    corked = false
                }
            } else if !nowPaused, corked, written > 0, output.writableFrames == 0 {
                output.setCorked(false, timeout: timeout)
                corked = false
            }
            var writable = output.writableFrames
            while writable > 0, written < limit {
                let count = min(writable, limit - written)
                let ok = samples.withUnsafeBufferPointer { output.write($0.baseAddress! + written, frames: count) }
                guard ok else { return false }
                written += count
                writable -= count
            }
            if written >= limit, !draining, !nowPaused {
                if corked {
                    output.setCorked(false, timeout: timeout)
                    corked = false
                }
                output.startDraining()
                draining = true
            }
            guard output.iterate(timeout: 5_000_000) else { return false }
            let heard = min(Int(output.playedFrames), written)
            while told < words.count, words[told].sample <= heard, words[told].sample < limit {
                delegate?.speechSynthesizer(self, willSpeakRangeOfSpeechString: words[told].range, utterance: utterance)
                told += 1
            }
            if draining && output.isDrained { return !stopping }
        }
    }
}
