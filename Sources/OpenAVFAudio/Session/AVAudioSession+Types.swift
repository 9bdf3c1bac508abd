import Foundation

extension AVAudioSession {
    /// An audio session category: what the app does with sound.
    ///
    /// Linux: every category is accepted and kept; a sound server mixes every client, so no
    /// category silences another program, and the recorder records in any category (macOS,
    /// which has no session, records the same way).
    public struct Category: RawRepresentable, Hashable, Sendable {
        /// The constant's string, as Apple's.
        public let rawValue: String
        /// The constant with this string.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Sound that mixes with other apps and is silenced by the ring switch on Apple devices.
        public static let ambient = Category(rawValue: "AVAudioSessionCategoryAmbient")
        /// The default: sound that does not mix with other apps.
        public static let soloAmbient = Category(rawValue: "AVAudioSessionCategorySoloAmbient")
        /// Playback that matters to the app.
        public static let playback = Category(rawValue: "AVAudioSessionCategoryPlayback")
        /// Recording.
        public static let record = Category(rawValue: "AVAudioSessionCategoryRecord")
        /// Recording and playing, as a call does.
        public static let playAndRecord = Category(rawValue: "AVAudioSessionCategoryPlayAndRecord")
        /// Several routes at once.
        public static let multiRoute = Category(rawValue: "AVAudioSessionCategoryMultiRoute")
    }

    /// An audio session mode: a specialization of the category. Accepted and kept on Linux;
    /// no mode changes the signal (no voice processing).
    public struct Mode: RawRepresentable, Hashable, Sendable {
        /// The constant's string, as Apple's.
        public let rawValue: String
        /// The constant with this string.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The default mode.
        public static let `default` = Mode(rawValue: "AVAudioSessionModeDefault")
        /// Voice chat.
        public static let voiceChat = Mode(rawValue: "AVAudioSessionModeVoiceChat")
        /// Video chat.
        public static let videoChat = Mode(rawValue: "AVAudioSessionModeVideoChat")
        /// Games.
        public static let gameChat = Mode(rawValue: "AVAudioSessionModeGameChat")
        /// Video recording.
        public static let videoRecording = Mode(rawValue: "AVAudioSessionModeVideoRecording")
        /// Measurement: minimal processing of the input.
        public static let measurement = Mode(rawValue: "AVAudioSessionModeMeasurement")
        /// Movie playback.
        public static let moviePlayback = Mode(rawValue: "AVAudioSessionModeMoviePlayback")
        /// Spoken audio (podcasts, books).
        public static let spokenAudio = Mode(rawValue: "AVAudioSessionModeSpokenAudio")
        /// Voice prompts.
        public static let voicePrompt = Mode(rawValue: "AVAudioSessionModeVoicePrompt")
    }

    /// Options of a category. Accepted and kept on Linux: mixing with others is always what a
    /// sound server does.
    public struct CategoryOptions: OptionSet, Hashable, Sendable {
        /// The option bits, as Apple's.
        public let rawValue: UInt
        /// The options with these bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Mix with other apps' sound (always so on Linux).
        public static let mixWithOthers = CategoryOptions(rawValue: 0x1)
        /// Lower other apps' sound while playing (not done on Linux).
        public static let duckOthers = CategoryOptions(rawValue: 0x2)
        /// Allow Bluetooth hands-free inputs (always so on Linux).
        public static let allowBluetooth = CategoryOptions(rawValue: 0x4)
        /// Play to the speaker rather than the receiver (no receiver on Linux).
        public static let defaultToSpeaker = CategoryOptions(rawValue: 0x8)
        /// Pause spoken audio of other apps and mix with the rest (mixing only, on Linux).
        public static let interruptSpokenAudioAndMixWithOthers = CategoryOptions(rawValue: 0x11)
        /// Allow Bluetooth A2DP outputs (always so on Linux).
        public static let allowBluetoothA2DP = CategoryOptions(rawValue: 0x20)
        /// Allow AirPlay outputs (none on Linux).
        public static let allowAirPlay = CategoryOptions(rawValue: 0x40)
        /// Do not interrupt when the microphone is muted (never interrupted so on Linux).
        public static let overrideMutedMicrophoneInterruption = CategoryOptions(rawValue: 0x80)
    }

    /// Options of `setActive(_:options:)`.
    public struct SetActiveOptions: OptionSet, Hashable, Sendable {
        /// The option bits, as Apple's.
        public let rawValue: UInt
        /// The options with these bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Tell other apps the session ended (nothing to tell on a sound server).
        public static let notifyOthersOnDeactivation = SetActiveOptions(rawValue: 1)
    }

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

    /// Where a data source sits on the device.
    public struct Location: RawRepresentable, Hashable, Sendable {
        /// The constant's string, as Apple's.
        public let rawValue: String
        /// The constant with this string.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The upper part of the device.
        public static let upper = Location(rawValue: "Upper")
        /// The lower part of the device.
        public static let lower = Location(rawValue: "Lower")
    }

    /// Which way a data source faces.
    public struct Orientation: RawRepresentable, Hashable, Sendable {
        /// The constant's string, as Apple's.
        public let rawValue: String
        /// The constant with this string.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Facing up.
        public static let top = Orientation(rawValue: "Top")
        /// Facing down.
        public static let bottom = Orientation(rawValue: "Bottom")
        /// Facing the user.
        public static let front = Orientation(rawValue: "Front")
        /// Facing away from the user.
        public static let back = Orientation(rawValue: "Back")
        /// Facing left.
        public static let left = Orientation(rawValue: "Left")
        /// Facing right.
        public static let right = Orientation(rawValue: "Right")
    }

    /// A microphone's polar pattern. Linux devices say none.
    public struct PolarPattern: RawRepresentable, Hashable, Sendable {
        /// The constant's string, as Apple's.
        public let rawValue: String
        /// The constant with this string.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Equal in every direction.
        public static let omnidirectional = PolarPattern(rawValue: "Omnidirectional")
        /// Most sensitive in front.
        public static let cardioid = PolarPattern(rawValue: "Cardioid")
        /// Between omnidirectional and cardioid.
        public static let subcardioid = PolarPattern(rawValue: "Subcardioid")
        /// Two channels.
        public static let stereo = PolarPattern(rawValue: "Stereo")
    }

    /// Why the route changed.
    public enum RouteChangeReason: UInt, Sendable {
        /// The reason is not known.
        case unknown = 0
        /// An input or output appeared (a source plugged in).
        case newDeviceAvailable = 1
        /// An input or output went away (a source unplugged).
        case oldDeviceUnavailable = 2
        /// The category changed.
        case categoryChange = 3
        /// The route was overridden (the preferred input changed).
        case override = 4
        /// The device woke from sleep.
        case wakeFromSleep = 6
        /// No route suits the category.
        case noSuitableRouteForCategory = 7
        /// The route's configuration changed.
        case routeConfigurationChange = 8
    }

    /// Whether an interruption began or ended.
    public enum InterruptionType: UInt, Sendable {
        /// The sound server went away.
        case began = 1
        /// The sound server is back.
        case ended = 0
    }

    /// What to do after an interruption ended.
    public struct InterruptionOptions: OptionSet, Hashable, Sendable {
        /// The option bits, as Apple's.
        public let rawValue: UInt
        /// The options with these bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// The app may resume its sound.
        public static let shouldResume = InterruptionOptions(rawValue: 1)
    }

    /// Whether the app may record.
    public enum RecordPermission: UInt, Sendable {
        /// Not asked yet (never on Linux).
        case undetermined = 1970168948 // 'undt'
        /// Refused: no input is listed.
        case denied = 1684369017 // 'deny'
        /// Allowed: an input is listed.
        case granted = 1735552628 // 'grnt'
    }

    /// Posted (by the session) when its route changes: a device plugged in or out, the
    /// preferred input changed. `userInfo`: `AVAudioSessionRouteChangeReasonKey`,
    /// `AVAudioSessionRouteChangePreviousRouteKey`.
    public static let routeChangeNotification = Notification.Name("AVAudioSessionRouteChangeNotification")
    /// Posted when the sound server goes away (`.began`) and comes back (`.ended`).
    /// `userInfo`: `AVAudioSessionInterruptionTypeKey`, `AVAudioSessionInterruptionOptionKey`.
    public static let interruptionNotification = Notification.Name("AVAudioSessionInterruptionNotification")
    /// Posted when the sound server restarted and its clients must set up again (never on
    /// Linux: a restart is an interruption that ends).
    public static let mediaServicesWereResetNotification = Notification.Name("AVAudioSessionMediaServicesWereResetNotification")
    /// Posted when the media services became unavailable (never on Linux).
    public static let mediaServicesWereLostNotification = Notification.Name("AVAudioSessionMediaServicesWereLostNotification")
}

/// The key of a route change's reason (an `AVAudioSession.RouteChangeReason` raw value).
public let AVAudioSessionRouteChangeReasonKey = "AVAudioSessionRouteChangeReasonKey"
/// The key of a route change's previous route (an `AVAudioSessionRouteDescription`).
public let AVAudioSessionRouteChangePreviousRouteKey = "AVAudioSessionRouteChangePreviousRouteKey"
/// The key of an interruption's type (an `AVAudioSession.InterruptionType` raw value).
public let AVAudioSessionInterruptionTypeKey = "AVAudioSessionInterruptionTypeKey"
/// The key of an ended interruption's options (`AVAudioSession.InterruptionOptions` raw value).
public let AVAudioSessionInterruptionOptionKey = "AVAudioSessionInterruptionOptionKey"
