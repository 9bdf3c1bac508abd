import CaptureDevices
import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Recording the Test Tone Microphone with `AVCaptureAudioFileOutput` to M4A, CAF and WAVE:
/// ffprobe names the codec, ffmpeg's decode holds the beeps a second apart (the microphone
/// starts one at each whole second of the host clock) from the file's first second on.
/// Real-time (a `CaptureSessionTests` extension).
extension CaptureSessionTests {
    @Test(arguments: [(AVFileType.m4a, "m4a", "aac"), (.caf, "caf", "alac"), (.wav, "wav", "pcm_s16le")])
    func anAudioFileOutputRecordsTheBeepsASecondApart(fileType: AVFileType, pathExtension: String, codec: String) throws {
        #expect(AVCaptureAudioFileOutput.availableOutputFileTypes() == [.m4a, .caf, .wav])
        let session = AVCaptureSession()
        let microphone = try #require(AVCaptureDevice.default(for: .audio))
        #expect(microphone.backend is TestToneMicrophone)
        session.addInput(try AVCaptureDeviceInput(device: microphone))
        let output = AVCaptureAudioFileOutput()
        #expect(output.audioSettings == nil && output.metadata.isEmpty)
        #expect(session.canAddOutput(output))
        session.addOutput(output)
        #expect(output.connections.flatMap(\.mediaTypes) == [.audio])
        let events = RecordingEvents()
        let url = Self.movieURL("beeps.\(pathExtension)")
        session.startRunning()
        defer { session.stopRunning() }
        // The type named, or (WAVE) taken from the extension.
        if fileType == .wav {
            output.startRecording(to: url, recordingDelegate: events)
        } else {
            output.startRecording(to: url, outputFileType: fileType, recordingDelegate: events)
        }
        #expect(events.wait(for: .started(url)))
        let deadline = Date().addingTimeInterval(15)
        while output.recordedDuration.seconds < 4.2 && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        output.stopRecording()
        let error = try events.finishError(of: url)
        #expect(error == nil, "\(String(describing: error?.userInfo))")
        #expect(events.events == [.started(url), .willFinish(url), .finished(url)])

        let probe = try Fixtures.probe(url)
        let streams = try #require(probe["streams"] as? [[String: Any]])
        #expect(streams.count == 1 && streams.first?["codec_name"] as? String == codec, "\(streams)")
        #expect(streams.first?["sample_rate"] as? String == "48000")
        let onsets = try RecordedMovie.beepOnsets(of: url, probe: probe)
        #expect(onsets.count >= 4 && onsets.first.map { $0 < 1.01 } == true, "beeps at \(onsets)")
        let gaps = zip(onsets, onsets.dropFirst()).map { $1 - $0 }
        #expect(gaps.allSatisfy { abs($0 - 1) < 0.002 }, "beeps at \(onsets)")
    }

    @Test func anAudioFileOutputRefusesATypeItCannotWrite() throws {
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice.default(for: .audio))))
        let output = AVCaptureAudioFileOutput()
        session.addOutput(output)
        let events = RecordingEvents()
        let url = Self.movieURL("beeps.mov")
        session.startRunning()
        defer { session.stopRunning() }
        output.startRecording(to: url, outputFileType: .mov, recordingDelegate: events)
        let error = try events.finishError(of: url)
        #expect(error?.code == .unsupportedOutputSettings && !FileManager.default.fileExists(atPath: url.path))
    }
}
