import OpenCoreMedia

/// What a device delivers to its handler: a sample, or the error that ended the capture.
package typealias CaptureEvent = Result<CaptureSample, CaptureDeviceError>

/// Receives a device's samples, on the device's own thread. It must return quickly (enqueue and
/// go): while it runs the device cannot produce, and frames due meanwhile are dropped.
package typealias CaptureHandler = @Sendable (CaptureEvent) -> Void

/// One capture device behind one platform API: the single abstraction every backend implements
/// (virtual devices, V4L2 cameras, PulseAudio/ALSA microphones, X11 screens), as libcamera has
/// one camera abstraction with one pipeline handler per platform.
///
/// Lifecycle: `start(format:frameDuration:handler:)` begins delivery on the device's own thread;
/// `stop()` ends it synchronously. A failure while running (an unplugged camera) is delivered
/// once as `.failure`, after which the device has stopped by itself (`stop()` is still allowed).
/// Implementations are thread-safe.
package protocol CaptureDeviceBackend: AnyObject, Sendable {
    /// Identifier stable across runs and reboots (for V4L2: the bus info), unique among devices.
    var uniqueID: String { get }
    /// Identifier of the model: the same for identical devices.
    var modelID: String { get }
    /// The name people see.
    var localizedName: String { get }
    /// Who made it.
    var manufacturer: String { get }
    /// Whether this is a built-in virtual device rather than hardware.
    var isVirtual: Bool { get }
    /// What the device captures.
    var mediaKind: CaptureMediaKind { get }
    /// Where the device faces, when the platform tells (a laptop's front camera); mostly
    /// `.unspecified`.
    var position: CapturePosition { get }
    /// The formats the device can deliver, all of `mediaKind`.
    var formats: [CaptureFormat] { get }
    /// Whether the device is present (false after an unplug).
    var isConnected: Bool { get }
    /// Whether the device is delivering.
    var isRunning: Bool { get }
    /// The camera's adjustable controls (focus, exposure, white balance, torch, zoom); nil for
    /// devices without any.
    var controls: (any CaptureControls)? { get }
    /// Whether a camera running a format with a `codecType` (one that sends H.264) decodes its
    /// frames too: true (the default) delivers each compressed frame with its decoded picture,
    /// false only the compressed frame, sparing the decoding. Read before every frame, so it may
    /// change while the camera runs (decoding then starts again at the next key frame). Devices
    /// without such formats ignore it.
    var decodesCompressedFrames: Bool { get set }
    /// Whether `start` also takes audio formats of other rates and channel counts than
    /// `formats` lists, converted by a sound server (false, the default, for most devices).
    var convertsAudioFormats: Bool { get }

    /// Starts delivering samples of `format` to `handler` on the device's thread.
    ///
    /// `frameDuration` is the time between video frames (nil: the format's default, 30 fps when
    /// supported), or the duration of each audio buffer (nil: 10 ms). Throws when the format or
    /// duration is unsupported, the device is already running, or it cannot be opened.
    func start(format: CaptureFormat, frameDuration: CMTime?, handler: @escaping CaptureHandler) throws(CaptureDeviceError)

    /// Stops delivery. Synchronous: once it returns, the handler is not called again. Called from
    /// inside the handler it returns at once and the current delivery is the last. Stopping a
    /// stopped device does nothing.
    func stop()
}

/// Where a capture device faces, as `AVCaptureDevice.Position` describes it.
package enum CapturePosition: Sendable, Hashable {
    /// Not known, or not meaningful (a USB camera, a microphone).
    case unspecified
    /// Facing away from the user.
    case back
    /// Facing the user.
    case front
}

extension CaptureDeviceBackend {
    /// Most devices cannot tell where they face.
    package var position: CapturePosition { .unspecified }
    /// Microphones and simple cameras have no controls.
    package var controls: (any CaptureControls)? { nil }
    /// Devices that send no compressed frames have nothing to decode.
    package var decodesCompressedFrames: Bool {
        get { true }
        set {}
    }

    /// Whether `start` also takes audio formats of other rates and channel counts than
    /// `formats` lists, converted by a sound server (PulseAudio resamples and remaps a record
    /// stream); false for most devices.
    package var convertsAudioFormats: Bool { false }

    /// The video formats, for cameras.
    package var videoFormats: [CaptureVideoFormat] { formats.compactMap(\.video) }
    /// The audio formats, for microphones.
    package var audioFormats: [CaptureAudioFormat] { formats.compactMap(\.audio) }
}
