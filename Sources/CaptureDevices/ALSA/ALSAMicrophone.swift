import Foundation
import Logging
import OpenCoreMedia

/// An ALSA capture PCM as a microphone, through libasound, for machines where no sound server
/// runs (a Raspberry Pi, a server): a sound card's device (`hw:CARD=…,DEV=…`) or a PCM defined in
/// the ALSA configuration (see `ALSADiscovery` for which are listed).
///
/// Identity: `uniqueID` is `alsa:` and the PCM name (stable while the card keeps its ALSA id),
/// `localizedName` the first line of the hint's description, `manufacturer` "ALSA". Formats:
/// what the PCM's hardware parameters accept (`ALSAPCM.formats(of:in:)`).
///
/// Capture opens the PCM non-blocking (a device another program holds fails at once with
/// `.busy`), in periods of the buffer duration (10 ms unless asked otherwise), and reads it with
/// `snd_pcm_readi` on the microphone's own thread (`ALSARecorder`). Timing, on the host clock: the
/// first frame of a read was recorded at *now − the frames available before it*, and
/// `PCMTimeline` cuts and stamps the buffers: each starts exactly where the previous one ended
/// (the sample count), re-anchored on the measurement after an overrun, whose lost buffers are
/// reported in `drops` (`.late`). The device vanishing mid-stream (an unplugged USB microphone)
/// ends the capture with `.failure(.disconnected)`, once; the microphone then stays disconnected.
package final class ALSAMicrophone: CaptureDeviceBackend, @unchecked Sendable {
    /// The hint discovery listed it by.
    let hint: ALSAHint
    /// The configuration files it is opened through (nil: the process's own configuration).
    let configurationFiles: String?

    package var uniqueID: String { "alsa:" + hint.name }
    package var modelID: String { localizedName }
    package var localizedName: String { hint.description.split(separator: "\n").first.map(String.init) ?? hint.name }
    package let manufacturer = "ALSA"
    package let isVirtual = false
    package let mediaKind = CaptureMediaKind.audio
    package let formats: [CaptureFormat]

    private let runner = DeviceRunner(logger: ALSAMicrophone.logger)
    private static let logger = Logger(label: "OpenAVFoundation.CaptureDevices.ALSAMicrophone")

    /// The microphone of a listed hint with its formats, opened through `configurationFiles`.
    init(hint: ALSAHint, formats: [CaptureFormat], configurationFiles: String?) {
        self.hint = hint
        self.formats = formats
        self.configurationFiles = configurationFiles
    }

    package var isConnected: Bool { runner.isConnected }
    package var isRunning: Bool { runner.isRunning }

    package func start(format: CaptureFormat, frameDuration: CMTime?,
                       handler: @escaping CaptureHandler) throws(CaptureDeviceError) {
        let (audio, frames) = try audioRequest(format, bufferDuration: frameDuration)
        try runner.start(self, handler: handler, everyFailureDisconnects: true, realTime: false) { () throws(CaptureDeviceError) in
            Self.logger.debug("recording \(uniqueID) as \(audio) in buffers of \(frames) frames")
            let maker = PCMBufferMaker(format: audio, framesPerBuffer: frames)
            let recorder = try ALSARecorder(pcm: ALSAPCM(hint.name, in: ALSAConfiguration(files: configurationFiles)), maker: maker)
            return { recorder.run(on: $0, handler: $1) }
        }
    }

    package func stop() {
        runner.stop()
    }
}
