import CaptureDevices
import Foundation
import HostSystem

/// The app's audio session: which input it records from, at what gain, rate and buffer size,
/// and what it is told when devices come and go.
///
/// Linux: the inputs are the sound server's sources (PulseAudio, or PipeWire through
/// `pipewire-pulse`; monitors of sinks are not inputs), then capture devices without a server
/// (ALSA) and the virtual Test Tone Microphone, as capture discovery lists them
/// (`OPENAV_CAPTURE_DEVICES` applies). Each is an `AVAudioSessionPortDescription` whose
/// `portType` comes from the device's properties. The input gain is the source's volume on the
/// server (a linear factor: 0.5 records 6 dB lower), the output volume the default sink's.
/// Categories, modes and options are accepted and kept; a sound server mixes every client, so
/// none of them silences or ducks another program, and recording works in every category.
/// Record permission is granted whenever an input is listed (Linux asks no user). While the
/// session is active it watches the server: sources plugged in or out post
/// `routeChangeNotification`, the server going away and coming back post
/// `interruptionNotification` (`.began`, `.ended`). Notifications are posted on the session's
/// watching thread, as Apple posts them on a thread of its own.
open class AVAudioSession: NSObject, @unchecked Sendable {
    private static let shared = AVAudioSession()

    /// The one session of the process.
    open class func sharedInstance() -> AVAudioSession { shared }

    /// What the app chose, behind one lock.
    struct State {
        var category = Category.soloAmbient
        var mode = Mode.default
        var options: CategoryOptions = []
        var isActive = false
        var preferredInput: String?
        var preferredDataSources: [String: (source: String, port: String?)] = [:]
        var preferredSampleRate: Double = 0
        var preferredIOBufferDuration: TimeInterval = 0
        var preferredInputNumberOfChannels = 0
        var watcher: SoundServerWatcher?
    }

    let state = Locked(State())

    /// The sound server the session asks (nil: libpulse's default, `PULSE_SERVER` or the
    /// user's); tests point it at a private daemon.
    package var soundServer: String? {
        get { serverAddress.withLock { $0 } }
        set { serverAddress.withLock { $0 = newValue } }
    }

    private let serverAddress = Locked<String?>(nil)

    override init() {
        super.init()
    }

    // MARK: Category, mode, options

    /// The category (`.soloAmbient` until set).
    open var category: Category { state.withLock { $0.category } }
    /// The mode (`.default` until set).
    open var mode: Mode { state.withLock { $0.mode } }
    /// The category's options.
    open var categoryOptions: CategoryOptions { state.withLock { $0.options } }

    /// Sets the category.
    open func setCategory(_ category: Category) throws {
        state.withLock { $0.category = category }
    }

    /// Sets the category and its options.
    open func setCategory(_ category: Category, options: CategoryOptions = []) throws {
        state.withLock { $0.category = category; $0.options = options }
    }

    /// Sets the category, the mode and the options.
    open func setCategory(_ category: Category, mode: Mode, options: CategoryOptions = []) throws {
        state.withLock { $0.category = category; $0.mode = mode; $0.options = options }
    }

    /// Sets the category, the mode, the route-sharing policy (ignored on Linux) and the options.
    open func setCategory(_ category: Category, mode: Mode, policy: RouteSharingPolicy, options: CategoryOptions = []) throws {
        try setCategory(category, mode: mode, options: options)
    }

    /// Sets the mode.
    open func setMode(_ mode: Mode) throws {
        state.withLock { $0.mode = mode }
    }

    /// The categories this platform accepts: all of them.
    open var availableCategories: [Category] { [.ambient, .soloAmbient, .playback, .record, .playAndRecord, .multiRoute] }
    /// The modes this platform accepts: all of them.
    open var availableModes: [Mode] {
        [.default, .voiceChat, .videoChat, .gameChat, .videoRecording, .measurement, .moviePlayback, .spokenAudio, .voicePrompt]
    }

    /// How the route is shared (always `.default` on Linux).
    open var routeSharingPolicy: RouteSharingPolicy { .default }

    // MARK: Activation

    /// Activates or deactivates the session. Active, it watches the sound server for route
    /// changes and interruptions (on a thread of its own, `OpenAVFAudio.AVAudioSession`).
    open func setActive(_ active: Bool, options: SetActiveOptions = []) throws {
        let (start, stop): (SoundServerWatcher?, SoundServerWatcher?) = state.withLock { state in
            defer { state.isActive = active }
            if active, state.watcher == nil {
                state.watcher = SoundServerWatcher(session: self, server: soundServer)
                return (state.watcher, nil)
            }
            if !active, let watcher = state.watcher {
                state.watcher = nil
                return (nil, watcher)
            }
            return (nil, nil)
        }
        start?.start()
        stop?.stop()
    }

    /// Whether other programs play sound now: always false on Linux, where every program's
    /// sound mixes on the server and nothing needs to give way.
    open var isOtherAudioPlaying: Bool { false }
    /// Whether the app should mute its secondary audio (never on Linux: everything mixes).
    open var secondaryAudioShouldBeSilencedHint: Bool { false }

    // MARK: Inputs

    /// The inputs the app may record from, the server's default source first.
    open var availableInputs: [AVAudioSessionPortDescription]? {
        inputEntries().map(\.port)
    }

    /// Whether an input is available.
    open var isInputAvailable: Bool { !inputEntries().isEmpty }

    /// The input chosen with `setPreferredInput(_:)`, if it is still available.
    open var preferredInput: AVAudioSessionPortDescription? {
        guard let uid = state.withLock({ $0.preferredInput }) else { return nil }
        return inputEntries().first { $0.port.uid == uid }?.port
    }

    /// Chooses the input to record from (nil: the default). The recorder records from it.
    /// Throws `.badParam` for a port that is not an available input.
    open func setPreferredInput(_ inPort: AVAudioSessionPortDescription?) throws {
        if let inPort, !inputEntries().contains(where: { $0.port.uid == inPort.uid }) {
            throw Self.error(.badParam, "\(inPort.portName) is not an available input")
        }
        let previous = currentRoute
        let changed = state.withLock { state -> Bool in
            defer { state.preferredInput = inPort?.uid }
            return state.preferredInput != inPort?.uid
        }
        if changed { postRouteChange(.override, previous: previous) }
    }

    /// The data source chosen for a port.
    func preferredDataSource(ofPort uid: String) -> AVAudioSessionDataSourceDescription? {
        guard let chosen = state.withLock({ $0.preferredDataSources[uid] }) else { return nil }
        return inputEntries().first { $0.port.uid == uid }?.port.dataSources?
            .first { $0.sourceName == chosen.source && $0.portName == chosen.port }
    }

    /// Remembers a port's data source, switching the source's port on the server when the data
    /// source is a port.
    func setPreferredDataSource(_ dataSource: AVAudioSessionDataSourceDescription?, ofPort uid: String) throws {
        if let dataSource, let port = dataSource.portName {
            do {
                try PulseAudioDiscovery.setActivePort(ofSource: dataSource.sourceName, to: port, server: soundServer)
            } catch {
                throw Self.error(.cannotStartRecording, "\(error)")
            }
        }
        state.withLock { $0.preferredDataSources[uid] = dataSource.map { ($0.sourceName, $0.portName) } }
    }

    /// The data sources of the current input's port, or nil.
    open var inputDataSources: [AVAudioSessionDataSourceDescription]? { currentInput()?.port.dataSources }
    /// The current input's selected data source.
    open var inputDataSource: AVAudioSessionDataSourceDescription? { currentInput()?.port.selectedDataSource }

    /// Chooses a data source of the current input.
    open func setInputDataSource(_ dataSource: AVAudioSessionDataSourceDescription?) throws {
        guard let port = currentInput()?.port else { throw Self.error(.badParam, "no input") }
        try port.setPreferredDataSource(dataSource)
    }

    /// The route now: the input recorded (the preferred input, else the server's default
    /// source, else the first input) and the default sink.
    open var currentRoute: AVAudioSessionRouteDescription {
        let snapshot = serverSnapshot()
        let input = currentInput(entries: inputEntries(snapshot))
        let outputs = (snapshot?.sinks.first).map { [outputPort($0)] } ?? []
        return AVAudioSessionRouteDescription(inputs: input.map { [$0.port] } ?? [], outputs: outputs)
    }

    // MARK: Gain and volume

    /// The current input's gain, 0 to 1: its source's volume as a linear factor (1 when the
    /// input has no volume).
    open var inputGain: Float {
        guard let source = currentInput()?.source else { return 1 }
        return Float(min(1, source.volume))
    }

    /// Whether the gain can be set: the current input is a sound-server source.
    open var isInputGainSettable: Bool { currentInput()?.source != nil }

    /// Sets the current input's gain, 0 to 1: its source's volume on the server, as a linear
    /// factor (0.5 records 6.02 dB lower). Throws `.badParam` outside 0...1 or when the gain is
    /// not settable.
    open func setInputGain(_ gain: Float) throws {
        guard (0...1).contains(gain) else { throw Self.error(.badParam, "a gain is from 0 to 1, not \(gain)") }
        guard let source = currentInput()?.source else { throw Self.error(.badParam, "the input has no settable gain") }
        do {
            try PulseAudioDiscovery.setVolume(ofSource: source.name, to: Double(gain), channels: source.channelCount, server: soundServer)
        } catch {
            throw Self.error(.unspecified, "\(error)")
        }
    }

    /// The default sink's volume, 0 to 1 (1 without a server).
    open var outputVolume: Float {
        guard let sink = serverSnapshot()?.sinks.first else { return 1 }
        return Float(min(1, sink.volume))
    }

    // MARK: Rates and buffers

    /// Asks for a sample rate; kept, and reported as `preferredSampleRate`. The recorder
    /// records at its settings' rate; capture at the device's.
    open func setPreferredSampleRate(_ sampleRate: Double) throws {
        guard sampleRate >= 0 else { throw Self.error(.badParam, "a sample rate is positive, not \(sampleRate)") }
        state.withLock { $0.preferredSampleRate = sampleRate }
    }

    /// The rate asked for (0 until asked).
    open var preferredSampleRate: Double { state.withLock { $0.preferredSampleRate } }

    /// The current input's sample rate (the server's source rate; 48 kHz without an input).
    open var sampleRate: Double { Double(currentInput()?.format?.sampleRate ?? 48_000) }

    /// Asks for an I/O buffer duration; the recorder reads its input in buffers of this length
    /// (from 1 ms to 1 s).
    open func setPreferredIOBufferDuration(_ duration: TimeInterval) throws {
        guard duration >= 0 else { throw Self.error(.badParam, "a buffer duration is positive, not \(duration)") }
        state.withLock { $0.preferredIOBufferDuration = duration }
    }

    /// The duration asked for (0 until asked).
    open var preferredIOBufferDuration: TimeInterval { state.withLock { $0.preferredIOBufferDuration } }

    /// The I/O buffer duration in use: the preferred one, bounded to 1 ms...1 s, else 10 ms.
    open var ioBufferDuration: TimeInterval {
        let preferred = preferredIOBufferDuration
        return preferred > 0 ? min(1, max(0.001, preferred)) : 0.01
    }

    /// The current input's channel count.
    open var inputNumberOfChannels: Int { currentInput()?.format?.channelCount ?? 0 }
    /// The input's largest channel count.
    open var maximumInputNumberOfChannels: Int { inputNumberOfChannels }
    /// The default sink's channel count (2 without a server).
    open var outputNumberOfChannels: Int { serverSnapshot()?.sinks.first?.device.channelNames.count ?? 2 }
    /// The output's largest channel count.
    open var maximumOutputNumberOfChannels: Int { outputNumberOfChannels }
    /// Asks for an input channel count; kept.
    open func setPreferredInputNumberOfChannels(_ count: Int) throws {
        guard count >= 0 else { throw Self.error(.badParam, "a channel count is positive") }
        state.withLock { $0.preferredInputNumberOfChannels = count }
    }
    /// The input channel count asked for.
    open var preferredInputNumberOfChannels: Int { state.withLock { $0.preferredInputNumberOfChannels } }
    /// The input's latency, in seconds (one buffer).
    open var inputLatency: TimeInterval { ioBufferDuration }
    /// The output's latency, in seconds (the players' 100 ms stream buffer).
    open var outputLatency: TimeInterval { 0.1 }

    // MARK: Permission

    /// Granted when an input is listed, else denied: Linux asks no user.
    open var recordPermission: RecordPermission { isInputAvailable ? .granted : .denied }

    /// Calls `response` with whether recording is allowed (on a queue of the session's).
    open func requestRecordPermission(_ response: @escaping @Sendable (Bool) -> Void) {
        let granted = recordPermission == .granted
        DispatchQueue.global().async { response(granted) }
    }

    // MARK: Errors

    /// An `NSError` in `NSOSStatusErrorDomain` with a session code.
    static func error(_ code: ErrorCode, _ reason: String) -> NSError {
        NSError(domain: NSOSStatusErrorDomain, code: code.rawValue, userInfo: [NSLocalizedFailureReasonErrorKey: reason])
    }

    // MARK: Listing

    /// One input: its port, and what records from it.
    struct InputEntry {
        var port: AVAudioSessionPortDescription
        /// The sound-server source recorded (after the data source), when a server lists it.
        var source: PulseAudioSource?
        /// The capture device's unique ID.
        var deviceID: String
        /// The device's own format.
        var format: (sampleRate: Int, channelCount: Int)?
    }

    /// The server's state now, or nil without a server.
    func serverSnapshot() -> PulseAudioServerState? {
        try? PulseAudioDiscovery.serverState(server: soundServer)
    }

    /// The inputs: the server's sources (not monitors), grouped by card where a card has
    /// several sources of one kind; then the other capture microphones (ALSA, virtual).
    func inputEntries(_ snapshot: PulseAudioServerState?? = nil) -> [InputEntry] {
        let snapshot = snapshot ?? serverSnapshot()
        let chosen = state.withLock { $0.preferredDataSources }
        var entries: [InputEntry] = []
        var groups: [(key: String, type: AVAudioSession.Port, sources: [PulseAudioSource])] = []
        for source in snapshot?.sources ?? [] where !source.isMonitor {
            let type = Self.portType(source.device)
            let key = source.device.busPath ?? source.name
            if let index = groups.firstIndex(where: { $0.key == key && $0.type == type }) {
                groups[index].sources.append(source)
            } else {
                groups.append((key, type, [source]))
            }
        }
        for group in groups {
            let first = group.sources[0]
            let uid = first.name
            var dataSources: [AVAudioSessionDataSourceDescription]?
            var selected: AVAudioSessionDataSourceDescription?
            var recorded = first
            if group.sources.count > 1 {
                dataSources = group.sources.enumerated().map {
                    AVAudioSessionDataSourceDescription(id: $0.offset, name: $0.element.description, sourceName: $0.element.name,
                                                        portName: nil, hint: $0.element.name + " " + $0.element.description)
                }
                let choice = chosen[uid]
                selected = dataSources?.first { $0.sourceName == choice?.source } ?? dataSources?.first
                recorded = group.sources.first { $0.name == selected?.sourceName } ?? first
            } else if first.device.ports.count > 1 {
                dataSources = first.device.ports.enumerated().map {
                    AVAudioSessionDataSourceDescription(id: $0.offset, name: $0.element.description, sourceName: first.name,
                                                        portName: $0.element.name, hint: $0.element.name + " " + $0.element.description)
                }
                selected = dataSources?.first { $0.portName == first.activePort }
            }
            let port = AVAudioSessionPortDescription(
                portType: group.type, portName: group.sources.count > 1 ? (first.product ?? first.description) : first.description,
                uid: uid, deviceName: recorded.name, channelNames: recorded.device.channelNames,
                dataSources: dataSources, selected: selected, session: self)
            entries.append(InputEntry(port: port, source: recorded, deviceID: recorded.name,
                                      format: (recorded.sampleRate, recorded.channelCount)))
        }
        let listed = Set((snapshot?.sources ?? []).map(\.name))
        let selection = (try? DeviceSelection(environment: ProcessInfo.processInfo.environment)) ?? .all
        let devices = PulseAudioDiscovery.$server.withValue(soundServer) {
            CaptureDeviceRegistry.devices(for: selection, mediaKind: .audio)
        }
        for device in devices where !listed.contains(device.uniqueID) && !(device is PulseAudioMicrophone) {
            let format = device.audioFormats.first
            let port = AVAudioSessionPortDescription(
                portType: device.isVirtual ? .virtual : device.localizedName.lowercased().contains("usb") ? .usbAudio : .builtInMic,
                portName: device.localizedName, uid: device.uniqueID, deviceName: device.uniqueID,
                channelNames: (0..<(format?.channelCount ?? 1)).map { "channel \($0 + 1)" },
                dataSources: nil, selected: nil, session: self)
            entries.append(InputEntry(port: port, source: nil, deviceID: device.uniqueID,
                                      format: format.map { ($0.sampleRate, $0.channelCount) }))
        }
        return entries
    }

    /// The input recorded now: the preferred one, else the server's default source (when not a
    /// monitor), else the first.
    func currentInput(entries: [InputEntry]? = nil) -> InputEntry? {
        let entries = entries ?? inputEntries()
        if let uid = state.withLock({ $0.preferredInput }), let entry = entries.first(where: { $0.port.uid == uid }) {
            return entry
        }
        return entries.first
    }

    /// The capture device the recorder records from, and the port it belongs to.
    package func recordingDevice() -> (device: any CaptureDeviceBackend, portUID: String)? {
        guard let input = currentInput() else { return nil }
        let selection = (try? DeviceSelection(environment: ProcessInfo.processInfo.environment)) ?? .all
        let device = PulseAudioDiscovery.$server.withValue(soundServer) {
            CaptureDeviceRegistry.devices(for: selection, mediaKind: .audio).first { $0.uniqueID == input.deviceID }
        }
        return device.map { ($0, input.port.uid) }
    }

    /// A sink as an output port.
    private func outputPort(_ sink: PulseAudioSink) -> AVAudioSessionPortDescription {
        let device = sink.device
        let type: Port = switch (device.bus, device.formFactor) {
        case ("bluetooth", _): device.bluetoothProtocol?.contains("a2dp") == true ? .bluetoothA2DP : .bluetoothHFP
        case ("usb", _): .usbAudio
        case (_, "headphone"?), (_, "headset"?): .headphones
        case (_, "internal"?), (_, "speaker"?): .builtInSpeaker
        default: device.iconName?.contains("hdmi") == true || sink.name.contains("hdmi") ? .HDMI : .lineOut
        }
        return AVAudioSessionPortDescription(portType: type, portName: sink.description, uid: sink.name, deviceName: sink.name,
                                             channelNames: device.channelNames, dataSources: nil, selected: nil, session: self)
    }

    /// An input's port type from its device properties: Bluetooth (hands-free) first, then
    /// USB, then a headset's microphone, then line in, else a built-in microphone.
    static func portType(_ device: PulseAudioDeviceProperties) -> Port {
        let icon = device.iconName ?? ""
        if device.bus == "bluetooth" || icon.contains("bluetooth") { return .bluetoothHFP }
        if device.bus == "usb" { return .usbAudio }
        if device.formFactor == "headset" || device.formFactor == "handset" || icon.contains("headset") { return .headsetMic }
        if device.formFactor == nil, device.ports.count == 1, device.ports[0].name.contains("line") { return .lineIn }
        if icon.contains("line") { return .lineIn }
        return .builtInMic
    }

    // MARK: Notifications

    /// Posts a route change with its reason and the route before it.
    func postRouteChange(_ reason: RouteChangeReason, previous: AVAudioSessionRouteDescription?) {
        var info: [AnyHashable: Any] = [AVAudioSessionRouteChangeReasonKey: reason.rawValue]
        if let previous { info[AVAudioSessionRouteChangePreviousRouteKey] = previous }
        NotificationCenter.default.post(name: Self.routeChangeNotification, object: self, userInfo: info)
    }

    /// Posts an interruption's beginning or end.
    func postInterruption(_ type: InterruptionType) {
        var info: [AnyHashable: Any] = [AVAudioSessionInterruptionTypeKey: type.rawValue]
        if type == .ended { info[AVAudioSessionInterruptionOptionKey] = InterruptionOptions.shouldResume.rawValue }
        NotificationCenter.default.post(name: Self.interruptionNotification, object: self, userInfo: info)
    }
}
