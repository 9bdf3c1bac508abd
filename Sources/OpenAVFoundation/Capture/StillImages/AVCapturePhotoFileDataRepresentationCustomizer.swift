import Foundation

/// Changes what `AVCapturePhoto.fileDataRepresentation(with:)` writes into the photo's file.
///
/// Differs from Apple: only the metadata can be replaced. The other replacements (embedded
/// thumbnail, depth data, mattes, RAW settings) concern data no camera here produces, and
/// their Objective-C out-parameters (`AutoreleasingUnsafeMutablePointer`) do not exist in Swift
/// on Linux.
public protocol AVCapturePhotoFileDataRepresentationCustomizer: AnyObject {
    /// The metadata to write in place of the photo's own (`photo.metadata`), or nil to keep it.
    func replacementMetadata(for photo: AVCapturePhoto) -> [String: Any]?
}

extension AVCapturePhotoFileDataRepresentationCustomizer {
    /// Keeps the photo's own metadata.
    public func replacementMetadata(for photo: AVCapturePhoto) -> [String: Any]? { nil }
}
