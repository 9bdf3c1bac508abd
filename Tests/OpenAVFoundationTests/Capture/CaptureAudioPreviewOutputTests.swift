import CaptureDevices
import Foundation
import HostSystem
import Testing
import TestSupport
@testable import OpenAVFoundation

/// `AVCaptureAudioPreviewOutput` playing the Test Tone Microphone into a private PulseAudio
/// daemon's null sink, heard through its monitor: each beep (the microphone starts one at each
/// whole second of the host clock) is heard the output's latency later, within 30 ms, and a
/// lower volume lowers it by as much. Real time (a `SampleBufferPlaybackTests` extension).
extension SampleBufferPlaybackTests {
    @Test func theMicrophoneIsHeardOnTheSinkAtItsVolume() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let microphone = try #require(AVCaptureDevice.default(for: .audio))
        #expect(microphone.backend is TestToneMicrophone)
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: microphone))
        let output = PulseAudioDiscovery.$server.withValue(daemon.server) { AVCaptureAudioPreviewOutput() }
        #expect(output.volume == 1 && output.outputDeviceUniqueID == nil)
        #expect(session.canAddOutput(output))
        session.addOutput(output)
        let recorder = try MonitorRecorder(daemon)
        try #require(try await recorder.waitForMore(seconds: 0.2), "the monitor stopped recording")
        let markHost = HostClock.now
        let markFrame = recorder.recordedFrames
        session.startRunning()
        defer { session.stopRunning() }
        try #require(try await recorder.waitForMore(seconds: 3.2), "the monitor stopped recording")
        output.volume = 0.25
        let quieterFrom = recorder.recordedFrames
        try #require(try await recorder.waitForMore(seconds: 2.2), "the monitor stopped recording")
        session.stopRunning()
        let samples = recorder.stop()

        // Beeps: above what the steady tone reaches, after 50 ms below it.
        func onsets(in frames: Range<Int>, threshold: Float) -> [Double] {
            var quiet = 0
            var found: [Double] = []
            for frame in frames where frame < samples.count / 2 {
                if abs(samples[frame * 2]) > threshold {
                    if quiet >= 2400 { found.append(Double(markHost) / 1e9 + Double(frame - markFrame) / 48_000) }
                    quiet = 0
                } else {
                    quiet += 1
                }
            }
            return found
        }
        let loud = onsets(in: markFrame..<quieterFrom, threshold: 0.4)
        #expect(loud.count >= 2, "beeps at \(loud)")
        let latency = AVCaptureAudioPreviewOutput.latency.seconds
        for onset in loud {
            let late = onset - onset.rounded(.down)
            #expect(abs(late - latency) < 0.03, "a beep was heard \(Int(late * 1000)) ms after its whole second")
        }
        // At a quarter of the volume the beeps (0.7 at most with the tone) stay under 0.2.
        let settled = quieterFrom + 4800
        let quiet = onsets(in: settled..<(samples.count / 2), threshold: 0.4)
        #expect(quiet.isEmpty, "loud beeps at a quarter of the volume: \(quiet)")
        let peak = samples[(settled * 2)...].enumerated().filter { $0.offset % 2 == 0 }.map { abs($0.element) }.max() ?? 0
        #expect(peak > 0.08 && peak < 0.2, "peak \(peak) at a quarter of the volume")
    }
}
