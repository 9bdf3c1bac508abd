/// Which capture devices discovery lists, from the `OPENAV_CAPTURE_DEVICES` environment
/// variable: `virtual`, `hardware` or `all` (the default).
package enum DeviceSelection: String, Sendable, CaseIterable {
    /// Only the built-in virtual devices (test pattern camera, test tone microphone).
    case virtual
    /// Only real devices (V4L2 cameras, PulseAudio/ALSA microphones, X11 screens).
    case hardware
    /// Hardware first, then the virtual devices.
    case all

    /// The name of the environment variable that selects the devices.
    package static let environmentVariable = "OPENAV_CAPTURE_DEVICES"

    /// The selection an environment asks for; unset or empty means `.all`, and an unknown value
    /// is an error naming the accepted ones.
    package init(environment: [String: String]) throws(DeviceSelectionError) {
        guard let raw = environment[Self.environmentVariable], !raw.isEmpty else {
            self = .all
            return
        }
        guard let selection = DeviceSelection(rawValue: raw.lowercased()) else {
            throw DeviceSelectionError(value: raw)
        }
        self = selection
    }

    /// Whether hardware devices are listed.
    package var includesHardware: Bool { self != .virtual }
    /// Whether virtual devices are listed.
    package var includesVirtual: Bool { self != .hardware }
}

/// An `OPENAV_CAPTURE_DEVICES` value that is not one of `virtual`, `hardware`, `all`.
package struct DeviceSelectionError: Error, CustomStringConvertible {
    /// The value found in the environment.
    package let value: String

    /// What went wrong and what is accepted.
    package var description: String {
        "\(DeviceSelection.environmentVariable)=\(value) is not one of "
            + DeviceSelection.allCases.map(\.rawValue).joined(separator: ", ")
    }
}
