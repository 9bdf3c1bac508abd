import Foundation
import Testing
import OpenAVFAudio
import OpenCoreMedia
import TestSupport

/// AVAudioSession against a private PulseAudio daemon with sine sources carrying the device
/// properties of a USB microphone, a headset, a Bluetooth headset and a laptop's two built-in
/// microphones (one card, `device.bus_path`): port types, data sources, the spec article's
/// microphone selection, the recorder honouring the preferred input (each source has its own
/// frequency), gain measured on the recorded file, route changes and interruptions. The
/// session is the process's one: the suite runs in the real-time phase, one test at a time.
@Suite(.serialized, .timeLimit(.minutes(10))) struct AVAudioSessionTests {
    /// A daemon with the sources, and the session pointed at it.
    final class Server {
        let daemon: PulseAudioDaemon
        let session = AVAudioSession.sharedInstance()
        static let frequencies = ["usb_mic": 300, "headset_mic": 500, "builtin_front": 700, "builtin_rear": 900, "bt_headset": 1100]

        init() throws {
            daemon = try PulseAudioDaemon()
            try daemon.loadSineSource(name: "usb_mic", frequency: 300, properties: [
                "device.bus": "usb", "device.description": "USB-Microphone", "device.icon_name": "audio-input-microphone-usb"])
            try daemon.loadSineSource(name: "headset_mic", frequency: 500, properties: [
                "device.form_factor": "headset", "device.bus": "pci", "device.bus_path": "pci-0000:00:1f.3-headset",
                "device.description": "Headset-Microphone"])
            try daemon.loadSineSource(name: "builtin_front", frequency: 700, properties: [
                "device.form_factor": "internal", "device.bus": "pci", "device.bus_path": "pci-0000:00:1f.3",
                "device.description": "Front-Microphone", "device.product.name": "Built-in-Audio"])
            try daemon.loadSineSource(name: "builtin_rear", frequency: 900, properties: [
                "device.form_factor": "internal", "device.bus": "pci", "device.bus_path": "pci-0000:00:1f.3",
                "device.description": "Rear-Microphone", "device.product.name": "Built-in-Audio"])
            try daemon.loadSineSource(name: "bt_headset", frequency: 1100, properties: [
                "device.bus": "bluetooth", "device.form_factor": "headset", "device.description": "BT-Headset",
                "bluetooth.protocol": "headset_head_unit"])
            try daemon.pactl(["set-default-source", "usb_mic"])
            session.soundServer = daemon.server
            try session.setPreferredInput(nil)
        }

        deinit {
            try? session.setActive(false)
            try? session.setPreferredInput(nil)
            session.soundServer = nil
            daemon.stop()
        }

        /// Records `seconds` of the session's input to a WAV; its mono samples.
        func record(seconds: Double) throws -> [Float] {
            let url = Fixtures.folder.appendingPathComponent("session-\(UUID().uuidString).wav")
            defer { try? FileManager.default.removeItem(at: url) }
            let recorder = try AVAudioRecorder(url: url, settings: [
                AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 1,
                AVLinearPCMBitDepthKey: 32, AVLinearPCMIsFloatKey: true])
            let finished = Finished()
            recorder.delegate = finished
            #expect(recorder.record(forDuration: seconds))
            #expect(finished.wait(timeout: seconds + 10) == true)
            return try DecodedAudio.samples(of: url)
        }
    }

    @Test func categoriesModesOptionsRatesAndBuffersAreKept() throws {
        let session = AVAudioSession.sharedInstance()
        try session.setCategory(.record, mode: .measurement, options: [.mixWithOthers, .allowBluetooth])
        #expect(session.category == .record && session.mode == .measurement && session.categoryOptions == [.mixWithOthers, .allowBluetooth])
        try session.setCategory(.playback)
        #expect(session.category == .playback && session.mode == .measurement)
        try session.setCategory(.playAndRecord, options: .defaultToSpeaker)
        #expect(session.categoryOptions == .defaultToSpeaker)
        try session.setMode(.default)
        #expect(session.availableCategories.contains(.multiRoute) && session.availableModes.contains(.voiceChat))
        try session.setPreferredIOBufferDuration(0.005)
        #expect(session.preferredIOBufferDuration == 0.005 && session.ioBufferDuration == 0.005)
        try session.setPreferredIOBufferDuration(5)
        #expect(session.ioBufferDuration == 1, "at most a second")
        try session.setPreferredIOBufferDuration(0)
        #expect(session.ioBufferDuration == 0.01, "10 ms by default")
        #expect(throws: NSError.self) { try session.setPreferredSampleRate(-1) }
        try session.setActive(true, options: .notifyOthersOnDeactivation)
        try session.setActive(false)
        let granted = DispatchSemaphore(value: 0)
        session.requestRecordPermission { if $0 { granted.signal() } }
        #expect(granted.wait(timeout: .now() + 10) == .success, "the Test Tone Microphone is listed")
    }

    @Test func portTypesComeFromTheDeviceProperties() throws {
        let server = try Server()
        let inputs = try #require(server.session.availableInputs)
        let types = Dictionary(uniqueKeysWithValues: inputs.map { ($0.uid, $0.portType) })
        #expect(types["usb_mic"] == .usbAudio)
        #expect(types["headset_mic"] == .headsetMic)
        #expect(types["builtin_front"] == .builtInMic)
        #expect(types["bt_headset"] == .bluetoothHFP)
        // The card's two built-in microphones are one port with two data sources; no monitor is an input.
        #expect(types["builtin_rear"] == nil)
        #expect(!inputs.contains { $0.uid.hasSuffix(".monitor") })
        #expect(inputs.first?.uid == "usb_mic", "the default source first")
        let builtIn = try #require(inputs.first { $0.portType == .builtInMic })
        #expect(builtIn.portName == "Built-in-Audio")
        #expect(builtIn.dataSources?.map(\.dataSourceName) == ["Front-Microphone", "Rear-Microphone"])
        #expect(builtIn.dataSources?.map(\.orientation) == [.front, .back])
        #expect(builtIn.channels?.map(\.channelName) == ["mono"])
        #expect(server.session.isInputAvailable && server.session.recordPermission == .granted)
        #expect(server.session.currentRoute.inputs.map(\.uid) == ["usb_mic"])
        #expect(server.session.currentRoute.outputs.map(\.uid) == [server.daemon.sinkName])
        #expect(server.session.sampleRate == Double(server.daemon.sampleRate))
        #expect(server.session.inputNumberOfChannels == 1)
        try server.daemon.pactl(["set-sink-volume", server.daemon.sinkName, "50%"])
        #expect(abs(server.session.outputVolume - 0.125) < 0.01, "50 % on PulseAudio's cubic scale")
    }

    /// The spec article's example (video-capture-pipelines, "audio input"), as written in Swift.
    @Test func theSpecArticlesMicrophoneSelectionRuns() throws {
        let server = try Server()
        // Configure the audio session
        let audioSession = AVAudioSession.sharedInstance()
        try audioSession.setCategory(.playAndRecord)
        try audioSession.setActive(true)
        // Find the desired input port
        let inputs = audioSession.availableInputs ?? []
        var builtInMic: AVAudioSessionPortDescription?
        for port in inputs where port.portType == .builtInMic {
            builtInMic = port
            break
        }
        // Find the desired microphone
        for source in builtInMic?.dataSources ?? [] where source.orientation == .front {
            try builtInMic?.setPreferredDataSource(source)
            try audioSession.setPreferredInput(builtInMic)
            break
        }
        // Gain and sample rate
        try audioSession.setInputGain(0.5)
        try audioSession.setPreferredSampleRate(48_000)

        #expect(audioSession.category == .playAndRecord)
        #expect(audioSession.preferredInput?.uid == builtInMic?.uid)
        #expect(audioSession.preferredInput?.selectedDataSource?.orientation == .front)
        #expect(audioSession.preferredInput?.preferredDataSource?.dataSourceName == "Front-Microphone")
        #expect(audioSession.currentRoute.inputs.first?.portType == .builtInMic)
        #expect(abs(audioSession.inputGain - 0.5) < 0.01)
        #expect(audioSession.preferredSampleRate == 48_000)
        #expect(try server.daemon.pactl(["get-source-volume", "builtin_front"]).contains("79%"), "0.5 linear is 79 % cubic")
        // The recorder records the front microphone (700 Hz).
        let samples = try server.record(seconds: 1)
        #expect(abs(DecodedAudio.frequency(samples, sampleRate: 48_000) - 700) < 2)
    }

    @Test func theRecorderRecordsThePreferredInput() throws {
        let server = try Server()
        let session = server.session
        let inputs = try #require(session.availableInputs)
        // The default source (the USB microphone) when nothing is preferred.
        #expect(abs(DecodedAudio.frequency(try server.record(seconds: 0.5), sampleRate: 48_000) - 300) < 2)
        try session.setPreferredInput(try #require(inputs.first { $0.portType == .headsetMic }))
        #expect(abs(DecodedAudio.frequency(try server.record(seconds: 0.5), sampleRate: 48_000) - 500) < 2)
        let builtIn = try #require(inputs.first { $0.portType == .builtInMic })
        try builtIn.setPreferredDataSource(try #require(builtIn.dataSources?.first { $0.orientation == .back }))
        try session.setPreferredInput(builtIn)
        #expect(abs(DecodedAudio.frequency(try server.record(seconds: 0.5), sampleRate: 48_000) - 900) < 2)
        #expect(session.currentRoute.inputs.first?.selectedDataSource?.dataSourceName == "Rear-Microphone")
    }

    @Test func aSourceRecordsAtTheSettingsRate() throws {
        let server = try Server()
        let url = Fixtures.folder.appendingPathComponent("session-\(UUID().uuidString).m4a")
        defer { try? FileManager.default.removeItem(at: url) }
        // The 48 kHz mono USB microphone into 44.1 kHz stereo AAC: the server converts.
        let recorder = try AVAudioRecorder(url: url, settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44_100,
                                                                AVNumberOfChannelsKey: 2])
        let finished = Finished()
        recorder.delegate = finished
        #expect(recorder.record(forDuration: 1))
        #expect(finished.wait(timeout: 10) == true)
        let probe = try #require((try Fixtures.probe(url)["streams"] as? [[String: Any]])?.first)
        #expect(probe["sample_rate"] as? String == "44100" && probe["channels"] as? Int == 2)
        let samples = try DecodedAudio.samples(of: url)
        // AAC in M4A as AudioFileEncoding writes it decodes with its last packet's padding (no
        // edit list marks it): within one 1024-frame packet.
        #expect(samples.count >= 44_100 && samples.count < 44_100 + 1024, "\(samples.count) frames")
        let frequency = DecodedAudio.frequency(Array(samples.dropFirst(4410).dropLast(4410)), sampleRate: 44_100)
        #expect(abs(frequency - 300) < 2, "\(frequency) Hz")
    }

    @Test func gainChangesTheRecordedLevelByTheAmountSet() throws {
        let server = try Server()
        let session = server.session
        try session.setPreferredInput(try #require(session.availableInputs?.first { $0.portType == .usbAudio }))
        #expect(session.isInputGainSettable)
        try session.setInputGain(1)
        let full = DecodedAudio.rmsDecibels(try server.record(seconds: 0.5).dropFirst(2400))
        try session.setInputGain(0.5)
        #expect(abs(session.inputGain - 0.5) < 0.01)
        let half = DecodedAudio.rmsDecibels(try server.record(seconds: 0.5).dropFirst(2400))
        try session.setInputGain(0.25)
        let quarter = DecodedAudio.rmsDecibels(try server.record(seconds: 0.5).dropFirst(2400))
        #expect(abs((half - full) - 20 * log10(0.5)) < 0.2, "0.5: \(half - full) dB")
        #expect(abs((quarter - full) - 20 * log10(0.25)) < 0.2, "0.25: \(quarter - full) dB")
        #expect(throws: NSError.self) { try session.setInputGain(1.5) }
    }

    @Test func loadingAndUnloadingASourceChangesTheRoute() throws {
        let server = try Server()
        let reasons = Notifications(AVAudioSession.routeChangeNotification, key: AVAudioSessionRouteChangeReasonKey)
        try server.session.setActive(true)
        let module = try server.daemon.loadSineSource(name: "plugged_usb", frequency: 440, properties: ["device.bus": "usb"])
        #expect(reasons.wait(for: AVAudioSession.RouteChangeReason.newDeviceAvailable.rawValue, timeout: 10))
        #expect(server.session.availableInputs?.contains { $0.uid == "plugged_usb" && $0.portType == .usbAudio } == true)
        try server.daemon.unloadModule(module)
        #expect(reasons.wait(for: AVAudioSession.RouteChangeReason.oldDeviceUnavailable.rawValue, timeout: 10))
        #expect(server.session.availableInputs?.contains { $0.uid == "plugged_usb" } == false)
    }

    @Test func killingAndRestartingTheServerInterrupts() throws {
        let server = try Server()
        let types = Notifications(AVAudioSession.interruptionNotification, key: AVAudioSessionInterruptionTypeKey)
        try server.session.setActive(true)
        server.daemon.kill()
        #expect(types.wait(for: AVAudioSession.InterruptionType.began.rawValue, timeout: 10))
        try server.daemon.restart()
        #expect(types.wait(for: AVAudioSession.InterruptionType.ended.rawValue, timeout: 10))
        #expect(server.session.currentRoute.outputs.map(\.uid) == [server.daemon.sinkName], "the server answers again")
    }
}

/// A delegate that signals the recording's end.
final class Finished: AVAudioRecorderDelegate, @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var flag: Bool?

    func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool) {
        lock.withLock { self.flag = flag }
        done.signal()
    }

    /// Waits for the end; whether it was successful (nil: no end within `timeout`).
    func wait(timeout: TimeInterval) -> Bool? {
        guard done.wait(timeout: .now() + timeout) == .success else { return nil }
        return lock.withLock { flag }
    }
}

/// Collects one notification's user-info values for a key, to wait for one.
final class Notifications: @unchecked Sendable {
    private let condition = NSCondition()
    private var values: [UInt] = []
    private var token: (any NSObjectProtocol)?

    init(_ name: Notification.Name, key: String) {
        token = NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { [weak self] note in
            guard let self, let value = note.userInfo?[key] as? UInt else { return }
            condition.withLock {
                values.append(value)
                condition.broadcast()
            }
        }
    }

    deinit {
        if let token { NotificationCenter.default.removeObserver(token) }
    }

    /// Waits until `value` was posted (and forgets it); whether it was within `timeout`.
    func wait(for value: UInt, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        return condition.withLock {
            while !values.contains(value) {
                guard condition.wait(until: deadline) else { return false }
            }
            values.remove(at: values.firstIndex(of: value)!)
            return true
        }
    }
}
