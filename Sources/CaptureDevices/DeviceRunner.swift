import Foundation
import Logging

/// The life cycle of one capture device, written once for every backend (the Test Pattern
/// Camera, the Test Tone Microphone, V4L2 cameras, PulseAudio and ALSA microphones, X11
/// screens), as libcamera's pipeline handler base owns it for each platform's handler: whether
/// the device is connected and running, its device thread, starting and stopping, and how a run
/// ends by a failure or an unplug. A backend says only how to open the device and what its
/// thread runs.
///
/// `start` opens the device on the caller's thread (a device that cannot open throws there),
/// then runs what it opened on a new `DeviceThread` until a stop is asked for or it fails. A
/// failure is delivered once, as the capture's last event; a `.disconnected` one (every failure,
/// for a device that says so) leaves the device disconnected and tells the registry's connection
/// observers. A failed run's thread is waited for before the next start (so that it has freed the
/// device). `unplug(_:)` and `markConnected(_:)` are the hot-plug side: discovery, or a virtual
/// device's simulated unplug.
final class DeviceRunner: @unchecked Sendable {
    /// What runs on the device thread: delivers samples to the handler until a stop is asked for
    /// (nil) or the device fails (the error, which the runner delivers).
    typealias Run = @Sendable (DeviceThread, CaptureHandler) -> CaptureDeviceError?

    private let logger: Logger
    private let lock = NSLock()
    private var thread: DeviceThread?
    /// The thread of a run that failed, finishing by itself.
    private var finishing: DeviceThread?
    /// The thread of a run `unplug()` stopped: it delivers the unplug as its last event.
    private var unplugged: DeviceThread?
    private var connected = true

    /// A runner logging to `logger`; its device is passed to each call.
    init(logger: Logger) {
        self.logger = logger
    }

    /// Whether the device is present (false after an unplug or a disconnecting failure).
    var isConnected: Bool { lock.withLock { connected } }
    /// Whether the device thread runs and has not failed.
    var isRunning: Bool { lock.withLock { thread != nil } }

    /// Opens `device` with `open` and runs what it returns on a new device thread, delivering
    /// to `handler`; throws when the device is disconnected or already running, or when `open`
    /// throws (a `.disconnected` error marks the device disconnected). With
    /// `everyFailureDisconnects` (microphones: a sound server or card that fails is gone), a
    /// failure while running is delivered as `.disconnected`. Without `realTime` the thread asks
    /// only for nice -10. Microphones ask so: a sound server buffers their audio, and
    /// `PCMTimeline`'s corrections are tuned to reads at normal priority (real-time reads made
    /// the PulseAudio tone test step its timeline back mid-tone in 2 of 3 quiet runs).
    func start(_ device: any CaptureDeviceBackend, handler: @escaping CaptureHandler, everyFailureDisconnects: Bool = false,
               realTime: Bool = true, open: () throws(CaptureDeviceError) -> Run) throws(CaptureDeviceError) {
        let name = device.localizedName
        // Waited for outside the lock: a failed run's thread may still be telling connection
        // observers, which ask this runner whether the device is connected.
        lock.withLock { () -> DeviceThread? in
            defer { finishing = nil }
            return finishing
        }?.stop()
        lock.lock()
        defer { lock.unlock() }
        guard connected else { throw CaptureDeviceError(.disconnected, "\(name) is not connected") }
        guard thread == nil else { throw CaptureDeviceError(.alreadyRunning, "\(name) is already running") }
        let run: Run
        do {
            run = try open()
        } catch {
            if error.reason == .disconnected { connected = false }
            throw error
        }
        thread = DeviceThread.start(name: "OpenAV \(name)", realTime: realTime) { [self, weak device] deviceThread in
            var failure = run(deviceThread, handler)
            if everyFailureDisconnects, let error = failure, error.reason != .disconnected {
                failure = CaptureDeviceError(.disconnected, "\(name) went away while capturing: \(error.message)")
            }
            let (ended, disconnected) = lock.withLock { () -> (CaptureDeviceError?, Bool) in
                if unplugged === deviceThread {
                    unplugged = nil
                    return (CaptureDeviceError(.disconnected, "\(name) was unplugged while capturing"), false)
                }
                guard let error = failure, thread === deviceThread else { return (nil, false) }
                // Failed by itself: the thread finishes, and the next start waits for it.
                thread = nil
                finishing = deviceThread
                let disconnects = error.reason == .disconnected && connected
                if disconnects { connected = false }
                return (error, disconnects)
            }
            guard let ended else { return }
            logger.info("\(name) stopped: \(ended)")
            handler(.failure(ended))
            if disconnected, let device { CaptureDeviceRegistry.connectionChanged(device) }
        }
    }

    /// Stops the device thread and waits for it (see `DeviceThread.stop()`); nothing is delivered
    /// after it returns. Stopping a stopped device does nothing.
    func stop() {
        let running = lock.withLock { () -> [DeviceThread] in
            defer {
                thread = nil
                finishing = nil
            }
            return [thread, finishing].compactMap { $0 }
        }
        for thread in running { thread.stop() }
    }

    /// Unplugs the device, as far as anyone can tell: a running device delivers
    /// `.failure(.disconnected)` once and stops (when this returns, it has); then it is
    /// disconnected until `markConnected(true)`. Connection observers learn of the change.
    func unplug(_ device: any CaptureDeviceBackend) {
        let (wasConnected, running) = lock.withLock { () -> (Bool, DeviceThread?) in
            defer {
                connected = false
                thread = nil
            }
            unplugged = thread
            return (connected, thread)
        }
        running?.stop()
        if wasConnected { CaptureDeviceRegistry.connectionChanged(device) }
    }

    /// Marks the device present (plugged in again, its node answering) or gone (its node
    /// removed); whether that changed anything (the caller then tells connection observers).
    func markConnected(_ present: Bool) -> Bool {
        lock.withLock {
            defer { connected = present }
            return connected != present
        }
    }
}
