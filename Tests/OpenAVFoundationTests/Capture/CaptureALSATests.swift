import Foundation
import Testing
@testable import OpenAVFoundation
@testable import CaptureDevices
import TestSupport

/// Keeps what an audio data output delivers: channel 0's samples, the buffers' times and the
/// connection's levels.
final class AudioSampleCollector: NSObject, AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable {
    private let condition = NSCondition()
    private var storedSamples: [Float] = []
    private var storedLevels: [Float] = []
    private var storedTimes: [(start: CMTime, count: Int)] = []

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard let asbd = sampleBuffer.formatDescription?.audioStreamBasicDescription, let block = sampleBuffer.dataBuffer,
              asbd.mFormatFlags & kAudioFormatFlagIsFloat != 0 else { return }
        let channels = Int(asbd.mChannelsPerFrame)
        var data = [Float](repeating: 0, count: sampleBuffer.numSamples * channels)
        data.withUnsafeMutableBytes {
            _ = CMBlockBufferCopyDataBytes(block, atOffset: 0, dataLength: $0.count, destination: $0.baseAddress!)
        }
        let level = connection.audioChannels.first?.averagePowerLevel ?? -160
        condition.withLock {
            storedSamples += stride(from: 0, to: data.count, by: channels).map { data[$0] }
            storedLevels.append(level)
            storedTimes.append((sampleBuffer.presentationTimeStamp, sampleBuffer.numSamples))
            condition.broadcast()
        }
    }

    /// Waits (at most 10 s) for `count` samples of channel 0; all delivered so far.
    func wait(forSamples count: Int) -> (samples: [Float], levels: [Float], times: [(start: CMTime, count: Int)]) {
        let deadline = Date().addingTimeInterval(10)
        condition.lock()
        defer { condition.unlock() }
        while storedSamples.count < count, condition.wait(until: deadline) {}
        return (storedSamples, storedLevels, storedTimes)
    }
}

extension CaptureSessionTests {
    /// Runs `body` with the device object of an ALSA microphone that discovery does not list
    /// (it lives in a private configuration), then stops it. Not added to the registry: other
    /// suites' listings stay as they are.
    static func withALSAMicrophone<Result>(_ microphone: ALSAMicrophone, _ body: (AVCaptureDevice) throws -> Result) throws -> Result {
        defer { microphone.stop() }
        return try body(AVCaptureDevice.wrapper(of: microphone))
    }

    /// An ALSA PCM through the public API, with the real libasound and no sound card: ALSA's
    /// `file` plugin reading ffmpeg's tone, paced by a private PulseAudio daemon
    /// (`ALSAToneDevice`). The audio data output must deliver the file's samples exactly, the
    /// connection's levels the tone's, and a movie file output beside it an AAC track of the
    /// tone (ffprobe, ffmpeg).
    @Test func alsaMicrophoneCapturesThroughASessionIntoDataAndMovie() throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let tone = try ALSAToneDevice(daemon: daemon, sampleRate: 48_000, channelCount: 2, rawFormat: "f32le")
        let microphone = try #require(ALSADiscovery.$configurationFiles.withValue(tone.configurationFiles) {
            ALSADiscovery.microphones(hints: [tone.hint], soundServerRuns: false).first
        })
        try Self.withALSAMicrophone(microphone) { device in
            #expect(device.deviceType == .microphone && device.hasMediaType(.audio) && !device.hasMediaType(.video))
            #expect(device.localizedName == "OpenAV Test Tone" && device.manufacturer == "ALSA")
            let asbd = try #require(device.activeFormat.formatDescription.audioStreamBasicDescription)
            #expect(asbd.mSampleRate == 48_000 && asbd.mChannelsPerFrame == 2 && asbd.mFormatFlags & kAudioFormatFlagIsFloat != 0)

            let session = AVCaptureSession()
            session.addInput(try AVCaptureDeviceInput(device: device))
            let output = AVCaptureAudioDataOutput()
            let collector = AudioSampleCollector()
            output.setSampleBufferDelegate(collector, queue: DispatchQueue(label: "alsa samples"))
            session.addOutput(output)
            let movie = AVCaptureMovieFileOutput()
            session.addOutput(movie)
            let events = RecordingEvents()
            let url = Self.movieURL("alsa.mov")
            session.startRunning()
            defer { session.stopRunning() }
            movie.startRecording(to: url, recordingDelegate: events)
            #expect(events.wait(for: .started(url)))
            let rate = tone.sampleRate
            let toneStart = Int(ALSAToneDevice.leadIn * Double(rate))
            let fileFrames = toneStart + tone.toneSamples
            let (samples, levels, times) = collector.wait(forSamples: fileFrames + rate / 4)
            movie.stopRecording()
            #expect(try events.finishError(of: url) == nil)
            session.stopRunning()
            try #require(samples.count >= fileFrames + rate / 4, "\(samples.count) samples")

            // The data output: the file's samples, exactly (float in, float out), then silence.
            let data = try Data(contentsOf: URL(fileURLWithPath: tone.tonePath))
            let file = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            let reference = stride(from: 0, to: file.count, by: 2).map { file[$0] }
            #expect(reference.count == fileFrames)
            let mismatches = zip(samples, reference).filter { $0 != $1 }.count
            #expect(mismatches == 0, "\(mismatches) of \(fileFrames) samples differ from the file")
            #expect(samples[fileFrames...].allSatisfy { $0 == 0 })
            // Consecutive buffers after the pacing daemon's start-up (see ALSAMicrophoneTests).
            let jumps = zip(times, times.dropFirst()).enumerated().filter {
                $0.element.1.start != $0.element.0.start + CMTime(value: CMTimeValue($0.element.0.count), timescale: CMTimeScale(rate))
            }.map(\.offset)
            #expect(jumps.allSatisfy { $0 < 25 }, "re-anchored after buffers \(jumps)")

            // The connection's levels: the tone's RMS, 3.01 dB under its peak, in the tone's buffers.
            let toneLevels = levels[(toneStart / (rate / 100) + 5)..<(fileFrames / (rate / 100) - 5)].sorted()
            let expected = Float(ALSAToneDevice.tonePeakLevel - 3.0103)
            #expect(abs(toneLevels[toneLevels.count / 2] - expected) < 0.5, "median level \(toneLevels[toneLevels.count / 2]) dB")

            // The movie: one AAC track at the device's rate and channels, holding the whole tone.
            let streams = try #require(try Fixtures.probe(url)["streams"] as? [[String: Any]])
            #expect(streams.count == 1 && streams.first?["codec_name"] as? String == "aac")
            #expect(streams.first?["sample_rate"] as? String == "48000" && streams.first?["channels"] as? Int == 2)
            let decoded = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-af", "pan=mono|c0=c0", "-f", "f64le", "-"])
            let recorded = decoded.withUnsafeBytes { Array($0.bindMemory(to: Double.self)) }
            let threshold = pow(10, ALSAToneDevice.tonePeakLevel / 20) / 2
            let onset = try #require(recorded.firstIndex { abs($0) > threshold }, "no tone in the movie")
            let end = try #require(recorded.lastIndex { abs($0) > threshold })
            #expect(abs(Double(end - onset) / Double(rate) - 1.5) < 0.01, "the movie's tone lasts \(Double(end - onset) / Double(rate)) s")
            let middle = recorded[(onset + rate / 10)..<(end - rate / 10)]
            let level = 20 * log10((middle.reduce(0) { $0 + $1 * $1 } / Double(middle.count)).squareRoot())
            #expect(abs(level - (ALSAToneDevice.tonePeakLevel - 3.0103)) < 0.5, "\(level) dBFS in the movie")
        }
    }

    /// A PCM that is not there (an unplugged card): the session reports `deviceNotConnected`
    /// through its runtime error notification, and keeps running nothing.
    @Test func aMissingALSADeviceIsASessionRuntimeError() throws {
        let waiter = NotificationWaiter([AVCaptureSession.runtimeErrorNotification])
        let microphone = ALSAMicrophone(hint: ALSAHint(name: "hw:CARD=OpenAVNone,DEV=0", description: "Unplugged Microphone"),
                                        formats: [.audio(CaptureAudioFormat(sampleRate: 48_000, channelCount: 1, sampleFormat: .int16))],
                                        configurationFiles: nil)
        try Self.withALSAMicrophone(microphone) { device in
            let session = AVCaptureSession()
            session.addInput(try AVCaptureDeviceInput(device: device))
            session.addOutput(AVCaptureAudioDataOutput())
            session.startRunning()
            defer { session.stopRunning() }
            let notification = try #require(waiter.wait(for: AVCaptureSession.runtimeErrorNotification, object: session))
            let error = try #require(notification.userInfo?[AVCaptureSessionErrorKey] as? AVError)
            #expect(error.code == .deviceNotConnected, "\(error)")
            #expect(error.userInfo[AVErrorDeviceKey] as? AVCaptureDevice === device)
            #expect(!microphone.isRunning)
        }
    }
}
