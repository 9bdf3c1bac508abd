import CaptureDevices

extension AVCaptureSession {
    /// A quality level or resolution for a session's video.
    ///
    /// On the devices here `.photo` picks a camera's largest format, `.high` 1920x1080 (else the
    /// largest), `.medium` 640x480 (else the smallest; Apple's iOS medium is 480x360) and `.low`
    /// the smallest; the fixed sizes need a format of exactly that size on the virtual camera,
    /// while a V4L2 camera without one takes its nearest: the smallest format at least as wide
    /// and as tall (differs from Apple: the frames are that format's size, not scaled to the
    /// preset's). Among formats of the chosen size, '420v' is preferred, as on Apple cameras.
    public struct Preset: RawRepresentable, Hashable, Sendable {
        /// Apple's string value, for example "AVCaptureSessionPresetHigh".
        public let rawValue: String

        /// A preset from its raw value.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A preset from its raw value.
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// Full-resolution photo quality: the camera's largest format.
        public static let photo = Preset(rawValue: "AVCaptureSessionPresetPhoto")
        /// High quality video and audio.
        public static let high = Preset(rawValue: "AVCaptureSessionPresetHigh")
        /// Medium quality, for sharing over Wi-Fi.
        public static let medium = Preset(rawValue: "AVCaptureSessionPresetMedium")
        /// Low quality, for sharing over cellular networks.
        public static let low = Preset(rawValue: "AVCaptureSessionPresetLow")
        /// QVGA, 320x240 (Apple: macOS only).
        public static let qvga320x240 = Preset(rawValue: "AVCaptureSessionPreset320x240")
        /// CIF, 352x288.
        public static let cif352x288 = Preset(rawValue: "AVCaptureSessionPreset352x288")
        /// VGA, 640x480.
        public static let vga640x480 = Preset(rawValue: "AVCaptureSessionPreset640x480")
        /// Quarter HD, 960x540 (Apple: macOS only).
        public static let qHD960x540 = Preset(rawValue: "AVCaptureSessionPreset960x540")
        /// 720p HD, 1280x720.
        public static let hd1280x720 = Preset(rawValue: "AVCaptureSessionPreset1280x720")
        /// 1080p HD, 1920x1080.
        public static let hd1920x1080 = Preset(rawValue: "AVCaptureSessionPreset1920x1080")
        /// 2160p UHD, 3840x2160.
        public static let hd4K3840x2160 = Preset(rawValue: "AVCaptureSessionPreset3840x2160")
        /// iFrame H.264 at 960x540 (the device format of that size).
        public static let iFrame960x540 = Preset(rawValue: "AVCaptureSessionPresetiFrame960x540")
        /// iFrame H.264 at 1280x720 (the device format of that size).
        public static let iFrame1280x720 = Preset(rawValue: "AVCaptureSessionPresetiFrame1280x720")
        /// The session leaves the devices' active formats alone.
        public static let inputPriority = Preset(rawValue: "AVCaptureSessionPresetInputPriority")

        /// The exact frame size the preset asks for, if it is a fixed-size preset.
        private var fixedSize: (width: Int, height: Int)? {
            switch self {
            case .qvga320x240: (320, 240)
            case .cif352x288: (352, 288)
            case .vga640x480: (640, 480)
            case .hd1280x720, .iFrame1280x720: (1280, 720)
            case .hd1920x1080: (1920, 1080)
            case .hd4K3840x2160: (3840, 2160)
            case .qHD960x540, .iFrame960x540: (960, 540)
            default: nil
            }
        }

        /// The format among a camera's `formats` this preset selects; nil when the camera has
        /// none (or for `.inputPriority` and unknown presets). With `nearest`, a fixed size
        /// without a format of exactly that size selects the smallest format covering it.
        func videoFormat(among formats: [CaptureVideoFormat], nearest: Bool = false) -> CaptureVideoFormat? {
            let area = { (format: CaptureVideoFormat) in format.width * format.height }
            let sizes = formats.map { (width: $0.width, height: $0.height) }
            guard let largest = formats.max(by: { area($0) < area($1) }),
                  let smallest = formats.min(by: { area($0) < area($1) }) else { return nil }
            let size: (width: Int, height: Int)
            switch self {
            case .photo: size = (largest.width, largest.height)
            case .high: size = sizes.contains { $0 == (1920, 1080) } ? (1920, 1080) : (largest.width, largest.height)
            case .medium: size = sizes.contains { $0 == (640, 480) } ? (640, 480) : (smallest.width, smallest.height)
            case .low: size = (smallest.width, smallest.height)
            default:
                guard let fixed = fixedSize else { return nil }
                size = nearest ? Self.nearestSize(to: fixed, among: sizes) ?? fixed : fixed
            }
            // Of one size: '420v', then '420f', then any; a format delivering pictures before one
            // that compresses (which an app picks as its active format when it wants H.264).
            let sized = formats.filter { $0.width == size.width && $0.height == size.height }
            let candidates = sized.filter { $0.codecType == nil } + sized.filter { $0.codecType != nil }
            return candidates.first { $0.pixelFormat == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange }
                ?? candidates.first { $0.pixelFormat == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange }
                ?? candidates.first
        }

        /// The size itself when offered, else the smallest offered size at least as wide and as
        /// tall (of equal areas, the one whose aspect ratio is nearest); nil when none covers it.
        private static func nearestSize(to size: (width: Int, height: Int),
                                        among sizes: [(width: Int, height: Int)]) -> (width: Int, height: Int)? {
            if sizes.contains(where: { $0 == size }) { return size }
            let aspect = Double(size.width) / Double(size.height)
            return sizes.filter { $0.width >= size.width && $0.height >= size.height }.min { a, b in
                (a.width * a.height, abs(Double(a.width) / Double(a.height) - aspect))
                    < (b.width * b.height, abs(Double(b.width) / Double(b.height) - aspect))
            }
        }
    }
}
