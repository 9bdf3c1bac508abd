import Foundation

extension PulseAudioDaemon {
    /// Loads a source playing a sine of `frequency` Hz (`module-sine-source`, mono at the
    /// daemon's rate) carrying device properties (`device.bus=usb`, `device.form_factor=headset`,
    /// `device.bus_path=…`; values without spaces); returns the module's index for
    /// `unloadModule(_:)`.
    @discardableResult
    public func loadSineSource(name: String, frequency: Int, properties: [String: String]) throws -> String {
        let list = properties.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        return try pactl(["load-module", "module-sine-source", "source_name=\(name)", "rate=\(sampleRate)",
                          "frequency=\(frequency)", "source_properties='\(list)'"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Unloads a module `loadSineSource` (or `pactl load-module`) loaded.
    public func unloadModule(_ index: String) throws {
        try pactl(["unload-module", index])
    }
}
