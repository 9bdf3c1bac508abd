extension AVCaptureDevice {
    /// A kind of capture device, for discovery and `default(_:for:position:)`.
    ///
    /// The Test Pattern Camera reports `.builtInWideAngleCamera` (it is built into the library,
    /// and iOS-style discovery code then finds a camera on machines without one); hardware
    /// cameras (V4L2) will report `.external`. The Test Tone Microphone reports `.microphone`.
    /// Deprecated synonyms match their replacements in discovery: `.builtInMicrophone` finds
    /// `.microphone` devices and `.externalUnknown` finds `.external` ones, as on Apple platforms.
    public struct DeviceType: RawRepresentable, Hashable, Sendable {
        /// Apple's string value, for example "AVCaptureDeviceTypeBuiltInWideAngleCamera".
        public let rawValue: String

        /// A device type from its raw value.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A device type from its raw value.
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// A built-in wide-angle camera (here: the Test Pattern Camera).
        public static let builtInWideAngleCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInWideAngleCamera")
        /// An external camera, such as a USB webcam.
        public static let external = DeviceType(rawValue: "AVCaptureDeviceTypeExternal")
        /// An external device of unknown kind: the old (macOS 10.15–14) name of `.external`.
        public static let externalUnknown = DeviceType(rawValue: "AVCaptureDeviceTypeExternalUnknown")
        /// A microphone.
        public static let microphone = DeviceType(rawValue: "AVCaptureDeviceTypeMicrophone")
        /// A built-in microphone: the old (before iOS 17 / macOS 14) name of `.microphone`.
        public static let builtInMicrophone = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInMicrophone")

        /// The current name of a deprecated synonym (itself otherwise).
        var canonical: DeviceType {
            switch self {
            case .builtInMicrophone: .microphone
            case .externalUnknown: .external
            default: self
            }
        }
    }
}
