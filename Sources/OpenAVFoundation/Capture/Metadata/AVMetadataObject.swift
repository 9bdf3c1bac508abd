import Foundation
import OpenCoreMedia

/// Something a metadata capture output found in a frame: a code, a face. Its `bounds` are in
/// the metadata output's coordinates: 0 to 1 across and down the camera's unturned picture.
open class AVMetadataObject: NSObject, @unchecked Sendable {
    /// What kind of object it is.
    public let type: ObjectType
    /// The presentation time of the frame it was found in.
    public let time: CMTime
    /// The duration of that frame.
    public let duration: CMTime
    /// Its bounding rectangle, in metadata output coordinates.
    public let bounds: CGRect
    /// The input whose frame it was found in (a preview layer of another input does not
    /// transform it).
    weak var input: AVCaptureInput?

    /// An object of `type` in the frame at `time`, from `input`.
    init(type: ObjectType, time: CMTime, duration: CMTime, bounds: CGRect, input: AVCaptureInput?) {
        self.type = type
        self.time = time
        self.duration = duration
        self.bounds = bounds
        self.input = input
        super.init()
    }

    /// The same object with its points moved by `convert` (a preview layer's conversion from
    /// metadata output coordinates to its own): its bounds become the bounding rectangle of
    /// their moved corners. Subclasses move their own points too.
    func transformed(by convert: (CGPoint) -> CGPoint) -> AVMetadataObject {
        AVMetadataObject(type: type, time: time, duration: duration, bounds: bounds.transformed(by: convert), input: input)
    }
}

extension CGRect {
    /// The bounding rectangle of this rectangle's corners moved by `convert`.
    func transformed(by convert: (CGPoint) -> CGPoint) -> CGRect {
        CGRect(corners: convert(origin), convert(CGPoint(x: maxX, y: maxY)))
    }
}
