import Foundation
import Logging
import OpenCoreMedia

/// A virtual microphone that plays a sound file (or a movie's sound), a Linux addition beside
/// the File Camera: what apps that listen are tested with on machines without a microphone.
///
/// Formats: the file's rate and channel count (up to 8; more are mixed to stereo), as 32-bit
/// float or 16-bit integer; any other rate from 8 to 192 kHz and 1 to 8 channels on request,
/// converted by libswresample. Timing is the Test Tone Microphone's (`HostClockAudio`): sample
/// `n` at `n / rate` seconds of host time, in buffers of 10 ms (or the `frameDuration` given to
/// `start`) delivered when the host clock reaches their end. The first buffer holds the file's
/// first samples; the file loops at its end without a gap. A file that cannot be read fails when
/// the microphone is made; one that fails later (removed, damaged) ends the capture with
/// `.failed`.
package final class FileMicrophone: FileDevice, @unchecked Sendable {
    package let uniqueID: String
    package let modelID = "OpenAV File Microphone"
    package let localizedName: String
    package let mediaKind = CaptureMediaKind.audio
    package var isConnected: Bool { runner.isConnected }
    package var isRunning: Bool { runner.isRunning }
    package var convertsAudioFormats: Bool { true }
    package let formats: [CaptureFormat]

    /// The file played.
    package let url: URL

    private static let logger = Logger(label: "OpenAVFoundation.CaptureDevices.FileMicrophone")
    private let runner = DeviceRunner(logger: FileMicrophone.logger)

    package static let uniqueIDPrefix = "openav-file-microphone:"
    package static let environmentVariable = "OPENAV_FILE_MICROPHONE"

    /// A microphone playing `url`; throws when the file has no sound this machine decodes.
    package init(url: URL) throws(CaptureDeviceError) {
        self.url = url
        uniqueID = Self.uniqueID(of: url)
        localizedName = "File Microphone (\(url.lastPathComponent))"
        let stream = try FileSamples.streamFormat(of: url)
        let channels = stream.channelCount <= 8 ? stream.channelCount : 2
        formats = [CaptureAudioSampleFormat.float32, .int16].map {
            .audio(CaptureAudioFormat(sampleRate: stream.sampleRate, channelCount: channels, sampleFormat: $0))
        }
    }

    package func start(format: CaptureFormat, frameDuration: CMTime?,
                       handler: @escaping CaptureHandler) throws(CaptureDeviceError) {
        let (audio, frames) = try audioRequest(format, bufferDuration: frameDuration)
        let url = url
        try runner.start(self, handler: handler) { () throws(CaptureDeviceError) in
            let source = try FileSamples(url: url, format: audio)
            let maker = PCMBufferMaker(format: audio, framesPerBuffer: frames)
            Self.logger.debug("playing \(url.path) as \(audio) in buffers of \(frames) frames")
            return { deviceThread, handler in
                var next: UInt64?
                return HostClockAudio.run(rate: audio.sampleRate, framesPerBuffer: frames, on: deviceThread,
                                          handler: handler) { (firstSample) throws(CaptureDeviceError) -> CMSampleBuffer? in
                    // Buffers the loop skipped (it fell behind) skip their samples too.
                    if let next, firstSample > next { try source.read(frames: Int(firstSample - next), into: nil) }
                    next = firstSample + UInt64(frames)
                    let block = maker.takeBlock()
                    do throws(CaptureDeviceError) {
                        try source.read(frames: frames, into: block)
                    } catch {
                        maker.discard(block)
                        throw error
                    }
                    return maker.makeBuffer(block: block, firstSample: firstSample)
                }
            }
        }
    }

    package func stop() {
        runner.stop()
    }
}
