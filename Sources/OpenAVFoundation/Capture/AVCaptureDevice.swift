import Foundation
import CaptureDevices
import Logging
import OpenCoreMedia

/// A device that provides input (video or audio) to capture sessions: a camera or a microphone.
///
/// Devices come from discovery (`default(for:)`, `DiscoverySession`, `devices(for:)`), which
/// lists hardware first, then the built-in virtual devices (the Test Pattern Camera and the Test
/// Tone Microphone), as `OPENAV_CAPTURE_DEVICES=virtual|hardware|all` (default `all`) selects.
/// The same device is always the same object while it stays connected (plugged in again, it is
/// a new one, as on Apple platforms). Cameras with controls (the virtual camera's are simulated
/// and visible in its picture) offer focus, exposure, white balance, torch and zoom. Setting
/// `activeFormat`, the frame durations or any control without `lockForConfiguration()` is a
/// programmer error (a `preconditionFailure` naming the rule, where Apple raises an exception).
public final class AVCaptureDevice: NSObject, @unchecked Sendable {
    /// What a session learns from a device it uses.
    enum ConfigurationChange: Sendable {
        /// The client set `activeFormat`.
        case activeFormat
        /// The client set a frame duration.
        case frameDuration
    }

    /// The device layer's device.
    let backend: any CaptureDeviceBackend

    /// What the device's properties come from. Every write reports to the observers made
    /// with `observe(_:options:changeHandler:)`, and so does each new state of the camera's
    /// controls (`controlStateChanged`).
    private struct State {
        var configurationLockCount = 0
        var activeFormat: Format
        var minFrameDuration: CMTime
        var maxFrameDuration: CMTime
        var observers: [ObjectIdentifier: @Sendable (ConfigurationChange) -> Void] = [:]
        /// Set when the device was unplugged: this object stays disconnected.
        var unplugged = false
        /// What the client asked of the controls (focus, exposure, white balance, torch, zoom).
        var controlSettings: CaptureControlSettings
        /// Completion handlers waiting for the first frame showing a settings generation.
        var completions: [(generation: UInt64, handler: @Sendable (CMTime) -> Void)] = []
        var subjectAreaMonitoring = false

        /// Makes `format` the active one, with its default frame durations.
        mutating func setActiveFormat(_ format: Format) {
            activeFormat = format
            let duration = format.video?.defaultFrameDuration ?? .invalid
            minFrameDuration = duration
            maxFrameDuration = duration
        }
    }
    private let state: ObservedState<State>
    /// Runs completion handlers, in the order they were given.
    private let completionQueue = DispatchQueue(label: "OpenAVFoundation.AVCaptureDevice.completions")

    /// The formats the device can deliver.
    public let formats: [Format]

    private init(backend: any CaptureDeviceBackend) {
        self.backend = backend
        formats = backend.formats.map(Format.init)
        precondition(!formats.isEmpty, "capture device \(backend.localizedName) offers no format")
        // As on Apple cameras, the initial active format is the one the `.high` preset selects.
        let high = AVCaptureSession.Preset.high.videoFormat(among: backend.videoFormats, nearest: !backend.isVirtual)
        let initial = formats.first { $0.video != nil && $0.video == high } ?? formats[0]
        let duration = initial.video?.defaultFrameDuration ?? .invalid
        let settings = backend.controls?.initialSettings ?? CaptureControlSettings()
        state = ObservedState(State(activeFormat: initial, minFrameDuration: duration, maxFrameDuration: duration,
                                    controlSettings: settings))
        super.init()
        // A device object starts from its controls' initial settings (the virtual camera's all
        // automatic, also when plugged in again; a V4L2 camera's as its driver has them).
        backend.controls?.apply(settings)
        backend.controls?.setStateHandler { [weak self] state in self?.controlStateChanged(state) }
    }

    // MARK: Discovery

    private static let registryLock = NSLock()
    nonisolated(unsafe) private static var known: [String: AVCaptureDevice] = [:]
    private static let logger = Logger(label: "OpenAVFoundation.AVCaptureDevice")

    /// Posted when a device becomes available: plugged in, or plugged in again (as a new
    /// `AVCaptureDevice`); the object is the device.
    public static let wasConnectedNotification: Notification.Name = {
        _ = connectionObservation
        return Notification.Name("AVCaptureDeviceWasConnectedNotification")
    }()
    /// Posted when a device becomes unavailable (unplugged); the object is the device, whose
    /// `isConnected` is now false.
    public static let wasDisconnectedNotification: Notification.Name = {
        _ = connectionObservation
        return Notification.Name("AVCaptureDeviceWasDisconnectedNotification")
    }()

    /// The devices discovery lists now, hardware first, each wrapped once while it stays
    /// connected.
    static func listed() -> [AVCaptureDevice] {
        _ = connectionObservation
        let selection: DeviceSelection
        do {
            selection = try DeviceSelection(environment: ProcessInfo.processInfo.environment)
        } catch {
            logger.warning("\(error); listing all capture devices")
            selection = .all
        }
        return CaptureDeviceRegistry.devices(for: selection).map(wrapper)
    }

    /// The device object of a backend: the known one, or a new one when there is none, the known
    /// one was unplugged since, or the unique ID now names another backend (a sound server
    /// started again with the same source names). (Also how tests reach a device that discovery
    /// does not list, such as an ALSA PCM of a private configuration.)
    static func wrapper(of backend: any CaptureDeviceBackend) -> AVCaptureDevice {
        registryLock.withLock {
            if let device = known[backend.uniqueID], device.backend === backend, device.isConnected || !backend.isConnected {
                return device
            }
            let device = AVCaptureDevice(backend: backend)
            known[backend.uniqueID] = device
            return device
        }
    }

    /// Turns the device layer's connection changes into `isConnected` and the notifications;
    /// made when devices are first listed or a client first names one of the notifications.
    private static let connectionObservation = CaptureDeviceRegistry.addConnectionObserver { backend, isConnected in
        if isConnected {
            NotificationCenter.default.post(name: wasConnectedNotification, object: wrapper(of: backend))
        } else if let device = registryLock.withLock({ known[backend.uniqueID] }), device.backend === backend {
            device.state.unplugged = true
            NotificationCenter.default.post(name: wasDisconnectedNotification, object: device)
        }
    }

    /// The default device for a media type: the first listed, so hardware before virtual devices.
    public static func `default`(for mediaType: AVMediaType) -> AVCaptureDevice? {
        listed().first { $0.hasMediaType(mediaType) }
    }

    /// The default device of a type, for a media type, at a position (`.unspecified`: any).
    public static func `default`(_ deviceType: DeviceType, for mediaType: AVMediaType?,
                                 position: Position) -> AVCaptureDevice? {
        DiscoverySession(deviceTypes: [deviceType], mediaType: mediaType, position: position).devices.first
    }

    /// All capture devices. Deprecated by Apple in favour of `DiscoverySession`, kept because
    /// the guide uses it.
    @available(*, deprecated, message: "Use AVCaptureDevice.DiscoverySession instead.")
    public static func devices() -> [AVCaptureDevice] { listed() }

    /// The capture devices of a media type. Deprecated by Apple in favour of `DiscoverySession`,
    /// kept because the guide uses it.
    @available(*, deprecated, message: "Use AVCaptureDevice.DiscoverySession instead.")
    public static func devices(for mediaType: AVMediaType) -> [AVCaptureDevice] {
        listed().filter { $0.hasMediaType(mediaType) }
    }

    /// Whether the app may capture media of a type: `.denied` when a camera node refuses this
    /// user (not in the `video` group; the reason is logged as a warning), else `.authorized`
    /// when a device of the type is listed, else `.denied`. Linux has no per-app capture
    /// permission: what decides is whether the device can be opened.
    public static func authorizationStatus(for mediaType: AVMediaType) -> AVAuthorizationStatus {
        if mediaType == .video, let problem = CaptureDeviceRegistry.accessProblem(for: .video) {
            logger.warning("\(problem)")
            return .denied
        }
        return listed().contains { $0.hasMediaType(mediaType) } ? .authorized : .denied
    }

    /// Asks for capture access; `handler` gets whether `authorizationStatus(for:)` is
    /// `.authorized`, on an arbitrary queue. No prompt is shown on Linux.
    public static func requestAccess(for mediaType: AVMediaType,
                                     completionHandler handler: @escaping @Sendable (Bool) -> Void) {
        let granted = authorizationStatus(for: mediaType) == .authorized
        DispatchQueue.global().async { handler(granted) }
    }

    /// Asks for capture access and returns whether it is granted.
    public static func requestAccess(for mediaType: AVMediaType) async -> Bool {
        authorizationStatus(for: mediaType) == .authorized
    }

    // MARK: Identity

    /// An identifier stable across runs, unique among the devices.
    public var uniqueID: String { backend.uniqueID }
    /// The model of the device: the same for identical devices.
    public var modelID: String { backend.modelID }
    /// The name people see.
    public var localizedName: String { backend.localizedName }
    /// Who made the device ("OpenAVFoundation" for the virtual devices).
    public var manufacturer: String { backend.manufacturer }

    /// The kind of device: `.builtInWideAngleCamera` for the Test Pattern Camera, `.external`
    /// for hardware cameras, `.microphone` for microphones.
    public var deviceType: DeviceType {
        switch backend.mediaKind {
        case .audio: .microphone
        case .video: backend.isVirtual ? .builtInWideAngleCamera : .external
        }
    }

    /// Where the device faces: `.unspecified` for hardware on Linux (a USB camera has no front
    /// or back); added virtual cameras may say `.front` or `.back`.
    public var position: Position {
        switch backend.position {
        case .unspecified: .unspecified
        case .back: .back
        case .front: .front
        }
    }

    /// Whether the device is present and usable. Once false (unplugged) it stays false: a
    /// device plugged in again is a new `AVCaptureDevice` object, as on Apple platforms.
    public var isConnected: Bool { !state.unplugged && backend.isConnected }

    /// Whether the device is made of several cameras working as one (Apple's dual and triple
    /// cameras): false for every device here. (The Test Pattern Camera is virtual in another
    /// sense: it has no hardware.)
    public var isVirtualDevice: Bool { false }

    /// The cameras a virtual device is made of: none, no device here is one.
    public var constituentDevices: [AVCaptureDevice] { [] }

    /// Whether the device is suspended by the system (a closed laptop lid on macOS): false, no
    /// device here is.
    public var isSuspended: Bool { false }

    /// Whether the device delivers media of a type.
    public func hasMediaType(_ mediaType: AVMediaType) -> Bool {
        switch backend.mediaKind {
        case .video: mediaType == .video
        case .audio: mediaType == .audio
        }
    }

    /// The media type the device delivers.
    var mediaType: AVMediaType { backend.mediaKind == .video ? .video : .audio }

    /// Whether a session preset can be used with the device: for cameras, whether one of its
    /// formats has the preset's size (a V4L2 camera: a format at least that large, the nearest
    /// of which the session picks); microphones support every preset.
    public func supportsSessionPreset(_ preset: AVCaptureSession.Preset) -> Bool {
        if backend.mediaKind == .audio || preset == .inputPriority { return true }
        return presetFormat(preset) != nil
    }

    /// The format a session preset selects on this camera (nil: none, or not a camera): the
    /// nearest covering format for a V4L2 camera without the preset's exact size.
    func presetFormat(_ preset: AVCaptureSession.Preset) -> CaptureVideoFormat? {
        preset.videoFormat(among: backend.videoFormats, nearest: !backend.isVirtual)
    }

    // MARK: Configuration

    /// Takes the device's configuration lock, needed to set `activeFormat` and the frame
    /// durations. Throws `AVError.deviceNotConnected` for a device that is gone.
    ///
    /// Differs from Apple: the lock is counted, not exclusive between processes.
    public func lockForConfiguration() throws {
        guard isConnected else {
            throw AVError(.deviceNotConnected, reason: "\(localizedName) is not connected")
        }
        state.update { $0.configurationLockCount += 1 }
    }

    /// Releases the configuration lock taken by `lockForConfiguration()`.
    public func unlockForConfiguration() {
        state.update { $0.configurationLockCount = max(0, $0.configurationLockCount - 1) }
    }

    /// Whether `lockForConfiguration()` is held (taken more often than released).
    var holdsConfigurationLock: Bool { state.configurationLockCount > 0 }

    private static func requireConfigurationLock(_ property: String, in state: State) {
        Misuse.check(state.configurationLockCount > 0, .notLockedForConfiguration(property: property))
    }

    /// The format the device delivers. Setting it needs `lockForConfiguration()`, resets the
    /// frame durations to the format's default (30 fps when supported) and switches the session
    /// the device is in to `.inputPriority`; a running session changes format at once.
    public var activeFormat: Format {
        get { state.activeFormat }
        set {
            state.update { state in
                Self.requireConfigurationLock("activeFormat", in: state)
                Misuse.check(formats.contains(newValue), .activeFormatNotOffered)
                state.setActiveFormat(newValue)
            }
            notify(.activeFormat)
        }
    }

    /// Sets the active format without the configuration lock, as a session applying its preset.
    func applyActiveFormat(_ format: Format) {
        guard format != state.activeFormat else { return }
        state.update { $0.setActiveFormat(format) }
    }

    /// The shortest time between frames (the highest rate), the rate at which the device
    /// delivers. Setting it needs the configuration lock and a duration in one of the active
    /// format's `videoSupportedFrameRateRanges`; `.invalid` restores the default.
    public var activeVideoMinFrameDuration: CMTime {
        get { state.minFrameDuration }
        set {
            state.update { state in
                Self.requireConfigurationLock("activeVideoMinFrameDuration", in: state)
                let duration = Self.validatedDuration(newValue, "activeVideoMinFrameDuration", in: state)
                state.minFrameDuration = duration
                if state.maxFrameDuration < duration { state.maxFrameDuration = duration }
            }
            notify(.frameDuration)
        }
    }

    /// The longest time between frames (the lowest rate). Setting it needs the configuration
    /// lock and a supported duration; `.invalid` restores the default.
    ///
    /// Differs from Apple: the devices here deliver at a constant rate (`activeVideoMinFrameDuration`);
    /// the maximum is stored only.
    public var activeVideoMaxFrameDuration: CMTime {
        get { state.maxFrameDuration }
        set {
            state.update { state in
                Self.requireConfigurationLock("activeVideoMaxFrameDuration", in: state)
                let duration = Self.validatedDuration(newValue, "activeVideoMaxFrameDuration", in: state)
                state.maxFrameDuration = duration
                if state.minFrameDuration > duration { state.minFrameDuration = duration }
            }
            notify(.frameDuration)
        }
    }

    private static func validatedDuration(_ duration: CMTime, _ property: String, in state: State) -> CMTime {
        guard let video = state.activeFormat.video else {
            Misuse.fail(.frameDurationWithoutVideo(property: property))
        }
        guard duration.isValid else { return video.defaultFrameDuration }
        Misuse.check(video.supports(frameDuration: duration), .frameDurationNotSupported(property: property))
        return duration
    }

    /// The frame duration to start the backend with (nil for audio devices: their default).
    var deliveryFrameDuration: CMTime? {
        state.read { $0.activeFormat.video == nil ? nil : $0.minFrameDuration }
    }

    /// Calls `handler` after each client change of the configuration, until removed.
    func addConfigurationObserver(_ owner: AnyObject, _ handler: @escaping @Sendable (ConfigurationChange) -> Void) {
        state.update { $0.observers[ObjectIdentifier(owner)] = handler }
    }

    /// Stops calling an observer added with `addConfigurationObserver`.
    func removeConfigurationObserver(_ owner: AnyObject) {
        state.update { _ = $0.observers.removeValue(forKey: ObjectIdentifier(owner)) }
    }

    private func notify(_ change: ConfigurationChange) {
        for handler in state.read({ Array($0.observers.values) }) { handler(change) }
    }

    // MARK: Controls

    /// What the camera's controls can do (nothing, for a device without controls).
    var controlCapabilities: CaptureControlCapabilities { backend.controls?.capabilities ?? .none }

    /// What the camera's controls are doing, as of the last frame; nil for a device without
    /// controls.
    var controlState: CaptureControlState? { backend.controls?.state }

    /// What the client asked of the controls.
    var requestedControls: CaptureControlSettings { state.controlSettings }

    /// The mode to report: the one asked for, except that a single adjustment (`single`, asked
    /// for by the settings generation `request`) reads as `locked` once a frame shows it done.
    func reportedMode<Mode: Equatable>(asked: Mode, single: Mode, request: UInt64, locked: Mode,
                                       inEffect: (CaptureControlState) -> Mode) -> Mode {
        guard asked == single, let state = controlState, inEffect(state) == locked,
              state.settledGeneration >= request else { return asked }
        return locked
    }

    /// Changes what the client asks of the controls (setting `property`, which needs the
    /// configuration lock, as on Apple platforms); `completion` gets the time of the first
    /// frame showing the change.
    func changeControls(_ property: String, completion: (@Sendable (CMTime) -> Void)? = nil,
                        _ change: (inout CaptureControlSettings) -> Void) {
        let settings = state.update { state -> CaptureControlSettings in
            Self.requireConfigurationLock(property, in: state)
            change(&state.controlSettings)
            state.controlSettings.generation += 1
            if let completion { state.completions.append((state.controlSettings.generation, completion)) }
            return state.controlSettings
        }
        // The camera takes the settings at its next frame; the frames that show them report again.
        backend.controls?.apply(settings)
    }

    /// A frame showed a new state of the controls (on the device's thread).
    private func controlStateChanged(_ state: CaptureControlState) {
        // An update even when no handler is due: the properties read the controls' new state.
        let due = self.state.update { device -> [@Sendable (CMTime) -> Void] in
            let settled = device.completions.prefix { $0.generation <= state.settledGeneration }
            device.completions.removeFirst(settled.count)
            return settled.map(\.handler)
        }
        if !due.isEmpty {
            completionQueue.async { for handler in due { handler(state.time) } }
        }
    }

    /// Observes a property, as key-value observing does on Apple platforms: the adjusting flags,
    /// `lensPosition`, `exposureDuration`, `iso`, `deviceWhiteBalanceGains`, `videoZoomFactor`,
    /// the modes, `isConnected`, `activeFormat`, the frame durations… Reports run on the thread
    /// of the change (for the controls, the camera's); keep the returned observation as long as
    /// reports are wanted.
    public func observe<Value>(_ keyPath: KeyPath<AVCaptureDevice, Value>, options: NSKeyValueObservingOptions = [],
                               changeHandler: @escaping (AVCaptureDevice, NSKeyValueObservedChange<Value>) -> Void)
        -> NSKeyValueObservation {
        state.observers.observe(self, keyPath, options: options, changeHandler: changeHandler)
    }

    /// Whether the device posts `subjectAreaDidChangeNotification` when the scene changes a lot.
    /// Setting it needs the configuration lock. The virtual camera's chart never changes, so it
    /// never posts.
    public var isSubjectAreaChangeMonitoringEnabled: Bool {
        get { state.subjectAreaMonitoring }
        set {
            state.update { state in
                Self.requireConfigurationLock("isSubjectAreaChangeMonitoringEnabled", in: state)
                state.subjectAreaMonitoring = newValue
            }
        }
    }

    /// Posted when the scene in front of a camera monitoring it changed a lot; the object is the
    /// device.
    public static let subjectAreaDidChangeNotification = Notification.Name("AVCaptureDeviceSubjectAreaDidChangeNotification")

    /// A description for debugging.
    public override var description: String {
        "<AVCaptureDevice: \(localizedName) [\(uniqueID)]>"
    }
}
