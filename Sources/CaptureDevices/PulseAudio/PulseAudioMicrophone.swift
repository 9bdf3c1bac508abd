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
/// (see `PulseAudioRecorder`); each buffer starts exactly where the previous one ended, and only
/// when that drifts more than `maximumDrift` from the measurement (for `gapConfirmation` when it
/// lags) does a buffer re-anchor on it. A gap of whole buffers (the source was suspended, the
/// server skipped data) is reported in `drops` (`.late`). The server going away, or the source vanishing, mid-stream ends the capture
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

    /// Whether the source is a sink's monitor.
    package var isMonitor: Bool { source.isMonitor }

    /// How far the continued timeline may drift from the measured one before a buffer
    /// re-anchors: 5 ms.
    package static let maximumDrift = CMTime(value: 5, timescale: 1000)
    /// How long the timeline must lag the measurement by more than `maximumDrift` before it is
    /// taken for a gap and re-anchored: 200 ms (a loaded server passes data on late for tens of
    /// milliseconds, then catches up).
    package static let gapConfirmation = CMTime(value: 200, timescale: 1000)
    /// The longest `start` waits for the server and the stream.
    static let startTimeout: UInt64 = 3_000_000_000

    private let lock = NSLock()
    private var thread: DeviceThread?
    private var connected = true
    private let logger = Logger(label: "OpenAVFoundation.CaptureDevices.PulseAudioMicrophone")

    /// The microphone of a source on `server`.
    init(source: PulseAudioSource, server: String?) {
        self.source = source
        self.server = server
        formats = [CaptureAudioSampleFormat.float32, .int16].map {
            .audio(CaptureAudioFormat(sampleRate: source.sampleRate, channelCount: source.channelCount, sampleFormat: $0))
        }
    }

    package var isConnected: Bool { lock.withLock { connected } }
    package var isRunning: Bool { lock.withLock { thread != nil } }

    package func start(format: CaptureFormat, frameDuration: CMTime?,
                       handler: @escaping CaptureHandler) throws(CaptureDeviceError) {
        let (audio, frames) = try audioRequest(format, bufferDuration: frameDuration)
        lock.lock()
        defer { lock.unlock() }
        guard connected else { throw CaptureDeviceError(.disconnected, "\(localizedName) is gone from its server") }
        guard thread == nil else { throw CaptureDeviceError(.alreadyRunning, "\(localizedName) is already running") }
        logger.debug("recording \(uniqueID) as \(audio) in buffers of \(frames) frames")
        let recorder = try PulseAudioRecorder(server: server, source: source.name,
                                              maker: PCMBufferMaker(format: audio, framesPerBuffer: frames),
                                              timeout: Self.startTimeout)
        thread = DeviceThread.start(name: "OpenAV \(localizedName)") { [self] deviceThread in
            guard let error = recorder.run(on: deviceThread, handler: handler) else { return }
            let ended = lock.withLock { () -> Bool in
                guard thread === deviceThread else { return false }  // stop() is already ending it
                thread = nil
                connected = false
                return true
            }
            guard ended else { return }
            logger.info("\(uniqueID) disconnected: \(error.message)")
            handler(.failure(CaptureDeviceError(.disconnected, "\(localizedName) went away while capturing: \(error.message)")))
            CaptureDeviceRegistry.connectionChanged(self)
        }
    }

    package func stop() {
        let running = lock.withLock { () -> DeviceThread? in
            defer { thread = nil }
            return thread
        }
        running?.stop()
    }
}
