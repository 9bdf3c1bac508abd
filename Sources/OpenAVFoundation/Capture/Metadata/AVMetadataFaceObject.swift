import Foundation
import OpenCoreMedia

/// A face a metadata capture output found: its bounds and an ID that follows it from frame to
/// frame while it stays in the picture.
///
/// Linux: dlib's frontal face detector finds faces looking at the camera (up to about 40° to a
/// side, turned up to about 30° in the picture); it gives no angles, so `hasRollAngle` and
/// `hasYawAngle` are false.
public final class AVMetadataFaceObject: AVMetadataObject, @unchecked Sendable {
    /// The face's ID: a new one each time a face enters the picture, never reused (the same
    /// face leaving and coming back gets a new one).
    public let faceID: Int
    /// Whether `rollAngle` holds the face's roll (never here).
    public let hasRollAngle = false
    /// The face's roll in degrees, when `hasRollAngle`: 0 here.
    public let rollAngle: CGFloat = 0
    /// Whether `yawAngle` holds the face's yaw (never here).
    public let hasYawAngle = false
    /// The face's yaw in degrees, when `hasYawAngle`: 0 here.
    public let yawAngle: CGFloat = 0

    /// Face `faceID` within `bounds` (metadata output coordinates) in the frame at `time` from `input`.
    init(faceID: Int, time: CMTime, duration: CMTime, bounds: CGRect, input: AVCaptureInput?) {
        self.faceID = faceID
        super.init(type: .face, time: time, duration: duration, bounds: bounds, input: input)
    }

    /// The face with its bounds moved.
    override func transformed(by convert: (CGPoint) -> CGPoint) -> AVMetadataObject {
        AVMetadataFaceObject(faceID: faceID, time: time, duration: duration, bounds: bounds.transformed(by: convert), input: input)
    }
}
