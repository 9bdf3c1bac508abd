import CFaces
import Foundation
import OpenCoreVideo

/// Finds faces in pictures with dlib's frontal face detector (HOG features, its model compiled
/// into dlib): the one face detector (`AVCaptureMetadataOutput`). Faces looking at the camera,
/// up to about 40° to a side and turned up to about 30° in the picture, at least 80 pixels wide
/// in a copy of the picture at most `detectionWidth` wide. Keeps its pictures from one call to
/// the next: used by one thread at a time.
package final class FaceFinder {
    /// A face found: its box in the picture's pixels and the detector's confidence.
    package struct Face: Sendable, Equatable {
        package let bounds: CGRect
        package let confidence: Float
    }

    /// Faces are looked for in a copy at most this wide (1920x1080 is looked at as 960x540, so
    /// a face there must be about 160 pixels wide): about 30 ms a picture on one core.
    package static let detectionWidth = 960
    /// The confidence a face must exceed: dlib's faces score about 0.5 to 1.5, and round
    /// things that are not faces at most 0.25.
    package static let threshold: Float = 0.3
    /// The most faces reported in one picture.
    private static let limit = 32

    private let detector: OpaquePointer
    private var found = [cfaces_face](repeating: cfaces_face(), count: FaceFinder.limit)

    /// A finder; throws when dlib cannot make its detector.
    package init() throws(EngineError) {
        guard let detector = cfaces_create() else {
            throw EngineError(operation: "finding faces", message: "dlib cannot make its face detector")
        }
        self.detector = detector
    }

    deinit {
        cfaces_destroy(detector)
    }

    /// The faces in `picture` (4:2:0 biplanar: its luma is read), in its pixels. Throws for
    /// another pixel format, or when dlib fails.
    package func find(in picture: CVPixelBuffer) throws(EngineError) -> [Face] {
        let format = CVPixelBufferGetPixelFormatType(picture)
        guard format == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange || format == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange else {
            throw EngineError(operation: "finding faces", message: "pictures of pixel format \(format) are not read (4:2:0 biplanar only)")
        }
        CVPixelBufferLockBaseAddress(picture, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(picture, .readOnly) }
        guard let luma = CVPixelBufferGetBaseAddressOfPlane(picture, 0) else { return [] }
        let count = found.withUnsafeMutableBufferPointer { faces in
            cfaces_find(detector, luma.assumingMemoryBound(to: UInt8.self), Int32(CVPixelBufferGetWidth(picture)),
                        Int32(CVPixelBufferGetHeight(picture)), Int32(CVPixelBufferGetBytesPerRowOfPlane(picture, 0)),
                        Int32(Self.detectionWidth), Self.threshold, faces.baseAddress, Int32(Self.limit))
        }
        guard count >= 0 else { throw EngineError(operation: "finding faces", message: "dlib failed") }
        return found.prefix(Int(count)).map { face in
            Face(bounds: CGRect(x: Int(face.x), y: Int(face.y), width: Int(face.width), height: Int(face.height)),
                 confidence: face.confidence)
        }
    }
}
