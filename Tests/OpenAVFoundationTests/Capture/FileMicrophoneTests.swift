import CaptureDevices
import Foundation
import HostSystem
import Testing
import TestSupport
@testable import OpenAVFoundation

/// The File Microphone against ffmpeg's decode of the file it plays: the samples an audio data
/// output receives are the file's, from its first sample, looping without a gap, stamped
/// back to back at the file's rate; the bad files it refuses.
@Suite(.serialized, .timeLimit(.minutes(2))) struct FileMicrophoneTests {
    /// A 0.4 s stereo chirp (each channel its own, so neither a channel swap nor an offset
    /// within the file can pass for the file's samples), 44.1 kHz 16-bit.
    static func chirp() throws -> URL {
        try Fixtures.make("file-microphone-chirp.wav", [
            "-f", "lavfi", "-i", "aevalsrc=0.5*sin(2*PI*(200+900*t)*t)|0.3*sin(2*PI*(1500-700*t)*t):s=44100:d=0.4",
            "-c:a", "pcm_s16le"])
    }

    /// ffmpeg's decode of `file` as interleaved 32-bit floats of `channels` channels at `rate`.
    static func decoded(_ file: URL, rate: Int, channels: Int) throws -> [Float] {
        let bytes = try Fixtures.run("ffmpeg", ["-v", "error", "-i", file.path, "-ar", "\(rate)", "-ac", "\(channels)",
                                                "-f", "f32le", "-"])
        return bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    @Test func theMicrophonePlaysTheFileAsFFmpegDecodesItLoopingWithoutAGap() throws {
        let file = try Self.chirp()
        let expected = try Self.decoded(file, rate: 44_100, channels: 2)
        let fileFrames = expected.count / 2
        try #require(fileFrames == 17_640)
        let microphone = try AVCaptureDevice.fileMicrophone(playing: file)
        defer { CaptureDeviceRegistry.removeVirtualDevice(microphone.backend) }
        #expect(try AVCaptureDevice.fileMicrophone(playing: file) === microphone, "one device a file")
        #expect(AVCaptureDevice.DiscoverySession(deviceTypes: [.microphone], mediaType: .audio, position: .unspecified)
            .devices.contains { $0 === microphone })
        #expect(microphone.localizedName == "File Microphone (\(file.lastPathComponent))")
        let asbd = try #require(CMAudioFormatDescriptionGetStreamBasicDescription(microphone.activeFormat.formatDescription)?.pointee)
        #expect(asbd.mSampleRate == 44_100 && asbd.mChannelsPerFrame == 2)

        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: microphone))
        let output = AVCaptureAudioDataOutput()
        let received = ReceivedAudio(frames: fileFrames * 5 / 2)
        output.setSampleBufferDelegate(received, queue: DispatchQueue(label: "file microphone"))
        session.addOutput(output)
        session.startRunning()
        defer { session.stopRunning() }
        try #require(received.wait(seconds: 10), "\(received.buffers.count) buffers")

        let buffers = received.buffers
        let rate = try #require(buffers.first?.rate)
        #expect(rate == 44_100 && buffers.allSatisfy { $0.channels == 2 })
        // Back to back: each buffer starts where the one before ended, on the file's rate.
        for (previous, next) in zip(buffers, buffers.dropFirst()) {
            #expect(next.time == previous.time + CMTime(value: CMTimeValue(previous.samples.count / 2), timescale: 44_100))
        }
        // The file's samples from its first, over and over (s16 to float is exact: x / 32768).
        let played = buffers.flatMap(\.samples)
        var mismatches = 0
        for (index, sample) in played.enumerated() where abs(sample - expected[index % expected.count]) > 1e-6 {
            mismatches += 1
        }
        #expect(mismatches == 0, "\(mismatches) of \(played.count) samples differ from ffmpeg's decode")
        // In real time: the buffers' times follow the host clock (each delivered once its last
        // sample's time has passed).
        let last = try #require(buffers.last)
        #expect(last.deliveredAt >= last.time + CMTime(value: CMTimeValue(last.samples.count / 2), timescale: 44_100))
    }

    /// A rate and channel count other than the file's (as a sound server's microphones take
    /// them): converted as ffmpeg converts them (both through libswresample; at least 40 dB of
    /// signal to difference).
    @Test func otherFormatsAreConverted() throws {
        let file = try Self.chirp()
        let expected = try Self.decoded(file, rate: 48_000, channels: 1)
        let microphone = try FileMicrophone(url: file)
        let played = Locked<[Float]>([])
        let done = DispatchSemaphore(value: 0)
        try microphone.start(format: .audio(CaptureAudioFormat(sampleRate: 48_000, channelCount: 1, sampleFormat: .float32)),
                             frameDuration: nil) { event in
            guard case .success(let sample) = event, case .audio(let buffer) = sample.payload,
                  let data = CMSampleBufferGetDataBuffer(buffer),
                  let floats = try? data.withContiguousStorage({ Array($0.bindMemory(to: Float.self)) }) else { return }
            let count = played.withLock { $0.append(contentsOf: floats); return $0.count }
            if count >= expected.count, count - floats.count < expected.count { done.signal() }
        }
        defer { microphone.stop() }
        try #require(done.wait(timeout: .now() + 10) == .success)
        let samples = Array(played.withLock { $0 }.prefix(expected.count))
        let signal = expected.reduce(0) { $0 + Double($1 * $1) }
        let noise = zip(samples, expected).reduce(0) { $0 + Double(($1.0 - $1.1) * ($1.0 - $1.1)) }
        let ratio = 10 * log10(signal / max(noise, 1e-12))
        #expect(ratio >= 40, "\(ratio) dB")
    }

    /// Files without sound are refused with Apple's error; so is the environment's.
    @Test func filesWithoutSoundAreRefused() throws {
        let text = Fixtures.folder.appendingPathComponent("not-a-sound.wav")
        try Data("not a sound".utf8).write(to: text)
        #expect { try AVCaptureDevice.fileMicrophone(playing: text) } throws: { ($0 as? AVError)?.code == .fileFormatNotRecognized }
        let silentMovie = try Fixtures.make("file-microphone-no-sound.mp4", ["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=5",
                                                                             "-t", "1", "-c:v", "libx264"])
        #expect { try AVCaptureDevice.fileMicrophone(playing: silentMovie) } throws: { error in
            (error as? AVError)?.code == .fileFormatNotRecognized && "\(error)".contains("no sound")
        }
        #expect(FileMicrophone.fromEnvironment([FileMicrophone.environmentVariable: text.path]).isEmpty)
        #expect(FileMicrophone.fromEnvironment([FileMicrophone.environmentVariable: try Self.chirp().path]).count == 1)
    }
}

/// The audio an audio data output delivers, as floats, until a number of frames arrived.
final class ReceivedAudio: NSObject, AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable {
    struct Buffer {
        let time: CMTime
        let deliveredAt: CMTime
        let rate: Double
        let channels: Int
        let samples: [Float]
    }

    private let condition = NSCondition()
    private var received: [Buffer] = []
    private var frames = 0
    private let wanted: Int

    init(frames: Int) { wanted = frames }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let now = CMClockGetTime(CMClockGetHostTimeClock())
        guard let asbd = CMSampleBufferGetFormatDescription(sampleBuffer)
                .flatMap({ CMAudioFormatDescriptionGetStreamBasicDescription($0)?.pointee }),
              let data = CMSampleBufferGetDataBuffer(sampleBuffer),
              let samples = try? data.withContiguousStorage({ bytes -> [Float] in
                  if asbd.mFormatFlags & kAudioFormatFlagIsFloat != 0 { return Array(bytes.bindMemory(to: Float.self)) }
                  return bytes.bindMemory(to: Int16.self).map { Float($0) / 32768 }
              }) else { return }
        condition.withLock {
            guard frames < wanted else { return }
            received.append(Buffer(time: CMSampleBufferGetPresentationTimeStamp(sampleBuffer), deliveredAt: now,
                                   rate: asbd.mSampleRate, channels: Int(asbd.mChannelsPerFrame), samples: samples))
            frames += CMSampleBufferGetNumSamples(sampleBuffer)
            condition.broadcast()
        }
    }

    var buffers: [Buffer] { condition.withLock { received } }

    /// Waits until the frames wanted arrived (at most `seconds`); whether they did.
    func wait(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while frames < wanted {
            if !condition.wait(until: deadline) { return frames >= wanted }
        }
        return true
    }
}
