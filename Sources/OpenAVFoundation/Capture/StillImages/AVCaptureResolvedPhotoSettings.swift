import Foundation
import OpenCoreMedia

/// The settings a photo capture request actually uses, fixed when the capture begins and passed
/// to every delegate call of that request.
public final class AVCaptureResolvedPhotoSettings: NSObject, @unchecked Sendable {
    /// The `uniqueID` of the `AVCapturePhotoSettings` the request was made with.
    public let uniqueID: Int64
    /// The size of the delivered photo, in pixels.
    public let photoDimensions: CMVideoDimensions
    /// The size of a RAW photo: zero, as no RAW photo is taken here.
    public var rawPhotoDimensions: CMVideoDimensions { CMVideoDimensions() }
    /// The size of a preview image: zero, as no preview is delivered here.
    public var previewDimensions: CMVideoDimensions { CMVideoDimensions() }
    /// The size of the thumbnail embedded in the photo's file: zero, as none is embedded here.
    public var embeddedThumbnailDimensions: CMVideoDimensions { CMVideoDimensions() }
    /// Whether the flash fires: always false here (no device has a flash).
    public let isFlashEnabled: Bool
    /// How many photos the request delivers: 1.
    public let expectedPhotoCount: Int

    init(uniqueID: Int64, photoDimensions: CMVideoDimensions) {
        self.uniqueID = uniqueID
        self.photoDimensions = photoDimensions
        isFlashEnabled = false
        expectedPhotoCount = 1
    }

    /// A description for debugging.
    public override var description: String {
        "<AVCaptureResolvedPhotoSettings: \(uniqueID) \(photoDimensions.width)x\(photoDimensions.height)>"
    }
}
