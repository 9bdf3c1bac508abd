import Foundation
import OpenCoreVideo

/// A picture a video layer shows: where (`rect`, the turned picture's place) and what of it
/// may show (`clip`), in the coordinates of the layer or, once gathered, of the window; turned by
/// `transform` (a track's preferred transform: quarter turns and mirroring).
struct LayerPicture {
    let buffer: CVPixelBuffer
    var rect: CGRect
    var clip: CGRect
    var transform: CGAffineTransform = .identity

    /// Whether the transform mirrors the picture (left to right, before it turns).
    var mirrored: Bool { transform.a * transform.d - transform.b * transform.c < 0 }
    /// The transform's clockwise quarter turns on the screen (y down), after the mirroring.
    var quarterTurns: Int {
        let sign: CGFloat = mirrored ? -1 : 1
        return Int((atan2(sign * transform.b, sign * transform.a) * 2 / .pi).rounded())
    }
}
