extension AVAudioSession {
    /// A type of input or output port.
    public struct Port: RawRepresentable, Hashable, Sendable {
        /// The constant's string, as Apple's.
        public let rawValue: String
        /// The constant with this string.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A line-level input.
        public static let lineIn = Port(rawValue: "LineIn")
        /// A built-in microphone (`device.form_factor=internal`, or a PCI card's input).
        public static let builtInMic = Port(rawValue: "MicrophoneBuiltIn")
        /// A wired headset's microphone (`device.form_factor=headset`).
        public static let headsetMic = Port(rawValue: "MicrophoneWired")
        /// A line-level output.
        public static let lineOut = Port(rawValue: "LineOut")
        /// Headphones.
        public static let headphones = Port(rawValue: "Headphones")
        /// A Bluetooth A2DP output.
        public static let bluetoothA2DP = Port(rawValue: "BluetoothA2DPOutput")
        /// The receiver of a phone.
        public static let builtInReceiver = Port(rawValue: "Receiver")
        /// A built-in speaker.
        public static let builtInSpeaker = Port(rawValue: "Speaker")
        /// HDMI.
        public static let HDMI = Port(rawValue: "HDMIOutput")
        /// AirPlay.
        public static let airPlay = Port(rawValue: "AirPlay")
        /// Bluetooth Low Energy.
        public static let bluetoothLE = Port(rawValue: "BluetoothLE")
        /// A Bluetooth hands-free device (headset or hands-free profile).
        public static let bluetoothHFP = Port(rawValue: "BluetoothHFP")
        /// A USB device (`device.bus=usb`).
        public static let usbAudio = Port(rawValue: "USBAudio")
        /// Car audio.
        public static let carAudio = Port(rawValue: "CarAudio")
        /// A device that is no hardware (the Test Tone Microphone).
        public static let virtual = Port(rawValue: "Virtual")
        /// A PCI device.
        public static let PCI = Port(rawValue: "PCI")
        /// FireWire.
        public static let fireWire = Port(rawValue: "FireWire")
        /// DisplayPort.
        public static let displayPort = Port(rawValue: "DisplayPort")
        /// Audio video bridging.
        public static let AVB = Port(rawValue: "AVB")
        /// Thunderbolt.
        public static let thunderbolt = Port(rawValue: "Thunderbolt")
    }
}
