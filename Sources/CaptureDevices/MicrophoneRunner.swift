import Foundation
import Logging
import OpenCoreMedia

/// The running state of a hardware microphone (PulseAudio, ALSA): its device thread and whether
/// it is still connected, behind a lock, and the one way a recorder is run on that thread.
///
/// `start` makes the backend's recorder on the caller's thread (so that a device that cannot
/// open throws there), then runs it on a new device thread until a stop is asked for or it
/// fails. A failure ends the capture with `.failure(.disconnected)`, once, leaves the microphone
/// disconnected and tells the registry's connection observers.
final class MicrophoneRunner: @unchecked Sendable {
    /// What runs on the device thread: delivers to the handler until a stop is asked for (nil)
    /// or the device fails (the error).
    typealias Run = @Sendable (DeviceThread, CaptureHandler) -> CaptureDeviceError?

    private let lock = NSLock()
    private var thread: DeviceThread?
    private var connected = true

    /// Whether the microphone has not failed.
    var isConnected: Bool { lock.withLock { connected } }
    /// Whether the device thread runs.
    var isRunning: Bool { lock.withLock { thread != nil } }

    /// Starts `device` in `format` with buffers of `bufferDuration` (checked by `audioRequest`):
    /// throws when it is disconnected or already running, or when `open` throws; else runs what
    /// `open` made for the PCM buffer maker on a new device thread.
    func start(_ device: any CaptureDeviceBackend, format: CaptureFormat, bufferDuration: CMTime?, logger: Logger,
               handler: @escaping CaptureHandler, open: (PCMBufferMaker) throws(CaptureDeviceError) -> Run) throws(CaptureDeviceError) {
        let (audio, frames) = try device.audioRequest(format, bufferDuration: bufferDuration)
        lock.lock()
        defer { lock.unlock() }
        guard connected else { throw CaptureDeviceError(.disconnected, "\(device.localizedName) is gone") }
        guard thread == nil else { throw CaptureDeviceError(.alreadyRunning, "\(device.localizedName) is already running") }
        logger.debug("recording \(device.uniqueID) as \(audio) in buffers of \(frames) frames")
        let run = try open(PCMBufferMaker(format: audio, framesPerBuffer: frames))
        thread = DeviceThread.start(name: "OpenAV \(device.localizedName)") { [self] deviceThread in
            guard let error = run(deviceThread, handler) else { return }
            let ended = lock.withLock { () -> Bool in
                guard thread === deviceThread else { return false }  // stop() is already ending it
                thread = nil
                connected = false
                return true
            }
            guard ended else { return }
            logger.info("\(device.uniqueID) disconnected: \(error.message)")
            handler(.failure(CaptureDeviceError(.disconnected, "\(device.localizedName) went away while capturing: \(error.message)")))
            CaptureDeviceRegistry.connectionChanged(device)
        }
    }

    /// Stops the device thread and waits for it (see `DeviceThread.stop()`).
    func stop() {
        let running = lock.withLock { () -> DeviceThread? in
            defer { thread = nil }
            return thread
        }
        running?.stop()
    }
}
