import Foundation
import HostSystem
import OpenCoreMedia

/// What one photo capture request asks for: the format (JPEG or an uncompressed pixel format),
/// the flash, the largest size, extra metadata. Pass it to
/// `AVCapturePhotoOutput.capturePhoto(with:delegate:)`, which checks it; use a new settings
/// object (`init(from:)` copies one) for each capture.
///
/// Differs from Apple: RAW, Live Photo, preview and thumbnail settings are absent (no device here
/// offers them).
public final class AVCapturePhotoSettings: NSObject, @unchecked Sendable {
    /// The last `uniqueID` given.
    private static let lastID = Locked<Int64>(0)

    @Locked private var highResolution = false

    /// The identifier of this settings object, unique in the process; the resolved settings of
    /// the capture made with it carry the same.
    public let uniqueID: Int64

    /// The processed format photos are delivered in: `AVVideoCodecKey` (`AVVideoCodecType.jpeg`,
    /// optionally with `AVVideoQualityKey` in `AVVideoCompressionPropertiesKey`) or
    /// `kCVPixelBufferPixelFormatTypeKey` (one of the output's `availablePhotoPixelFormatTypes`).
    public let format: [String: Any]?

    /// The file container of processed photos: always nil here, which means the output's choice
    /// (JFIF for JPEG).
    public var processedFileType: AVFileType? { nil }

    /// Settings for a JPEG photo, the flash off.
    public override convenience init() {
        self.init(format: [AVVideoCodecKey: AVVideoCodecType.jpeg])
    }

    /// Settings for a photo in `format` (see `format`); nil means JPEG.
    public init(format: [String: Any]?) {
        self.format = format ?? [AVVideoCodecKey: AVVideoCodecType.jpeg]
        uniqueID = Self.lastID.withLock { lastID in
            lastID += 1
            return lastID
        }
        super.init()
    }

    /// A copy of `photoSettings` with a new `uniqueID`, to take another photo the same way.
    public convenience init(from photoSettings: AVCapturePhotoSettings) {
        self.init(format: photoSettings.format)
        flashMode = photoSettings.flashMode
        maxPhotoDimensions = photoSettings.maxPhotoDimensions
        metadata = photoSettings.metadata
        photoQualityPrioritization = photoSettings.photoQualityPrioritization
        highResolution = photoSettings.highResolution
    }

    /// Whether the flash fires: `.off` by default. It must be one of the output's
    /// `supportedFlashModes` (only `.off` here, as no device has a flash).
    @Locked public var flashMode = AVCaptureDevice.FlashMode.off

    /// The largest photo to take: one of the active format's `supportedMaxPhotoDimensions`, no
    /// larger than the output's `maxPhotoDimensions`. Zero (the default) means the smallest
    /// supported dimensions.
    @Locked public var maxPhotoDimensions = CMVideoDimensions()

    /// How to weigh the photo's quality against the speed of its delivery: `.balanced` by
    /// default. It may not exceed the output's `maxPhotoQualityPrioritization`; here photos are
    /// taken the same way whatever it says.
    @Locked public var photoQualityPrioritization = AVCapturePhotoOutput.QualityPrioritization.balanced

    /// Whether to take the photo at the format's `highResolutionStillImageDimensions`; needs the
    /// output's `isHighResolutionCaptureEnabled`. Deprecated by Apple in favour of
    /// `maxPhotoDimensions`; the cameras here take photos at their frame size either way.
    @available(*, deprecated, message: "Use maxPhotoDimensions instead.")
    public var isHighResolutionPhotoEnabled: Bool {
        get { highResolution }
        set { highResolution = newValue }
    }

    /// Whether high resolution was asked for, without the deprecation warning.
    var wantsHighResolution: Bool { highResolution }

    /// Metadata to add to the photo's own (ImageIO keys such as `kCGImagePropertyExifDictionary`),
    /// replacing the output's values of the same top-level keys.
    @Locked public var metadata = [String: Any]()

    /// A description for debugging.
    public override var description: String { "<AVCapturePhotoSettings: \(uniqueID)>" }
}
