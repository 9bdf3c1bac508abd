import CaptureDevices
import Foundation
import HostSystem
import OpenAVFAudio
import Testing
import TestSupport

/// AVSpeechSynthesizer's `speak(_:)` into a private PulseAudio daemon's null sink, heard through
/// the sink's monitor (`MonitorRecorder`): the speech is heard for as long as espeak-ng's
/// synthesis lasts, every word is told in order, and a stop silences it and cancels. Real time:
/// these run in the test script's real-time phase (the name ends in PlaybackTests).
@Suite(.serialized, .timeLimit(.minutes(2))) struct SpeechPlaybackTests {
    typealias Delegate = AVSpeechSynthesizerTests.Delegate

    /// How long the monitor heard sound louder than −40 dBFS, from the first such frame to the last, in seconds.
    static func heardSpan(_ samples: [Float]) -> Double? {
        let frames = samples.count / 2
        guard let first = (0..<frames).first(where: { abs(samples[$0 * 2]) > 0.01 }),
              let last = (0..<frames).last(where: { abs(samples[$0 * 2]) > 0.01 }) else { return nil }
        return Double(last - first) / 48_000
    }

    /// A fresh daemon, a synthesizer playing to it with a recording delegate, and its monitor recording.
    static func start() async throws -> (PulseAudioDaemon, AVSpeechSynthesizer, Delegate, MonitorRecorder) {
        let daemon = try PulseAudioDaemon()
        let synthesizer = PulseAudioDiscovery.$server.withValue(daemon.server) { AVSpeechSynthesizer() }
        let delegate = Delegate()
        synthesizer.delegate = delegate
        let recorder = try MonitorRecorder(daemon)
        try #require(try await recorder.waitForMore(seconds: 0.2), "the monitor stopped recording")
        return (daemon, synthesizer, delegate, recorder)
    }

    @Test func speechIsHeardInTheSinkWithEveryWordToldInOrder() async throws {
        let utterance = AVSpeechUtterance(string: AVSpeechSynthesizerTests.sentence)
        utterance.voice = AVSpeechSynthesisVoice(language: "en")
        let written = try await AVSpeechSynthesizerTests.write(utterance)
        let (daemon, synthesizer, delegate, recorder) = try await Self.start()
        defer { daemon.stop() }
        synthesizer.speak(utterance)
        #expect(synthesizer.isSpeaking)
        let finished = pollUntil(timeout: 15) { delegate.events.contains("finish") }
        try #require(finished, "the synthesizer did not finish: \(delegate.events)")
        #expect(!synthesizer.isSpeaking)
        try #require(try await recorder.waitForMore(seconds: 0.3), "the monitor stopped recording")
        let samples = recorder.stop()
        let span = try #require(Self.heardSpan(samples), "nothing was heard")
        // The speech without the silences at its ends: what was written, less its quiet start and end.
        let spoken = try #require(Self.heardSpan(written.samples.flatMap { [Float($0) / 32768, 0] }).map { $0 * 48_000 / 22_050 })
        #expect(abs(span - spoken) < 0.1, "heard for \(span) s, espeak-ng's speech lasts \(spoken) s")
        let words = delegate.ranges.map { (AVSpeechSynthesizerTests.sentence as NSString).substring(with: $0) }
        #expect(words == ["The", "quick", "brown", "fox", "jumps", "over", "the", "lazy", "dog"])
        #expect(delegate.events == ["start", "finish"])
    }

    @Test func stopSpeakingImmediatelySilencesTheSinkAndCancels() async throws {
        let (daemon, synthesizer, delegate, recorder) = try await Self.start()
        defer { daemon.stop() }
        synthesizer.speak(AVSpeechUtterance(string: String(repeating: AVSpeechSynthesizerTests.sentence + " ", count: 5)))
        synthesizer.speak(AVSpeechUtterance(string: "This is never heard."))
        try #require(pollUntil(timeout: 10) { delegate.ranges.count >= 3 }, "no words were spoken")
        let stopFrame = recorder.recordedFrames
        #expect(synthesizer.stopSpeaking(at: .immediate))
        let cancelled = pollUntil(timeout: 5) { delegate.events.contains("cancel") }
        #expect(cancelled, "\(delegate.events)")
        try #require(try await recorder.waitForMore(seconds: 0.5), "the monitor stopped recording")
        let samples = recorder.stop()
        let after = samples[min(samples.count, (stopFrame + 9_600) * 2)...]
        #expect(after.allSatisfy { abs($0) < 0.01 }, "sound was heard more than 0.2 s after the stop")
        #expect(delegate.events == ["start", "cancel"])
        #expect(!synthesizer.isSpeaking)
        #expect(!synthesizer.stopSpeaking(at: .immediate))
    }

    @Test func pauseSilencesTheSinkAndContinueFinishesEveryWord() async throws {
        let (daemon, synthesizer, delegate, recorder) = try await Self.start()
        defer { daemon.stop() }
        synthesizer.speak(AVSpeechUtterance(string: AVSpeechSynthesizerTests.sentence))
        try #require(pollUntil(timeout: 10) { delegate.ranges.count >= 3 }, "no words were spoken")
        #expect(synthesizer.pauseSpeaking(at: .immediate))
        try #require(pollUntil(timeout: 5) { delegate.events.contains("pause") }, "\(delegate.events)")
        #expect(synthesizer.isPaused && synthesizer.isSpeaking)
        let pausedFrame = recorder.recordedFrames
        try #require(try await recorder.waitForMore(seconds: 1), "the monitor stopped recording")
        let resumeFrame = recorder.recordedFrames
        #expect(synthesizer.continueSpeaking())
        try #require(pollUntil(timeout: 15) { delegate.events.contains("finish") }, "\(delegate.events)")
        try #require(try await recorder.waitForMore(seconds: 0.3), "the monitor stopped recording")
        let samples = recorder.stop()
        // Silent from 0.2 s after the pause until it continued; heard again after.
        let paused = samples[((pausedFrame + 9_600) * 2)..<(resumeFrame * 2)]
        #expect(paused.allSatisfy { abs($0) < 0.01 }, "sound was heard while paused")
        #expect(samples[(resumeFrame * 2)...].contains { abs($0) > 0.01 }, "nothing was heard after continuing")
        let words = delegate.ranges.map { (AVSpeechSynthesizerTests.sentence as NSString).substring(with: $0) }
        #expect(words == ["The", "quick", "brown", "fox", "jumps", "over", "the", "lazy", "dog"])
        #expect(delegate.events == ["start", "pause", "continue", "finish"])
        #expect(!synthesizer.isPaused)
    }

    /// A stop at `.word` lets the word being heard end: the sound goes on after the stop for
    /// less than a word (0.8 s at 175 words a minute), no later word is told, and it cancels.
    @Test func stopSpeakingAtAWordEndsTheWordAndCancels() async throws {
        let (daemon, synthesizer, delegate, recorder) = try await Self.start()
        defer { daemon.stop() }
        synthesizer.speak(AVSpeechUtterance(string: AVSpeechSynthesizerTests.sentence))
        try #require(pollUntil(timeout: 10) { delegate.ranges.count >= 3 }, "no words were spoken")
        let stopFrame = recorder.recordedFrames
        #expect(synthesizer.stopSpeaking(at: .word))
        let toldAtStop = delegate.ranges.count
        try #require(pollUntil(timeout: 5) { delegate.events.contains("cancel") }, "\(delegate.events)")
        try #require(try await recorder.waitForMore(seconds: 1), "the monitor stopped recording")
        let samples = recorder.stop()
        let lastHeard = (0..<(samples.count / 2)).last { abs(samples[$0 * 2]) > 0.01 } ?? 0
        #expect(Double(lastHeard - stopFrame) / 48_000 < 0.8, "heard \(Double(lastHeard - stopFrame) / 48_000) s after the stop")
        #expect(delegate.ranges.count <= toldAtStop + 1, "words were told after the stop")
        #expect(delegate.ranges.count < 9)
        #expect(delegate.events == ["start", "cancel"])
    }
}
