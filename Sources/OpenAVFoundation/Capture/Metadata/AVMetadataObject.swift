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

    /// An object of `type` in the frame at `time`.
    init(type: ObjectType, time: CMTime, duration: CMTime, bounds: CGRect) {
        self.type = type
        self.time = time
        self.duration = duration
        self.bounds = bounds
        super.init()
    }
}
