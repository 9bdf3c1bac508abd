import Foundation
import HostSystem
import CaptureDevices
import Logging
import OpenCoreMedia

/// Coordinates the flow of media from capture inputs (cameras, microphones) to outputs.
///
/// Connections between compatible input ports and outputs are formed automatically. Changes
/// made while running take effect at once, or together at `commitConfiguration()`.
/// `startRunning()` and `stopRunning()` block until the devices have started or stopped; after
/// `stopRunning()` returns no new sample reaches an output (a delegate call already in progress
/// finishes). Notifications are posted on `NotificationCenter.default` with the session as
/// object. Misuse (adding an input twice, `startRunning()` inside a configuration block) is a
/// `preconditionFailure` naming the rule, where Apple raises an exception.
public final class AVCaptureSession: NSObject, @unchecked Sendable {
    /// Posted when the session starts running.
    public static let didStartRunningNotification = Notification.Name("AVCaptureSessionDidStartRunningNotification")
    /// Posted when the session stops running (also after a runtime error).
    public static let didStopRunningNotification = Notification.Name("AVCaptureSessionDidStopRunningNotification")
    /// Posted when an error occurs while running; the `AVError` is under `AVCaptureSessionErrorKey`.
    /// A session the error stopped is stopped when this is posted (`isRunning` false, its
    /// recordings finished); `didStopRunningNotification` follows.
    public static let runtimeErrorNotification = Notification.Name("AVCaptureSessionRuntimeErrorNotification")
    /// Posted when the session is interrupted (never, yet, on Linux).
    public static let wasInterruptedNotification = Notification.Name("AVCaptureSessionWasInterruptedNotification")
    /// Posted when an interruption ends (never, yet, on Linux).
    public static let interruptionEndedNotification = Notification.Name("AVCaptureSessionInterruptionEndedNotification")

    /// A device the session has started for an input, with what it was started with.
    private struct RunningDevice {
        let input: AVCaptureInput
        let source: AVCaptureInput.CaptureSource
    }

    private let lock = NSLock()
    /// Serializes starting and stopping devices; never taken while holding `lock`.
    private let runLock = NSLock()
    private var inputStorage: [AVCaptureInput] = []
    private var outputStorage: [AVCaptureOutput] = []
    private var connectionStorage: [AVCaptureConnection] = []
    private var presetStorage = Preset.high
    private var running = false
    private var configurationDepth = 0
    /// The devices started, by input (guarded by `runLock`).
    private var runningDevices: [ObjectIdentifier: RunningDevice] = [:]
    /// Where each running input's samples go: its enabled connections, by input. Built when
    /// the configuration changes (`reconcile()`), read for each sample.
    private var routes: [ObjectIdentifier: [AVCaptureConnection]] = [:]
    private let routeLock = NSLock()
    private let logger = Logger(label: "OpenAVFoundation.AVCaptureSession")
    /// What the session's observable properties (`isRunning`, `isInterrupted`) come from, as
    /// its clients are told: running once the devices started, stopped once they stopped.
    /// Writes report to the observations of `observe(_:options:changeHandler:)`.
    struct Observed {
        var isRunning = false
    }
    let observed = ObservedState(Observed())

    /// A session with no inputs or outputs, preset `.high`.
    public override init() { super.init() }

    deinit {
        for running in runningDevices.values { running.source.backend.stop() }
    }

    // MARK: Preset

    /// The quality of the video the session's cameras deliver; setting it sets each camera's
    /// `activeFormat` (see `Preset` for the formats chosen). Setting a preset that
    /// `canSetSessionPreset(_:)` refuses is a programmer error.
    public var sessionPreset: Preset {
        get { lock.withLock { presetStorage } }
        set {
            Misuse.check(canSetSessionPreset(newValue), .sessionPresetNotAccepted)
            let devices = lock.withLock { () -> [AVCaptureDevice] in
                presetStorage = newValue
                return deviceInputs.map(\.device)
            }
            for device in devices { apply(newValue, to: device) }
            applyIfRunning()
        }
    }

    /// Whether the session can use a preset with its current inputs.
    public func canSetSessionPreset(_ preset: Preset) -> Bool {
        guard Self.knownPresets.contains(preset) else { return false }
        return lock.withLock { deviceInputs }.allSatisfy { $0.device.supportsSessionPreset(preset) }
    }

    private static let knownPresets: Set<Preset> = [
        .photo, .high, .medium, .low, .qvga320x240, .cif352x288, .vga640x480, .qHD960x540, .hd1280x720, .hd1920x1080,
        .hd4K3840x2160, .iFrame960x540, .iFrame1280x720, .inputPriority,
    ]

    private func apply(_ preset: Preset, to device: AVCaptureDevice) {
        guard preset != .inputPriority, let chosen = device.presetFormat(preset),
              let format = device.formats.first(where: { $0.video == chosen }) else { return }
        device.applyActiveFormat(format)
    }

    // MARK: Configuration

    /// Starts a group of changes that take effect together at `commitConfiguration()`.
    public func beginConfiguration() {
        lock.withLock { configurationDepth += 1 }
    }

    /// Applies the changes made since the matching `beginConfiguration()`.
    public func commitConfiguration() {
        lock.withLock {
            Misuse.check(configurationDepth > 0, .commitConfigurationWithoutBegin)
            configurationDepth -= 1
        }
        applyIfRunning()
    }

    /// The session's inputs.
    public var inputs: [AVCaptureInput] { lock.withLock { inputStorage } }
    /// The session's outputs.
    public var outputs: [AVCaptureOutput] { lock.withLock { outputStorage.filter { !($0 is VideoPreviewOutput) } } }
    /// The session's connections.
    public var connections: [AVCaptureConnection] { lock.withLock { connectionStorage } }

    private var deviceInputs: [AVCaptureDeviceInput] { inputStorage.compactMap { $0 as? AVCaptureDeviceInput } }

    /// Whether an input can be added: not in a session yet, its device not already used by
    /// this session, and supporting the session's preset.
    public func canAddInput(_ input: AVCaptureInput) -> Bool {
        guard input.session == nil else { return false }
        return lock.withLock {
            guard !inputStorage.contains(where: { $0 === input }) else { return false }
            if let deviceInput = input as? AVCaptureDeviceInput {
                if deviceInputs.contains(where: { $0.device === deviceInput.device }) { return false }
                if !deviceInput.device.supportsSessionPreset(presetStorage) { return false }
            }
            return true
        }
    }

    /// Adds an input and connects its ports to the outputs that take their media types.
    public func addInput(_ input: AVCaptureInput) {
        Misuse.check(canAddInput(input), .inputNotAccepted)
        add(input, connecting: true)
    }

    /// Adds an input without forming connections; add them with `addConnection(_:)`.
    public func addInputWithNoConnections(_ input: AVCaptureInput) {
        Misuse.check(canAddInput(input), .inputWithNoConnectionsNotAccepted)
        add(input, connecting: false)
    }

    private func add(_ input: AVCaptureInput, connecting: Bool) {
        input.session = self
        let preset = lock.withLock { () -> Preset in
            inputStorage.append(input)
            if connecting {
                for port in input.ports {
                    for output in outputStorage { connectLocked(port, to: output) }
                }
            }
            return presetStorage
        }
        if let deviceInput = input as? AVCaptureDeviceInput {
            apply(preset, to: deviceInput.device)
            deviceInput.device.addConfigurationObserver(self) { [weak self] change in
                self?.deviceConfigurationChanged(change)
            }
        }
        applyIfRunning()
    }

    /// Removes an input and its connections.
    public func removeInput(_ input: AVCaptureInput) {
        let removed = lock.withLock { () -> Bool in
            guard let index = inputStorage.firstIndex(where: { $0 === input }) else { return false }
            inputStorage.remove(at: index)
            removeConnectionsLocked { $0.comes(from: input) }
            return true
        }
        guard removed else { return }
        input.session = nil
        if let deviceInput = input as? AVCaptureDeviceInput {
            deviceInput.device.removeConfigurationObserver(self)
        }
        applyIfRunning()
    }

    /// Whether an output can be added: it is in no session yet.
    public func canAddOutput(_ output: AVCaptureOutput) -> Bool {
        output.session == nil && !lock.withLock { outputStorage.contains { $0 === output } }
    }

    /// Adds an output and connects it to the input ports of the media types it takes.
    public func addOutput(_ output: AVCaptureOutput) {
        Misuse.check(canAddOutput(output), .outputNotAccepted)
        add(output, connecting: true)
    }

    /// Adds an output without forming connections; add them with `addConnection(_:)`.
    public func addOutputWithNoConnections(_ output: AVCaptureOutput) {
        Misuse.check(canAddOutput(output), .outputWithNoConnectionsNotAccepted)
        add(output, connecting: false)
    }

    private func add(_ output: AVCaptureOutput, connecting: Bool) {
        output.session = self
        let isRunning = lock.withLock { () -> Bool in
            outputStorage.append(output)
            if connecting {
                for input in inputStorage {
                    for port in input.ports { connectLocked(port, to: output) }
                }
            }
            return running
        }
        if isRunning { output.sessionWillStartRunning() }
        applyIfRunning()
    }

    /// Removes an output and its connections.
    public func removeOutput(_ output: AVCaptureOutput) {
        let removed = lock.withLock { () -> Bool in
            guard let index = outputStorage.firstIndex(where: { $0 === output }) else { return false }
            outputStorage.remove(at: index)
            removeConnectionsLocked { $0.receiver === output }
            return true
        }
        guard removed else { return }
        output.sessionDidStopRunning()
        output.session = nil
        applyIfRunning()
    }

    /// Whether a connection can be added: its output and the inputs of its ports are in this
    /// session, the output takes the ports' media types and has no connection of them yet.
    public func canAddConnection(_ connection: AVCaptureConnection) -> Bool {
        guard let output = connection.receiver, !connection.inputPorts.isEmpty else { return false }
        return lock.withLock {
            !connectionStorage.contains { $0 === connection }
                && outputStorage.contains { $0 === output }
                && connection.inputPorts.allSatisfy { port in
                    inputStorage.contains { port.belongs(to: $0) } && output.accepts(port.mediaType)
                        && !output.connections.contains { $0.mediaTypes.contains(port.mediaType) }
                }
        }
    }

    /// Adds a connection made with `AVCaptureConnection(inputPorts:output:)`.
    public func addConnection(_ connection: AVCaptureConnection) {
        Misuse.check(canAddConnection(connection), .connectionNotAccepted)
        lock.withLock {
            connectionStorage.append(connection)
            if let output = connection.receiver { output.setConnections(output.connections + [connection]) }
        }
        applyIfRunning()
    }

    /// Removes a connection.
    public func removeConnection(_ connection: AVCaptureConnection) {
        lock.withLock { removeConnectionsLocked { $0 === connection } }
        applyIfRunning()
    }

    /// Connects a port to an output when the output takes its media type and has no
    /// connection of that type yet.
    private func connectLocked(_ port: AVCaptureInput.Port, to output: AVCaptureOutput) {
        guard output.accepts(port.mediaType),
              !output.connections.contains(where: { $0.mediaTypes.contains(port.mediaType) }) else { return }
        let connection = AVCaptureConnection(inputPorts: [port], output: output)
        connectionStorage.append(connection)
        output.setConnections(output.connections + [connection])
    }

    private func removeConnectionsLocked(where shouldRemove: (AVCaptureConnection) -> Bool) {
        let removing = connectionStorage.filter(shouldRemove)
        connectionStorage.removeAll(where: shouldRemove)
        for connection in removing {
            guard let output = connection.receiver else { continue }
            output.setConnections(output.connections.filter { $0 !== connection })
        }
    }

    private func deviceConfigurationChanged(_ change: AVCaptureDevice.ConfigurationChange) {
        if change == .activeFormat {
            // As on Apple platforms: a client-chosen format overrides the preset.
            lock.withLock { presetStorage = .inputPriority }
        }
        applyIfRunning()
    }

    // MARK: Running

    /// Whether the session is running.
    public var isRunning: Bool { observed.isRunning }

    /// Whether the session is interrupted: always false on Linux, for now.
    public var isInterrupted: Bool { false }

    /// Whether the session records through the app's audio session (true by default).
    ///
    /// Linux has no per-app audio session (Apple's `AVAudioSession`, iOS): microphones are the
    /// sound server's sources, whatever the value. Stored only.
    @Locked public var usesApplicationAudioSession = true

    /// Whether the session configures the app's audio session for recording (true by default).
    ///
    /// Linux has no per-app audio session to configure (Apple's `AVAudioSession`, iOS): the
    /// value is stored only.
    @Locked public var automaticallyConfiguresApplicationAudioSession = true

    /// The clock the session's sample buffers are timed on: the host time clock.
    public var synchronizationClock: CMClock? { CMClock.hostTimeClock }

    /// The clock the session's sample buffers are timed on (Apple's older name).
    @available(*, deprecated, renamed: "synchronizationClock")
    public var masterClock: CMClock? { synchronizationClock }

    /// Starts the flow of media from inputs to outputs; blocks until the devices run. A device
    /// that cannot start is reported through `runtimeErrorNotification`, and the session does not
    /// run. Calling it inside `beginConfiguration()`/`commitConfiguration()` is a programmer error.
    public func startRunning() {
        let outputs = lock.withLock { () -> [AVCaptureOutput]? in
            Misuse.check(configurationDepth == 0, .startRunningWhileConfiguring)
            guard !running else { return nil }
            running = true
            return outputStorage
        }
        guard let outputs else { return }
        for output in outputs { output.sessionWillStartRunning() }
        if let error = reconcile() {
            // Never started: stop what did start, report, and post no stop notification.
            lock.withLock { running = false }
            _ = reconcile()
            for output in outputs { output.sessionDidStopRunning() }
            NotificationCenter.default.post(name: Self.runtimeErrorNotification, object: self,
                                            userInfo: [AVCaptureSessionErrorKey: error])
            return
        }
        observed.isRunning = true
        NotificationCenter.default.post(name: Self.didStartRunningNotification, object: self)
    }

    /// Stops the flow of media; blocks until the devices have stopped.
    public func stopRunning() {
        stop(postingError: nil)
    }

    private func stop(postingError error: AVError?) {
        let outputs = lock.withLock { () -> [AVCaptureOutput]? in
            guard running else { return nil }
            running = false
            return outputStorage
        }
        let postError = {
            guard let error else { return }
            NotificationCenter.default.post(name: Self.runtimeErrorNotification, object: self,
                                            userInfo: [AVCaptureSessionErrorKey: error])
        }
        guard let outputs else { return postError() }
        if let error { for output in outputs { output.sessionWillStop(with: error) } }
        _ = reconcile()
        for output in outputs { output.sessionDidStopRunning() }
        // Observers of the error find the session stopped (an app restarts it from there), its
        // recordings finished.
        observed.isRunning = false
        postError()
        NotificationCenter.default.post(name: Self.didStopRunningNotification, object: self)
    }

    /// Applies an input's changed capture source (a screen input's crop or frame rate) when running.
    func applyIfRunning() {
        let apply = lock.withLock { running && configurationDepth == 0 }
        guard apply, let error = reconcile() else { return }
        stop(postingError: error)
    }

    /// Builds the routes, then starts and stops devices so that exactly those feeding an
    /// enabled connection run, with their current format and frame rate; returns the first
    /// failure.
    private func reconcile() -> AVError? {
        runLock.lock()
        defer { runLock.unlock() }
        let (wanted, newRoutes) = lock.withLock { () -> ([ObjectIdentifier: RunningDevice], [ObjectIdentifier: [AVCaptureConnection]]) in
            guard running else { return ([:], [:]) }
            var wanted: [ObjectIdentifier: RunningDevice] = [:]
            var routes: [ObjectIdentifier: [AVCaptureConnection]] = [:]
            for input in inputStorage {
                let targets = connectionStorage.filter {
                    $0.isEnabled && $0.comes(from: input) && $0.inputPorts.contains(where: \.isEnabled)
                }
                guard !targets.isEmpty, let source = input.captureSource else { continue }
                wanted[ObjectIdentifier(input)] = RunningDevice(input: input, source: source)
                routes[ObjectIdentifier(input)] = targets
            }
            return (wanted, routes)
        }
        routeLock.withLock { routes = newRoutes }
        for (key, current) in runningDevices {
            if let next = wanted[key], next.source.isSame(as: current.source) { continue }
            current.source.backend.stop()
            runningDevices[key] = nil
        }
        for (key, next) in wanted where runningDevices[key] == nil {
            let input = next.input
            // A device object that was unplugged stays so, even when its camera is back (plugged
            // in again it is a new object): the session does not start the camera through it.
            if let device = next.source.device, !device.isConnected {
                return AVError(.deviceNotConnected, reason: "\(device.localizedName) is not connected",
                               userInfo: [AVErrorDeviceKey: device])
            }
            let backend = next.source.backend
            backend.decodesCompressedFrames = Self.needsDecodedVideo(through: newRoutes[key] ?? [])
            do {
                try backend.start(format: next.source.format, frameDuration: next.source.frameDuration) {
                    [weak self, weak input] event in
                    guard let self, let input else { return }
                    self.deliver(event, from: input)
                }
                runningDevices[key] = next
            } catch {
                logger.debug("cannot start \(next.source.backend.localizedName): \(error)")
                return AVError(error, at: .starting, device: next.source.device)
            }
        }
        return nil
    }

    /// Whether an output fed through `targets` needs decoded pictures of a camera's compressed
    /// frames.
    private static func needsDecodedVideo(through targets: [AVCaptureConnection]) -> Bool {
        targets.contains { $0.receiver?.needsDecodedVideo(from: $0) ?? false }
    }

    /// Tells the running cameras whether to decode their compressed frames, after an output's
    /// needs changed (a delegate or an iteration came or went, a recording started or ended).
    func outputNeedsChanged() {
        runLock.withLock {
            let routed = routeLock.withLock { routes }
            for (key, device) in runningDevices {
                let decodes = Self.needsDecodedVideo(through: routed[key] ?? [])
                if device.source.backend.decodesCompressedFrames != decodes { device.source.backend.decodesCompressedFrames = decodes }
            }
        }
    }

    /// Routes a device's event along the input's route, on the device's thread.
    private func deliver(_ event: CaptureEvent, from input: AVCaptureInput) {
        switch event {
        case .success(let sample):
            let targets = routeLock.withLock { routes[ObjectIdentifier(input)] } ?? []
            // Audio levels: measured once per buffer, recorded into every connection it goes to.
            if let audio = sample.sampleBuffer, targets.contains(where: { !$0.audioChannels.isEmpty }),
               let levels = AVCaptureAudioChannel.levels(of: audio) {
                let time = audio.presentationTimeStamp.seconds
                for connection in targets { AVCaptureAudioChannel.record(levels, at: time, into: connection.audioChannels) }
            }
            for connection in targets { connection.receiver?.receive(sample, from: connection) }
        case .failure(let failure):
            let error = AVError(failure, at: .running, device: (input as? AVCaptureDeviceInput)?.device)
            // Not on the device thread: stopping waits for it.
            DispatchQueue.global().async { [self] in stop(postingError: error) }
        }
    }
}
