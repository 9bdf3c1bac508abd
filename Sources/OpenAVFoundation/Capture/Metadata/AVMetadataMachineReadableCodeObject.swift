import Foundation
import OpenCoreMedia

/// A barcode a metadata capture output read: its corners and its content.
public final class AVMetadataMachineReadableCodeObject: AVMetadataObject, @unchecked Sendable {
    /// The code's corners in metadata output coordinates, clockwise from the top-left corner of
    /// the code as it reads (so turned with the code): four points for a 2D code, the two ends
    /// of the line read (each twice) for a 1D code.
    public let corners: [CGPoint]
    /// The code's content as text, decoded by its character set; nil when it is not text.
    public let stringValue: String?

    /// A code of `type` with `corners` and `stringValue` in the frame at `time` from `input`; its
    /// bounds are its corners' bounding rectangle.
    init(type: ObjectType, time: CMTime, duration: CMTime, corners: [CGPoint], stringValue: String?, input: AVCaptureInput?) {
        self.corners = corners
        self.stringValue = stringValue
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let bounds = corners.isEmpty ? .zero
            : CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
        super.init(type: type, time: time, duration: duration, bounds: bounds, input: input)
    }

    /// The code with its corners moved (and its bounds theirs).
    override func transformed(by convert: (CGPoint) -> CGPoint) -> AVMetadataObject {
        AVMetadataMachineReadableCodeObject(type: type, time: time, duration: duration, corners: corners.map(convert),
                                            stringValue: stringValue, input: input)
    }
}
