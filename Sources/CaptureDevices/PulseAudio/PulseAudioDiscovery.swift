import CPulseAudio
import Foundation
import HostSystem

/// Lists the sources of a PulseAudio server (PipeWire's `pipewire-pulse` serves the same API)
/// as `PulseAudioMicrophone`s, monitors of sinks included: the PulseAudio entry of
/// `PlatformDiscoveries`.
///
/// Each listing asks the server afresh, within `timeout`; with no server running it returns no
/// device at once. A source keeps its microphone object while it stays connected with the same
/// sample spec, so listings return the same objects.
package enum PulseAudioDiscovery {
    /// The server discovery asks, for the current task: nil (the default) is libpulse's own
    /// choice (`PULSE_SERVER`, else the session's server). Tests bind it to their private daemon
    /// with `$server.withValue(_:operation:)`, which leaves the process environment, and so
    /// parallel tests, untouched.
    @TaskLocal package static var server: String?

    /// The longest a listing waits for the server.
    package static let timeout: UInt64 = 1_000_000_000

    private static let lock = NSLock()
    nonisolated(unsafe) private static var known: [String: PulseAudioMicrophone] = [:]

    /// The sources of `server` now, in `ordered(_:defaultSource:)`'s order; empty when no server
    /// answers.
    package static func microphones(server: String? = PulseAudioDiscovery.server) -> [PulseAudioMicrophone] {
        let sources = (try? sourceInfos(server: server)) ?? []
        return lock.withLock {
            sources.map { source in
                let key = "\(server ?? "")\n\(source.name)"
                if let microphone = known[key], microphone.isConnected, microphone.source.isSameStream(as: source) {
                    return microphone
                }
                let microphone = PulseAudioMicrophone(source: source, server: server)
                known[key] = microphone
                return microphone
            }
        }
    }

    /// What the server says about its sources (its state's, `serverState(server:)`).
    static func sourceInfos(server: String?) throws(CaptureDeviceError) -> [PulseAudioSource] {
        try serverState(server: server).sources
    }

    /// Sources in listing order: the server's default source first (so that
    /// `AVCaptureDevice.default(for: .audio)` is the user's chosen input), then the other
    /// inputs, then the monitors, each group in the server's order.
    static func ordered(_ sources: [PulseAudioSource], defaultSource: String?) -> [PulseAudioSource] {
        func rank(_ source: PulseAudioSource) -> Int { source.name == defaultSource ? 0 : source.isMonitor ? 2 : 1 }
        return sources.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
    }
}

/// What discovery learns of one PulseAudio source.
package struct PulseAudioSource: Hashable, Sendable {
    /// The source's name (`alsa_input.usb-…`, `…​.monitor`): unique on the server.
    package var name: String
    /// The description people see ("Monitor of Built-in Audio").
    package var description: String
    /// The source's own sample rate.
    package var sampleRate: Int
    /// The source's own channel count.
    package var channelCount: Int
    /// Whether the source is a sink's monitor (what the sink plays).
    package var isMonitor: Bool
    /// The vendor, when the source is a device that says (`device.vendor.name`).
    var vendor: String?
    /// The product, when the source is a device that says (`device.product.name`).
    package var product: String?
    /// What the source's device properties say of its hardware (form factor, bus, icon, ports).
    package var device: PulseAudioDeviceProperties
    /// The source's volume, as a linear factor (1 is 100 %, the channels' average).
    package var volume: Double
    /// The name of the source's active port, when it has ports.
    package var activePort: String?

    /// The facts of a `pa_source_info`.
    init(_ info: pa_source_info) {
        name = info.name.map { String(cString: $0) } ?? ""
        description = info.description.map { String(cString: $0) } ?? name
        sampleRate = Int(info.sample_spec.rate)
        channelCount = Int(info.sample_spec.channels)
        isMonitor = info.monitor_of_sink != UInt32.max
        vendor = pa_proplist_gets(info.proplist, "device.vendor.name").map { String(cString: $0) }
        product = pa_proplist_gets(info.proplist, "device.product.name").map { String(cString: $0) }
        device = PulseAudioDeviceProperties(proplist: info.proplist, channelMap: info.channel_map,
                                            ports: info.ports, portCount: Int(info.n_ports))
        var volume = info.volume
        self.volume = pa_sw_volume_to_linear(pa_cvolume_avg(&volume))
        activePort = info.active_port.flatMap { $0.pointee.name }.map { String(cString: $0) }
    }

    /// Whether `other` is the same source delivering the same stream (name, rate, channels,
    /// kind), whatever its volume or port: a microphone object stays the same across them.
    func isSameStream(as other: PulseAudioSource) -> Bool {
        (name, description, sampleRate, channelCount, isMonitor) == (other.name, other.description, other.sampleRate, other.channelCount, other.isMonitor)
    }
}
