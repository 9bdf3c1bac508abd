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

        // The types of Apple's other cameras. No device here is of these types: a discovery
        // asking only for them finds nothing, as on a Mac without such a camera.

        /// A built-in camera with a shorter focal length than a wide-angle camera (no device
        /// here is one).
        public static let builtInUltraWideCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInUltraWideCamera")
        /// A built-in camera with a longer focal length than a wide-angle camera (no device here
        /// is one).
        public static let builtInTelephotoCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInTelephotoCamera")
        /// A wide-angle and a telephoto camera working as one (no device here is one).
        public static let builtInDualCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInDualCamera")
        /// A wide-angle and an ultra wide camera working as one (no device here is one).
        public static let builtInDualWideCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInDualWideCamera")
        /// Ultra wide, wide-angle and telephoto cameras working as one (no device here is one).
        public static let builtInTripleCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInTripleCamera")
        /// A camera and an infrared depth sensor working as one (no device here is one).
        public static let builtInTrueDepthCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInTrueDepthCamera")
        /// A camera and a LiDAR depth sensor working as one (no device here is one).
        public static let builtInLiDARDepthCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInLiDARDepthCamera")
        /// An iPhone's camera used by a Mac (no device here is one).
        public static let continuityCamera = DeviceType(rawValue: "AVCaptureDeviceTypeContinuityCamera")
        /// The Desk View camera of a Continuity Camera (no device here is one).
        public static let deskViewCamera = DeviceType(rawValue: "AVCaptureDeviceTypeDeskViewCamera")

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
