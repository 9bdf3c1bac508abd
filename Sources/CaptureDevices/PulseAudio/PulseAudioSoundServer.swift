import CPulseAudio
import Foundation
import HostSystem

/// What a PulseAudio source's or sink's device properties say of its hardware: the facts
/// `AVAudioSession` derives a port type from, and the ports (jacks, built-in microphones) it
/// may switch between.
package struct PulseAudioDeviceProperties: Hashable, Sendable {
    /// `device.form_factor`: `internal`, `headset`, `handset`, `microphone`, `webcam`, `speaker`,
    /// `headphone`, `hands-free`, `car`, `hifi`, `computer`, `portable`, `tv`.
    package var formFactor: String?
    /// `device.bus`: `pci`, `usb`, `bluetooth`, `firewire`, `isa`.
    package var bus: String?
    /// `device.icon_name` (`audio-input-microphone`, `audio-headset-bluetooth`).
    package var iconName: String?
    /// `device.bus_path` (`pci-0000:00:1f.3`): the same for the sources of one card.
    package var busPath: String?
    /// `bluetooth.protocol` (`headset_head_unit`, `handsfree_head_unit`, `a2dp_sink`), for
    /// Bluetooth devices.
    package var bluetoothProtocol: String?
    /// The channels' names, in order (`front-left`, `mono`).
    package var channelNames: [String]
    /// The device's ports, in the server's order.
    package var ports: [PulseAudioPort]

    /// The properties of a source's or sink's property list.
    init(proplist: OpaquePointer?, channelMap: pa_channel_map,
         ports: UnsafeMutablePointer<UnsafeMutablePointer<pa_source_port_info>?>?, portCount: Int) {
        func property(_ key: String) -> String? { pa_proplist_gets(proplist, key).map { String(cString: $0) } }
        formFactor = property("device.form_factor")
        bus = property("device.bus")
        iconName = property("device.icon_name")
        busPath = property("device.bus_path")
        bluetoothProtocol = property("bluetooth.protocol")
        var map = channelMap
        channelNames = withUnsafeBytes(of: &map.map) { raw in
            raw.bindMemory(to: pa_channel_position_t.self).prefix(Int(channelMap.channels)).map {
                pa_channel_position_to_string($0).map { String(cString: $0) } ?? "aux"
            }
        }
        self.ports = (0..<portCount).compactMap { index in
            guard let port = ports?[index]?.pointee else { return nil }
            return PulseAudioPort(name: port.name.map { String(cString: $0) } ?? "",
                                  description: port.description.map { String(cString: $0) } ?? "",
                                  isAvailable: port.available != UInt32(PA_PORT_AVAILABLE_NO.rawValue))
        }
    }
}

/// One port of a PulseAudio source (`analog-input-front-mic`, "Front Microphone").
package struct PulseAudioPort: Hashable, Sendable {
    /// The port's name, unique on its source.
    package var name: String
    /// The name people see.
    package var description: String
    /// Whether something is plugged in (or the server cannot tell).
    package var isAvailable: Bool
}

/// What discovery learns of one PulseAudio sink (an output).
package struct PulseAudioSink: Hashable, Sendable {
    /// The sink's name, unique on the server.
    package var name: String
    /// The name people see.
    package var description: String
    /// The sink's volume, as a linear factor (the channels' average).
    package var volume: Double
    /// Its device properties.
    package var device: PulseAudioDeviceProperties
}

/// A snapshot of a sound server's inputs and outputs: what `AVAudioSession` lists.
package struct PulseAudioServerState: Sendable {
    /// The sources, default first, then the other inputs, then monitors.
    package var sources: [PulseAudioSource]
    /// The sinks, default first.
    package var sinks: [PulseAudioSink]
    /// The default source's name.
    package var defaultSource: String?
    /// The default sink's name.
    package var defaultSink: String?
}

extension PulseAudioDiscovery {
    /// The sources and sinks of `server` now, through one discovery connection; throws when no
    /// server answers within `timeout`.
    package static func serverState(server: String? = PulseAudioDiscovery.server) throws(CaptureDeviceError) -> PulseAudioServerState {
        let connection = try PulseAudioConnection.forCapture(server: server, clientName: "OpenAVFoundation discovery", timeout: timeout)
        final class Box { var sources: [PulseAudioSource] = []; var sinks: [PulseAudioSink] = []; var defaultSource, defaultSink: String? }
        let box = Box()
        let deadline = HostClock.now + timeout
        let userdata = Unmanaged.passUnretained(box).toOpaque()
        let serverInfo = pa_context_get_server_info(connection.context, { _, info, userdata in
            guard let info, let userdata else { return }
            let box = Unmanaged<Box>.fromOpaque(userdata).takeUnretainedValue()
            box.defaultSource = info.pointee.default_source_name.map { String(cString: $0) }
            box.defaultSink = info.pointee.default_sink_name.map { String(cString: $0) }
        }, userdata)
        let sourceList = pa_context_get_source_info_list(connection.context, { _, info, eol, userdata in
            guard eol == 0, let info, let userdata else { return }
            Unmanaged<Box>.fromOpaque(userdata).takeUnretainedValue().sources.append(PulseAudioSource(info.pointee))
        }, userdata)
        let sinkList = pa_context_get_sink_info_list(connection.context, { _, info, eol, userdata in
            guard eol == 0, let info, let userdata else { return }
            let sink = info.pointee
            var volume = sink.volume
            Unmanaged<Box>.fromOpaque(userdata).takeUnretainedValue().sinks.append(PulseAudioSink(
                name: sink.name.map { String(cString: $0) } ?? "",
                description: sink.description.map { String(cString: $0) } ?? "",
                volume: pa_sw_volume_to_linear(pa_cvolume_avg(&volume)),
                device: PulseAudioDeviceProperties(proplist: sink.proplist, channelMap: sink.channel_map, ports: nil, portCount: 0)))
        }, userdata)
        guard connection.wait(for: serverInfo, untilNanoseconds: deadline),
              connection.wait(for: sourceList, untilNanoseconds: deadline),
              connection.wait(for: sinkList, untilNanoseconds: deadline)
        else {
            throw CaptureDeviceError(.unavailable, "PulseAudio did not list its sources and sinks: \(connection.errorText)")
        }
        func rank(_ sink: PulseAudioSink) -> Int { sink.name == box.defaultSink ? 0 : 1 }
        return withExtendedLifetime(box) {
            PulseAudioServerState(
                sources: ordered(box.sources, defaultSource: box.defaultSource),
                sinks: box.sinks.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element),
                defaultSource: box.defaultSource, defaultSink: box.defaultSink)
        }
    }

    /// Sets a source's volume on every channel to a linear factor (1 is 100 %).
    package static func setVolume(ofSource source: String, to linear: Double, channels: Int,
                                  server: String? = PulseAudioDiscovery.server) throws(CaptureDeviceError) {
        try perform(server: server, "set the volume of \(source)") { context in
            var volume = pa_cvolume()
            pa_cvolume_set(&volume, UInt32(max(1, channels)), pa_sw_volume_from_linear(linear))
            return pa_context_set_source_volume_by_name(context, source, &volume, nil, nil)
        }
    }

    /// Makes `port` the source's active port.
    package static func setActivePort(ofSource source: String, to port: String,
                                      server: String? = PulseAudioDiscovery.server) throws(CaptureDeviceError) {
        try perform(server: server, "switch \(source) to port \(port)") { context in
            pa_context_set_source_port_by_name(context, source, port, nil, nil)
        }
    }

    /// Runs one operation on a discovery connection and waits for it.
    private static func perform(server: String?, _ what: String,
                                _ operation: (OpaquePointer) -> OpaquePointer?) throws(CaptureDeviceError) {
        let connection = try PulseAudioConnection.forCapture(server: server, clientName: "OpenAVFoundation discovery", timeout: timeout)
        guard connection.wait(for: operation(connection.context), untilNanoseconds: HostClock.now + timeout),
              pa_context_errno(connection.context) == 0
        else {
            throw CaptureDeviceError(.failed, "PulseAudio could not \(what): \(connection.errorText)")
        }
    }
}
