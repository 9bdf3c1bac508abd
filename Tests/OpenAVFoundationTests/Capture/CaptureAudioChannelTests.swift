import Foundation
import Testing
@testable import OpenAVFoundation
import CaptureDevices

/// Reads a connection's channel levels as each audio buffer arrives.
final class AudioLevelReader: NSObject, AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable {
    private let condition = NSCondition()
    private var readings: [(average: [Float], peak: [Float])] = []

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer,
                       from connection: AVCaptureConnection) {
        let reading = (connection.audioChannels.map(\.averagePowerLevel), connection.audioChannels.map(\.peakHoldLevel))
        condition.withLock {
            readings.append(reading)
            condition.broadcast()
        }
    }

    /// Waits for `count` readings (at most 10 s) and returns them.
    func wait(for count: Int) -> [(average: [Float], peak: [Float])] {
        let deadline = Date().addingTimeInterval(10)
        condition.lock()
        defer { condition.unlock() }
        while readings.count < count, condition.wait(until: deadline) {}
        return readings
    }
}

extension CaptureSessionTests {
    @Test func audioChannelLevelsFollowTheTestTone() throws {
        let session = AVCaptureSession()
        let microphone = try #require(AVCaptureDevice.default(for: .audio))
        session.addInput(try AVCaptureDeviceInput(device: microphone))
        let output = AVCaptureAudioDataOutput()
        let reader = AudioLevelReader()
        output.setSampleBufferDelegate(reader, queue: DispatchQueue(label: "levels"))
        session.addOutput(output)
        let connection = try #require(output.connection(with: .audio))
        let channels = Int(try #require(connection.inputPorts.first?.formatDescription?.audioStreamBasicDescription).mChannelsPerFrame)
        #expect(connection.audioChannels.count == channels)
        #expect(connection.audioChannels.allSatisfy { $0.averagePowerLevel == -160 && $0.peakHoldLevel == -160 })
        session.startRunning()
        defer { session.stopRunning() }
        // A second and a half of 10 ms buffers: at least one beep.
        let readings = reader.wait(for: 150)
        try #require(readings.count >= 150)
        // The steady tone's RMS: amplitude / √2.
        let tone = Float(20 * log10(TestToneMicrophone.toneAmplitude / 2.0.squareRoot()))
        for channel in 0..<channels {
            let averages = readings.map { $0.average[channel] }.sorted()
            #expect(abs(averages[averages.count / 2] - tone) < 0.5, "median level \(averages[averages.count / 2]) dB, tone \(tone) dB")
            // The beep (tone + beep amplitude) is held as the peak for half a second.
            let beep = Float(20 * log10(TestToneMicrophone.toneAmplitude + TestToneMicrophone.beepAmplitude))
            let peaks = readings.map { $0.peak[channel] }
            #expect(abs((peaks.max() ?? -160) - beep) < 0.5, "peak hold \(peaks.max() ?? -160) dB, beep \(beep) dB")
            #expect(peaks.min()! < beep - 6, "before the beep the peak is the tone's")
        }
    }
}
