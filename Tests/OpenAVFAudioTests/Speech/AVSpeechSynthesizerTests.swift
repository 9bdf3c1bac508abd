import Foundation
import OpenAVFAudio
import Testing

/// AVSpeechSynthesizer's writing against the `espeak-ng` command (the same library, its own
/// front end): the samples for a sentence, the words told in order, the voices, a stop.
@Suite(.serialized, .timeLimit(.minutes(2))) struct AVSpeechSynthesizerTests {
    static let sentence = "The quick brown fox jumps over the lazy dog."

    /// Records what the synthesizer tells its delegate.
    final class Delegate: AVSpeechSynthesizerDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var _events: [String] = []
        private var _ranges: [NSRange] = []
        var events: [String] { lock.withLock { _events } }
        var ranges: [NSRange] { lock.withLock { _ranges } }
        private func add(_ event: String) { lock.withLock { _events.append(event) } }
        func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didStart utterance: AVSpeechUtterance) { add("start") }
        func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didFinish utterance: AVSpeechUtterance) { add("finish") }
        func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didCancel utterance: AVSpeechUtterance) { add("cancel") }
        func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didPause utterance: AVSpeechUtterance) { add("pause") }
        func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didContinue utterance: AVSpeechUtterance) { add("continue") }
        func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, willSpeakRangeOfSpeechString characterRange: NSRange,
                               utterance: AVSpeechUtterance) {
            lock.withLock { _ranges.append(characterRange) }
        }
    }

    /// Runs a command; its standard output.
    static func run(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }

    /// The 16-bit samples of `espeak-ng --stdout`'s WAV (its 44-byte header skipped).
    static func espeakSamples(voice: String, wordsPerMinute: Int, pitch: Int = 50, text: String) throws -> [Int16] {
        let wav = try run(["espeak-ng", "-v", voice, "-s", "\(wordsPerMinute)", "-p", "\(pitch)", "--stdout", text])
        return wav.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// The utterance written to buffers: the samples, the buffers' formats, and the delegate.
    static func write(_ utterance: AVSpeechUtterance) async throws -> (samples: [Int16], formats: [AVAudioFormat], delegate: Delegate) {
        let synthesizer = AVSpeechSynthesizer()
        let delegate = Delegate()
        synthesizer.delegate = delegate
        return try await withCheckedThrowingContinuation { continuation in
            nonisolated(unsafe) var samples: [Int16] = []
            nonisolated(unsafe) var formats: [AVAudioFormat] = []
            synthesizer.write(utterance) { buffer in
                guard let buffer = buffer as? AVAudioPCMBuffer else { return continuation.resume(throwing: CancellationError()) }
                if buffer.frameLength == 0 { return continuation.resume(returning: (samples, formats, delegate)) }
                formats.append(buffer.format)
                samples.append(contentsOf: UnsafeBufferPointer(start: buffer.int16ChannelData![0], count: Int(buffer.frameLength)))
            }
        }
    }

    /// RMS of 16-bit samples.
    static func rms(_ samples: [Int16]) -> Double {
        (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))).squareRoot()
    }

    /// At the default rate (175 words a minute) and at 0.25 (128), the samples are espeak-ng's:
    /// sample-exact for the first synthesis of a process; espeak-ng carries its voice source's
    /// state from one synthesis to the next (no call resets it), so later ones are held to the
    /// same length within 1 % and the same level within 0.5 dB.
    @Test(arguments: [(Float(0.5), 175), (Float(0.25), 128)])
    func writeGivesEspeakNGsSamples(rate: Float, wordsPerMinute: Int) async throws {
        let voice = try #require(AVSpeechSynthesisVoice(language: "en"))
        #expect(voice.identifier == "gmw/en")
        let utterance = AVSpeechUtterance(string: Self.sentence)
        utterance.voice = voice
        utterance.rate = rate
        let ours = try await Self.write(utterance)
        let theirs = try Self.espeakSamples(voice: "en", wordsPerMinute: wordsPerMinute, text: Self.sentence)
        #expect(ours.formats.allSatisfy { $0.commonFormat == .pcmFormatInt16 && $0.sampleRate == 22_050 && $0.channelCount == 1 })
        try #require(!theirs.isEmpty)
        print("speech: \(wordsPerMinute) words a minute: \(ours.samples == theirs ? "sample-exact" : "not sample-exact") against espeak-ng (\(ours.samples.count) and \(theirs.count) samples)")
        if ours.samples != theirs {
            let lengths = Double(ours.samples.count) / Double(theirs.count)
            #expect(abs(lengths - 1) < 0.01, "\(ours.samples.count) samples against espeak-ng's \(theirs.count)")
            let level = 20 * log10(Self.rms(ours.samples) / Self.rms(theirs))
            #expect(abs(level) < 0.5, "\(level) dB from espeak-ng's level")
        }
        #expect(ours.delegate.events == ["start", "finish"])
    }

    /// The median fundamental frequency of 22.05 kHz speech: each voiced 40 ms frame's strongest
    /// normalized autocorrelation peak between 60 and 500 Hz (frames whose peak is under 0.6 are
    /// not voiced).
    static func medianPitch(_ samples: [Int16]) -> Double {
        let x = samples.map(Double.init), frame = 882, lags = (22_050 / 500)...(22_050 / 60)
        var pitches: [Double] = []
        for start in stride(from: 0, to: x.count - frame - lags.upperBound, by: frame / 2) {
            let energy = (start..<start + frame).reduce(0.0) { $0 + x[$1] * x[$1] }
            guard energy > Double(frame) * 500 * 500 else { continue }
            var best = (lag: 0, r: 0.0)
            for lag in lags {
                var r = 0.0, e = 0.0
                for i in start..<start + frame { r += x[i] * x[i + lag]; e += x[i + lag] * x[i + lag] }
                let normalized = r / (energy * e).squareRoot()
                if normalized > best.r { best = (lag, normalized) }
            }
            if best.r > 0.6 { pitches.append(22_050 / Double(best.lag)) }
        }
        return pitches.sorted()[pitches.count / 2]
    }

    /// `pitchMultiplier` 2 and 0.5 are espeak-ng's pitch 100 and 0: the voice's median
    /// fundamental is within 4 % of what `espeak-ng -p` gives, and the three are well apart.
    @Test(arguments: [(Float(2), 100), (Float(0.5), 0)])
    func pitchMultiplierIsEspeakNGsPitch(multiplier: Float, pitch: Int) async throws {
        let utterance = AVSpeechUtterance(string: Self.sentence)
        utterance.voice = AVSpeechSynthesisVoice(language: "en")
        utterance.pitchMultiplier = multiplier
        let ours = Self.medianPitch(try await Self.write(utterance).samples)
        let theirs = Self.medianPitch(try Self.espeakSamples(voice: "en", wordsPerMinute: 175, pitch: pitch, text: Self.sentence))
        let neutral = Self.medianPitch(try Self.espeakSamples(voice: "en", wordsPerMinute: 175, text: Self.sentence))
        print("speech: pitch multiplier \(multiplier): \(ours) Hz, espeak-ng -p \(pitch): \(theirs) Hz, -p 50: \(neutral) Hz")
        #expect(abs(ours / theirs - 1) < 0.04, "\(ours) Hz against espeak-ng's \(theirs) Hz")
        #expect(abs(theirs / neutral - 1) > 0.15, "espeak-ng's pitch \(pitch) is not apart from its 50")
    }

    /// `volume` 0.5 is a gain: the speech is 6.02 dB below espeak-ng's own (within 0.5 dB) and as long.
    @Test func volumeIsAGain() async throws {
        let utterance = AVSpeechUtterance(string: Self.sentence)
        utterance.voice = AVSpeechSynthesisVoice(language: "en")
        utterance.volume = 0.5
        let ours = try await Self.write(utterance).samples
        let theirs = try Self.espeakSamples(voice: "en", wordsPerMinute: 175, text: Self.sentence)
        let level = 20 * log10(Self.rms(ours) / Self.rms(theirs))
        #expect(abs(level + 6.02) < 0.5, "\(level) dB from espeak-ng's level")
        #expect(abs(Double(ours.count) / Double(theirs.count) - 1) < 0.01)
    }

    @Test func wordRangesCoverEveryWordInOrder() async throws {
        let text = "Héllo wörld, it's a naïve café test; twenty-one birds!"
        let utterance = AVSpeechUtterance(string: text)
        utterance.voice = AVSpeechSynthesisVoice(language: "en-US")
        let written = try await Self.write(utterance)
        let words = written.delegate.ranges.map { (text as NSString).substring(with: $0) }
        #expect(words == ["Héllo", "wörld", "it's", "a", "naïve", "café", "test", "twenty-one", "birds"])
    }

    @Test func voicesAreEspeakNGsLanguages() throws {
        let listing = String(decoding: try Self.run(["espeak-ng", "--voices"]), as: UTF8.self)
        let languages = Set(listing.split(separator: "\n").dropFirst().compactMap { $0.split(separator: " ").dropFirst().first.map { $0.lowercased() } })
        let ours = Set(AVSpeechSynthesisVoice.speechVoices().map { $0.language.lowercased() })
        #expect(languages.count > 50)
        #expect(languages.subtracting(ours).isEmpty, "missing \(languages.subtracting(ours).sorted())")
        let american = try #require(AVSpeechSynthesisVoice(identifier: "gmw/en-US"))
        #expect(american.language == "en-US")
        #expect(american.quality == .default)
        #expect(AVSpeechSynthesisVoice(language: "en-US") == american)
        #expect(AVSpeechSynthesisVoice(identifier: "no/such-voice") == nil)
        #expect(AVSpeechSynthesisVoice(language: "xx-YY") == nil)
    }

    @Test func stopSpeakingImmediatelyCancelsAWrite() async throws {
        let synthesizer = AVSpeechSynthesizer()
        let delegate = Delegate()
        synthesizer.delegate = delegate
        let long = AVSpeechUtterance(string: String(repeating: Self.sentence + " ", count: 40))
        let ended = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var frames = 0
        synthesizer.write(long) { buffer in
            let frameLength = Int((buffer as! AVAudioPCMBuffer).frameLength)
            if frameLength == 0 { ended.signal() }
            frames += frameLength
            if frames > 22_050 { _ = synthesizer.stopSpeaking(at: .immediate) }
        }
        #expect(ended.wait(timeout: .now() + 30) == .success)
        #expect(delegate.events == ["start", "cancel"])
        #expect(frames < 22_050 * 3, "\(frames) frames were written after the stop")
    }

    @Test func ratesMapOntoEspeakNGsWordsAMinute() {
        #expect(AVSpeechUtteranceMinimumSpeechRate == 0)
        #expect(AVSpeechUtteranceDefaultSpeechRate == 0.5)
        #expect(AVSpeechUtteranceMaximumSpeechRate == 1)
        let utterance = AVSpeechUtterance(string: "x")
        #expect(utterance.rate == 0.5 && utterance.pitchMultiplier == 1 && utterance.volume == 1)
    }
}
