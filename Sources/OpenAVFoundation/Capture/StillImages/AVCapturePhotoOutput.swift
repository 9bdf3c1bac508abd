import Foundation
import CaptureDevices
import HostSystem
import OpenCoreMedia
import OpenCoreVideo

/// A capture output that takes photos: JPEG or uncompressed, at the camera's still image size,
/// with metadata, reported step by step to an `AVCapturePhotoCaptureDelegate`.
///
/// Each request takes the next frame the camera takes after `capturePhoto(with:delegate:)` is
/// called (never an older one) and runs side by side with the session's other outputs without
/// disturbing their frames. JPEG encoding runs on the output's private serial queue, where the
/// delegate is called too. Misuse Apple answers with an exception (reusing a settings object, a
/// flash mode or format the output does not offer, no active video connection) is a
/// `preconditionFailure` naming the rule.
///
/// The delegate is held weakly, as Apple's photo output holds it: keep it alive until
/// `didFinishCaptureFor`.
///
/// Differs from Apple: photos are at the camera's frame size (`supportedMaxPhotoDimensions` of
/// its active format); no RAW, Live Photo, bracketed or depth capture.
public final class AVCapturePhotoOutput: AVCaptureOutput, @unchecked Sendable {
    private let core = StillImageCapture(label: "OpenAVFoundation.AVCapturePhotoOutput")
    /// The `uniqueID`s of the settings photos were taken with: each may be used once.
    @Locked private var usedSettingsIDs: Set<Int64> = []
    @Locked private var chosenMaxDimensions: CMVideoDimensions? = nil
    @Locked private var highResolution = false

    /// A photo output, to add to a session with a camera.
    public override init() { super.init() }

    override func accepts(_ mediaType: AVMediaType) -> Bool { mediaType == .video }

    override func receive(_ sample: CaptureSample, from connection: AVCaptureConnection) { core.receive(sample) }

    override func sessionWillStartRunning() { core.sessionWillStartRunning() }

    override func sessionDidStopRunning() { core.sessionDidStopRunning() }

    /// The camera feeding the output's video connection, if any.
    private var camera: AVCaptureDevice? {
        (connection(with: .video)?.inputPorts.first?.input as? AVCaptureDeviceInput)?.device
    }

    // MARK: Capabilities

    /// The uncompressed pixel formats photos can be taken in: '420v', '420f' and 'BGRA'; empty
    /// while the output has no camera connected, as on Apple platforms.
    public var availablePhotoPixelFormatTypes: [OSType] {
        camera == nil ? [] : StillImageCapture.pixelFormatTypes
    }

    /// The codecs photos can be compressed with: JPEG; empty while no camera is connected.
    public var availablePhotoCodecTypes: [AVVideoCodecType] {
        camera == nil ? [] : StillImageCapture.codecTypes
    }

    /// The file types photos can be written as: JPEG (`.jpg`); empty while no camera is connected.
    public var availablePhotoFileTypes: [AVFileType] {
        camera == nil ? [] : [.jpg]
    }

    /// The codecs a file type can hold photos in: JPEG for `.jpg`, none for other types.
    public func supportedPhotoCodecTypes(for fileType: AVFileType) -> [AVVideoCodecType] {
        availablePhotoFileTypes.contains(fileType) ? availablePhotoCodecTypes : []
    }

    /// The uncompressed pixel formats a file type can hold photos in: none, as the only file
    /// type here (JPEG, `.jpg`) holds compressed photos only.
    public func supportedPhotoPixelFormatTypes(for fileType: AVFileType) -> [OSType] {
        []
    }

    /// The flash modes a photo can ask for: `.off` only (no device here has a flash); empty while
    /// no camera is connected.
    public var supportedFlashModes: [AVCaptureDevice.FlashMode] {
        guard let camera else { return [] }
        return camera.hasFlash ? [.off, .on, .auto] : [.off]
    }

    /// `supportedFlashModes` as numbers: the Objective-C spelling Apple's Swift SDK keeps.
    public var __supportedFlashModes: [NSNumber] {
        supportedFlashModes.map { NSNumber(value: $0.rawValue) }
    }

    /// The largest photos the output takes: one of the camera's active format's
    /// `supportedMaxPhotoDimensions` (by default, and again after the active format changes, the
    /// smallest of them); zero while no camera is connected. Setting another value is a
    /// programmer error.
    public var maxPhotoDimensions: CMVideoDimensions {
        get {
            let supported = camera?.activeFormat.supportedMaxPhotoDimensions ?? []
            let chosen = chosenMaxDimensions
            return chosen.flatMap { supported.contains($0) ? $0 : nil } ?? supported.first ?? CMVideoDimensions()
        }
        set {
            Misuse.check(camera?.activeFormat.supportedMaxPhotoDimensions.contains(newValue) ?? false,
                         .maxPhotoDimensionsNotSupported)
            chosenMaxDimensions = newValue
        }
    }

    /// Whether photos may be taken at the format's high-resolution still size
    /// (`AVCapturePhotoSettings.isHighResolutionPhotoEnabled` needs it). Deprecated by Apple in
    /// favour of `maxPhotoDimensions`; here photos are at the frame size either way.
    @available(*, deprecated, message: "Use maxPhotoDimensions instead.")
    public var isHighResolutionCaptureEnabled: Bool {
        get { highResolution }
        set { highResolution = newValue }
    }

    /// The highest quality prioritization a capture may ask for
    /// (`AVCapturePhotoSettings.photoQualityPrioritization`); `.balanced` by default. A capture
    /// asking for more is a programmer error. Here photos are taken the same way whatever it says.
    @Locked public var maxPhotoQualityPrioritization = QualityPrioritization.balanced

    /// Settings describing the photos the app will take, for the output to watch the scene with
    /// (flash decisions). Stored only: there is no scene monitoring without a flash.
    @Locked public var photoSettingsForSceneMonitoring = AVCapturePhotoSettings?.none

    /// The settings last prepared with `setPreparedPhotoSettingsArray(_:completionHandler:)`.
    @Locked public private(set) var preparedPhotoSettingsArray = [AVCapturePhotoSettings]()

    /// Tells the output which settings photos will be taken with, so that the first one is as
    /// quick as the next; `completionHandler` (if any) then learns whether that worked. Apple
    /// allocates buffers here; on Linux a photo is a frame the camera delivers anyway, so there
    /// is nothing to allocate: the settings are kept and the handler is told `true` at once, on
    /// a global queue. An empty array releases what was prepared.
    public func setPreparedPhotoSettingsArray(_ preparedPhotoSettingsArray: [AVCapturePhotoSettings],
                                              completionHandler: (@Sendable (Bool, (any Error)?) -> Void)? = nil) {
        self.preparedPhotoSettingsArray = preparedPhotoSettingsArray
        guard let completionHandler else { return }
        DispatchQueue.global().async { completionHandler(true, nil) }
    }

    /// Prepares for photos with these settings (see `setPreparedPhotoSettingsArray(_:completionHandler:)`)
    /// and returns whether that worked: always `true` here.
    @discardableResult
    public func setPreparedPhotoSettingsArray(_ preparedPhotoSettingsArray: [AVCapturePhotoSettings]) async throws -> Bool {
        setPreparedPhotoSettingsArray(preparedPhotoSettingsArray, completionHandler: nil)
        return true
    }

    // MARK: Capturing

    /// Takes a photo with `settings`, telling `delegate` how it goes (see
    /// `AVCapturePhotoCaptureDelegate` for the order). The settings are read now; changing them
    /// later does not affect this capture. A session that is not running (or stops before a
    /// frame comes) fails the capture with `AVError.sessionNotRunning` through the delegate.
    public func capturePhoto(with settings: AVCapturePhotoSettings, delegate: any AVCapturePhotoCaptureDelegate) {
        guard let connection = connection(with: .video), connection.isActive, let camera else {
            Misuse.fail(.capturePhotoWithoutActiveConnection)
        }
        Misuse.check($usedSettingsIDs.withLock { $0.insert(settings.uniqueID).inserted }, .photoSettingsReused)
        Misuse.check(supportedFlashModes.contains(settings.flashMode), .photoFlashModeNotSupported)
        Misuse.check(settings.photoQualityPrioritization.rawValue <= maxPhotoQualityPrioritization.rawValue,
                     .photoQualityPrioritizationTooHigh)
        Misuse.check(!settings.wantsHighResolution || highResolution, .highResolutionPhotoNotEnabled)
        let encoding = StillImageCapture.encoding(from: settings.format, owner: "AVCapturePhotoSettings.format")
        let supported = camera.activeFormat.supportedMaxPhotoDimensions
        let limit = maxPhotoDimensions
        let asked = settings.maxPhotoDimensions
        let dimensions = asked == CMVideoDimensions() ? supported.first ?? limit : asked
        Misuse.check(supported.contains(dimensions) && dimensions.width <= limit.width && dimensions.height <= limit.height,
                     .photoDimensionsNotSupported)

        let resolved = AVCaptureResolvedPhotoSettings(uniqueID: settings.uniqueID, photoDimensions: dimensions)
        nonisolated(unsafe) let metadata = PhotoMetadata.make(width: Int(dimensions.width), height: Int(dimensions.height),
                                          orientation: connection.videoOrientation, device: camera,
                                          extra: settings.metadata)
        let box = WeakDelegate(delegate)
        core.queue.async { [self] in box.delegate?.photoOutput(self, willBeginCaptureFor: resolved) }
        core.takeNextFrame { [self] result in
            guard let delegate = box.delegate else { return }
            var image: StillImageCapture.Image?
            var timestamp = CMTime.invalid
            var error: AVError?
            switch result {
            case .success(let frame):
                delegate.photoOutput(self, willCapturePhotoFor: resolved)
                delegate.photoOutput(self, didCapturePhotoFor: resolved)
                timestamp = frame.presentationTime
                do throws(AVError) {
                    image = try core.render(frame, as: encoding, width: Int(dimensions.width), height: Int(dimensions.height))
                } catch let failure {
                    error = failure
                }
            case .failure(let failure):
                error = failure
            }
            let photo = AVCapturePhoto(resolvedSettings: resolved, timestamp: timestamp, image: image, metadata: metadata)
            delegate.photoOutput(self, didFinishProcessingPhoto: photo, error: error)
            delegate.photoOutput(self, didFinishCaptureFor: resolved, error: error)
        }
    }
}

/// A capture delegate held weakly, to pass between queues.
private final class WeakDelegate: @unchecked Sendable {
    weak var delegate: (any AVCapturePhotoCaptureDelegate)?

    init(_ delegate: any AVCapturePhotoCaptureDelegate) {
        self.delegate = delegate
    }
}
