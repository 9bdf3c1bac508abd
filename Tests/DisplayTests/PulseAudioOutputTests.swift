import Foundation
import HostSystem
import Testing
@testable import Display
import TestSupport

/// The player's sound stream against a private PulseAudio daemon with nothing else attached:
/// an idle null sink renders up to 2 s ahead, and a stream starting on it must be heard at once,
/// not when the sink's block ends (the sink's latency, as the server reports it, is the oracle).
@Suite(.serialized, .timeLimit(.minutes(2))) struct PulseAudioOutputTests {
    @Test func aStreamStartingOnAnIdleSinkFarAheadIsHeardAtOnce() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let output = try PulseAudioOutput(server: daemon.server, sink: daemon.sinkName, sampleRate: 48_000, channelCount: 2,
                                          timeout: 2_000_000_000)
        // Wait until the idle sink is deep in one of its long blocks (its latency gives no notice
        // when it changes: it is polled).
        var latency: UInt64 = 0
        _ = try await pollUntil(timeout: 5) {
            latency = try #require(output.sinkLatency(untilNanoseconds: HostClock.now + 1_000_000_000))
            return latency > 1_000_000_000
        }
        try #require(latency > 1_000_000_000, "the idle null sink did not render far ahead (\(latency) ns): the test proves nothing")

        // Uncorked, kept full for 200 ms: the server then says the sink renders only the
        // stream's latency ahead (the stream's own position is no oracle: libpulse interpolates
        // it as if the stream played, also while the sink starves it).
        let samples = [Float](repeating: 0, count: 48_000 * 2)
        func fill() {
            let frames = min(output.writableFrames, 48_000)
            guard frames > 0 else { return }
            _ = samples.withUnsafeBufferPointer { output.write($0.baseAddress!, frames: frames) }
        }
        fill()
        let started = HostClock.now
        output.setCorked(false, timeout: 2_000_000_000)
        while HostClock.now - started < 200_000_000 {
            _ = output.iterate(timeout: 5_000_000)
            fill()
        }
        let after = try #require(output.sinkLatency(untilNanoseconds: HostClock.now + 1_000_000_000))
        #expect(after < PulseAudioOutput.lateSinkNanoseconds, "the sink still renders \(after) ns ahead: the stream waits for it")
    }
}
