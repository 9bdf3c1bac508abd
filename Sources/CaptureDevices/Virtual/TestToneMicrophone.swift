import Foundation
import HostSystem
import Logging
import OpenCoreMedia

/// The built-in virtual microphone: a steady 440 Hz tone at -20 dBFS, with a 1 kHz beep at
/// about -4 dBFS for the first 50 ms of every whole second of the host clock.
///
/// Formats: 48 kHz and 44.1 kHz, mono and stereo (both channels equal), 32-bit float or 16-bit
/// integer, interleaved.
///
/// Timing: sample `n` is at exactly `n / rate` seconds of host time, so a buffer's presentation
/// time is `CMTime(value: n, timescale: rate)`, each buffer starts exactly where the previous one
/// ended, and the beep's first sample is the one at the whole second (`n` a multiple of the
/// rate). The beep is a cosine, so that first sample is already at the beep's full level (a
/// sharp onset, to measure A/V sync against the camera's flash frame). Buffers of 10 ms (480
/// frames at 48 kHz, 441 at 44.1 kHz; or the `frameDuration` given to `start`) are delivered on
/// the microphone's own thread when the host clock reaches the end of their last sample
/// (`HostClockAudio`).
package final class TestToneMicrophone: CaptureDeviceBackend, @unchecked Sendable {
    package let uniqueID = "openav-virtual-test-tone-microphone"
    package let modelID = "OpenAV Test Tone Microphone"
    package let localizedName = "Test Tone Microphone"
    package let manufacturer = "OpenAVFoundation"
    package let isVirtual = true
    package let mediaKind = CaptureMediaKind.audio
    package var isConnected: Bool { true }

    /// The steady tone's frequency, in hertz.
    package static let toneFrequency = 440
    /// The steady tone's peak amplitude (full scale is 1).
    package static let toneAmplitude = 0.1
    /// The beep's frequency, in hertz.
    package static let beepFrequency = 1000
    /// The beep's peak amplitude, added to the tone.
    package static let beepAmplitude = 0.6
    /// The beep's length, in milliseconds, from each whole second.
    package static let beepMilliseconds = 50
    package let formats: [CaptureFormat] = [48_000, 44_100].flatMap { rate in
        [1, 2].flatMap { channels in
            [CaptureAudioSampleFormat.float32, .int16].map {
                .audio(CaptureAudioFormat(sampleRate: rate, channelCount: channels, sampleFormat: $0))
            }
        }
    }

    private static let logger = Logger(label: "OpenAVFoundation.CaptureDevices.TestToneMicrophone")
    private let runner = DeviceRunner(logger: TestToneMicrophone.logger)

    /// The microphone, stopped.
    package init() {}

    package var isRunning: Bool { runner.isRunning }

    /// The signal's value at absolute sample `n` of a `rate` Hz stream, before quantization.
    package static func signal(atSample n: UInt64, rate: Int) -> Double {
        let inSecond = Int(n % UInt64(rate))
        // Whole-hertz frequencies complete whole cycles each second: the phase restarts exactly.
        var value = toneAmplitude * sin(2 * Double.pi * Double(toneFrequency * inSecond % rate) / Double(rate))
        if inSecond < rate * beepMilliseconds / 1000 {
            value += beepAmplitude * cos(2 * Double.pi * Double(beepFrequency * inSecond % rate) / Double(rate))
        }
        return value
    }

    package func start(format: CaptureFormat, frameDuration: CMTime?,
                       handler: @escaping CaptureHandler) throws(CaptureDeviceError) {
        let (audio, frames) = try audioRequest(format, bufferDuration: frameDuration)
        try runner.start(self, handler: handler) { () throws(CaptureDeviceError) in
            Self.logger.debug("starting \(audio) in buffers of \(frames) frames")
            let generator = ToneBufferMaker(format: audio, framesPerBuffer: frames)
            return { deviceThread, handler in
                HostClockAudio.run(rate: audio.sampleRate, framesPerBuffer: frames, on: deviceThread, handler: handler,
                                   makeBuffer: generator.makeBuffer(firstSample:))
            }
        }
    }

    package func stop() {
        runner.stop()
    }
}

/// Fills the microphone's PCM sample buffers with its signal.
final class ToneBufferMaker: @unchecked Sendable {
    let maker: PCMBufferMaker
    private var scratch: [Double]

    init(format: CaptureAudioFormat, framesPerBuffer: Int) {
        maker = PCMBufferMaker(format: format, framesPerBuffer: framesPerBuffer)
        scratch = [Double](repeating: 0, count: framesPerBuffer)
    }

    var format: CaptureAudioFormat { maker.format }
    var framesPerBuffer: Int { maker.framesPerBuffer }

    /// The buffer of `framesPerBuffer` frames starting at absolute sample `firstSample`.
    func makeBuffer(firstSample: UInt64) -> CMSampleBuffer? {
        let rate = format.sampleRate
        for index in 0..<framesPerBuffer {
            scratch[index] = TestToneMicrophone.signal(atSample: firstSample + UInt64(index), rate: rate)
        }
        let block = maker.takeBlock()
        let channels = format.channelCount
        switch format.sampleFormat {
        case .float32:
            let samples = block.assumingMemoryBound(to: Float.self)
            for index in 0..<framesPerBuffer {
                for channel in 0..<channels { samples[index * channels + channel] = Float(scratch[index]) }
            }
        case .int16:
            let samples = block.assumingMemoryBound(to: Int16.self)
            for index in 0..<framesPerBuffer {
                let value = Int16(max(-32767, min(32767, (scratch[index] * 32767).rounded())))
                for channel in 0..<channels { samples[index * channels + channel] = value }
            }
        case .int32:
            let samples = block.assumingMemoryBound(to: Int32.self)
            for index in 0..<framesPerBuffer {
                let value = Int32(max(-2_147_483_647, min(2_147_483_647, (scratch[index] * 2_147_483_647).rounded())))
                for channel in 0..<channels { samples[index * channels + channel] = value }
            }
        }
        return maker.makeBuffer(block: block, firstSample: firstSample)
    }
}
