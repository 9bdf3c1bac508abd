import CPulseAudio
import Foundation
import Logging
import OpenCoreMedia

/// A PulseAudio source as a microphone: a capture card's input, or a sink's monitor (what the
/// sink plays, its name ending in `.monitor`). PipeWire desktops serve the same API through
/// `pipewire-pulse`.
///
/// Identity: `uniqueID` is the source's name, `localizedName` its description. Formats: the
/// source's own sample rate and channel count, as 32-bit float or 16-bit integer interleaved
/// PCM (the server converts).
///
/// Capture records a stream with a fragment size of the buffer duration (10 ms unless asked
/// otherwise) on the microphone's own thread. Timing, on the host clock: a frame handed over was
/// recorded at *now − what waits in the local queue up to it − the device buffer's latency*
/// (see `PulseAudioRecorder`), and `PCMTimeline` cuts and stamps the buffers: each starts
/// exactly where the previous one ended unless the measurement drifts away. A gap of whole
/// buffers (the source was suspended, the server skipped data) is reported in `drops` (`.late`).
/// libpulse tells a record stream of no overflow (`pa_stream_set_overflow_callback` is for
/// playback streams only); none happens while the device thread reads, since the server queues
/// seconds of audio (`maxlength`), so a stalled thread loses nothing: its backlog, read in a
/// burst, continues the timeline, and is not taken for a gap (`PCMTimeline.gapConfirmation`). The server going away, or the source vanishing, mid-stream ends the capture
/// with `.failure(.disconnected)`, once; the microphone then stays disconnected.
package final class PulseAudioMicrophone: CaptureDeviceBackend, @unchecked Sendable {
    /// The source as discovery saw it.
    let source: PulseAudioSource
    /// The server it lives on (nil: libpulse's default).
    let server: String?

    package var uniqueID: String { source.name }
    package var modelID: String { source.product ?? source.description }
    package var localizedName: String { source.description }
    package var manufacturer: String { source.vendor ?? "PulseAudio" }
    package let isVirtual = false
    package let mediaKind = CaptureMediaKind.audio
    package let formats: [CaptureFormat]

    /// The server resamples and remaps a record stream: `start` takes any rate and channel
    /// count of a listed sample format, as `AVAudioRecorder` asks for its settings'.
    package var convertsAudioFormats: Bool { true }

    /// Whether the source is a sink's monitor.
    package var isMonitor: Bool { source.isMonitor }

    /// The longest `start` waits for the server and the stream.
    static let startTimeout: UInt64 = 3_000_000_000

    private let runner = DeviceRunner(logger: PulseAudioMicrophone.logger)
    private static let logger = Logger(label: "OpenAVFoundation.CaptureDevices.PulseAudioMicrophone")

    /// The microphone of a source on `server`.
    init(source: PulseAudioSource, server: String?) {
        self.source = source
        self.server = server
        formats = [CaptureAudioSampleFormat.float32, .int16].map {
            .audio(CaptureAudioFormat(sampleRate: source.sampleRate, channelCount: source.channelCount, sampleFormat: $0))
        }
    }

    package var isConnected: Bool { runner.isConnected }
    package var isRunning: Bool { runner.isRunning }

    package func start(format: CaptureFormat, frameDuration: CMTime?,
                       handler: @escaping CaptureHandler) throws(CaptureDeviceError) {
        let (audio, frames) = try audioRequest(format, bufferDuration: frameDuration)
        try runner.start(self, handler: handler, everyFailureDisconnects: true, realTime: false) { () throws(CaptureDeviceError) in
            Self.logger.debug("recording \(uniqueID) as \(audio) in buffers of \(frames) frames")
            let maker = PCMBufferMaker(format: audio, framesPerBuffer: frames)
            let recorder = try PulseAudioRecorder(server: server, source: source.name, maker: maker, timeout: Self.startTimeout)
            return { recorder.run(on: $0, handler: $1) }
        }
    }

    package func stop() {
        runner.stop()
    }
}
