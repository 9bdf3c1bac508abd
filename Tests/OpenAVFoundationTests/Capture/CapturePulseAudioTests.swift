import Foundation
import Testing
@testable import OpenAVFoundation
import CaptureDevices
import TestSupport

extension CaptureSessionTests {
    /// A PulseAudio sink's monitor through the public API, against a private daemon: discovery
    /// lists it as a microphone before the virtual one, and a session with an audio data output
    /// delivers the tone played into the sink at its level (`AVCaptureConnection.audioChannels`).
    @Test func pulseAudioMonitorCapturesThroughASession() throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let tone = try daemon.toneFile()
        let devices = PulseAudioDiscovery.$server.withValue(daemon.server) {
            AVCaptureDevice.DiscoverySession(deviceTypes: [.microphone], mediaType: .audio, position: .unspecified).devices
        }
        let monitor = try #require(devices.first { $0.uniqueID == daemon.monitorName },
                                   "\(daemon.monitorName) not in \(devices.map(\.uniqueID))")
        #expect(monitor.localizedName == "Monitor of \(daemon.sinkDescription)")
        #expect(monitor.deviceType == .microphone && monitor.hasMediaType(.audio) && !monitor.hasMediaType(.video))
        #expect(devices.firstIndex(of: monitor)! < devices.firstIndex { $0.localizedName == "Test Tone Microphone" }!)
        let activeFormat = try #require(monitor.activeFormat.formatDescription.audioStreamBasicDescription)
        #expect(activeFormat.mSampleRate == Double(daemon.sampleRate) && Int(activeFormat.mChannelsPerFrame) == daemon.channelCount)

        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: monitor))
        let output = AVCaptureAudioDataOutput()
        let reader = AudioLevelReader()
        output.setSampleBufferDelegate(reader, queue: DispatchQueue(label: "pulseaudio levels"))
        session.addOutput(output)
        let connection = try #require(output.connection(with: .audio))
        #expect(connection.audioChannels.count == daemon.channelCount)
        session.startRunning()
        defer { session.stopRunning() }
        try #require(reader.wait(for: 10).count >= 10, "no audio from \(monitor.localizedName)")
        let paplay = try daemon.play(tone)
        paplay.waitUntilExit()
        #expect(paplay.terminationStatus == 0)
        let readings = reader.wait(for: 0)

        // The tone's buffers: RMS 3.01 dB below its peak level, the peak held at that level.
        let toneRMS = Float(PulseAudioDaemon.tonePeakLevel - 3.0103)
        for channel in 0..<daemon.channelCount {
            let loud = readings.map { $0.average[channel] }.filter { $0 > -40 }.sorted()
            try #require(loud.count >= 150, "only \(loud.count) buffers of the tone on channel \(channel)")
            #expect(abs(loud[loud.count / 2] - toneRMS) < 1, "median level \(loud[loud.count / 2]) dB, tone \(toneRMS) dB")
            let peak = readings.map { $0.peak[channel] }.max() ?? -160
            #expect(abs(peak - Float(PulseAudioDaemon.tonePeakLevel)) < 1, "peak hold \(peak) dB")
        }
    }
}
