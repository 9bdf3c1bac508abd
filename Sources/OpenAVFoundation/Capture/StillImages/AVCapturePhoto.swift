import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// One photo from an `AVCapturePhotoOutput`: the image (JPEG data or an uncompressed pixel
/// buffer), its metadata and the settings it was taken with.
public final class AVCapturePhoto: NSObject, @unchecked Sendable {
    private let image: StillImageCapture.Image?

    /// The settings the photo was taken with.
    public let resolvedSettings: AVCaptureResolvedPhotoSettings
    /// When the camera took the frame, on the session's clock (the host time clock); invalid for
    /// a capture that failed.
    public let timestamp: CMTime
    /// The photo's metadata: `kCGImagePropertyOrientation`, the `{TIFF}` dictionary (make,
    /// model, software, date) and the `{Exif}` dictionary (pixel dimensions, date taken), with the
    /// settings' own `metadata` merged in.
    public let metadata: [String: Any]

    init(resolvedSettings: AVCaptureResolvedPhotoSettings, timestamp: CMTime, image: StillImageCapture.Image?,
         metadata: [String: Any]) {
        self.resolvedSettings = resolvedSettings
        self.timestamp = timestamp
        self.image = image
        self.metadata = metadata
    }

    /// Which photo of the request this is, from 1: always 1 (one photo per request here).
    public var photoCount: Int { 1 }

    /// Whether this is a RAW photo: always false here.
    public var isRawPhoto: Bool { false }

    /// The uncompressed photo, for settings with `kCVPixelBufferPixelFormatTypeKey`; nil for a
    /// JPEG photo, as on Apple platforms.
    public var pixelBuffer: CVPixelBuffer? {
        if case .pixels(let buffer) = image { return buffer }
        return nil
    }

    /// A preview-sized version of the photo: always nil, as no preview is asked for here (photo
    /// settings have no preview format).
    public var previewPixelBuffer: CVPixelBuffer? { nil }

    /// The preview-sized version of the photo as an image: always nil, as for `previewPixelBuffer`.
    public func previewCGImageRepresentation() -> CGImage? { nil }

    /// The photo as a file: a JPEG (JFIF with an EXIF block holding `metadata`). Nil for an
    /// uncompressed photo or a failed capture.
    ///
    /// Differs from Apple: uncompressed photos have no file form (Apple's is TIFF).
    public func fileDataRepresentation() -> Data? {
        fileData(metadata: metadata)
    }

    /// The photo as a file, as `fileDataRepresentation()` makes it, with what `customizer`
    /// replaces (its metadata).
    public func fileDataRepresentation(with customizer: any AVCapturePhotoFileDataRepresentationCustomizer) -> Data? {
        fileData(metadata: customizer.replacementMetadata(for: self) ?? metadata)
    }

    /// The JPEG with `metadata` in its EXIF block; nil for an uncompressed photo.
    private func fileData(metadata: [String: Any]) -> Data? {
        guard case .jpeg(let data) = image else { return nil }
        return PhotoMetadata.insert(metadata, into: data)
    }

    /// The photo as an sRGB image, for an uncompressed photo.
    ///
    /// Differs from Apple: nil for a JPEG photo (this does not decode JPEG); ask for
    /// `kCVPixelFormatType_32BGRA` to get both pixels and an image.
    public func cgImageRepresentation() -> CGImage? {
        guard let pixels = pixelBuffer else { return nil }
        if CVPixelBufferGetPixelFormatType(pixels) == kCVPixelFormatType_32BGRA { return CGImage(pixelBuffer: pixels) }
        let bgra = try? CapturePixelConverter().convert(pixels, to: kCVPixelFormatType_32BGRA,
                                                        width: CVPixelBufferGetWidth(pixels),
                                                        height: CVPixelBufferGetHeight(pixels))
        return bgra.flatMap(CGImage.init(pixelBuffer:))
    }

    /// A description for debugging.
    public override var description: String { "<AVCapturePhoto: \(resolvedSettings.uniqueID) at \(timestamp.seconds) s>" }
}
