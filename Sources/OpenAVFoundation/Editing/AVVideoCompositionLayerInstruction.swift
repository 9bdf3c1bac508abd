import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// How one source track is drawn during a video composition instruction: its transform into
/// the render space, its opacity and its crop rectangle, each constant or ramping over time.
///
/// Transform ramps interpolate the matrix component by component, opacity and crop ramps
/// linearly. Before the first value set, the transform is the identity, the opacity 1 and the
/// crop the whole picture; after the last ramp, its end value holds.
open class AVVideoCompositionLayerInstruction: NSObject, @unchecked Sendable {
    let rampLock = NSLock()
    /// The track drawn (guarded by `rampLock`).
    var layerTrackID: CMPersistentTrackID = kCMPersistentTrackID_Invalid
    var transforms = LayerRamps<CGAffineTransform>()
    var opacities = LayerRamps<Float>()
    var crops = LayerRamps<CGRect>()

    /// A layer instruction drawing no track, with no ramps.
    public required override init() {
        super.init()
    }

    /// The ID of the source track the instruction draws.
    open var trackID: CMPersistentTrackID { rampLock.withLock { layerTrackID } }

    /// The transform ramp whose time range holds `time`, else the first one starting after it:
    /// its start and end transforms and time range (a transform set at a time holds until the
    /// next ramp). False when there is neither.
    open func getTransformRamp(for time: CMTime, start startTransform: UnsafeMutablePointer<CGAffineTransform>?,
                               end endTransform: UnsafeMutablePointer<CGAffineTransform>?,
                               timeRange: UnsafeMutablePointer<CMTimeRange>?) -> Bool {
        guard let ramp = rampLock.withLock({ transforms.reported(at: time) }) else { return false }
        startTransform?.pointee = ramp.start
        endTransform?.pointee = ramp.end
        timeRange?.pointee = ramp.timeRange
        return true
    }

    /// The opacity ramp whose time range holds `time`, else the first one starting after it;
    /// false when there is neither.
    open func getOpacityRamp(for time: CMTime, startOpacity: UnsafeMutablePointer<Float>?,
                             endOpacity: UnsafeMutablePointer<Float>?, timeRange: UnsafeMutablePointer<CMTimeRange>?) -> Bool {
        guard let ramp = rampLock.withLock({ opacities.reported(at: time) }) else { return false }
        startOpacity?.pointee = ramp.start
        endOpacity?.pointee = ramp.end
        timeRange?.pointee = ramp.timeRange
        return true
    }

    /// The crop rectangle ramp whose time range holds `time`, else the first one starting
    /// after it; false when there is neither.
    open func getCropRectangleRamp(for time: CMTime, startCropRectangle: UnsafeMutablePointer<CGRect>?,
                                   endCropRectangle: UnsafeMutablePointer<CGRect>?,
                                   timeRange: UnsafeMutablePointer<CMTimeRange>?) -> Bool {
        guard let ramp = rampLock.withLock({ crops.reported(at: time) }) else { return false }
        startCropRectangle?.pointee = ramp.start
        endCropRectangle?.pointee = ramp.end
        timeRange?.pointee = ramp.timeRange
        return true
    }

    /// What the instruction draws at `time`: transform, opacity and crop (nil: none).
    func state(at time: CMTime) -> (transform: CGAffineTransform, opacity: Float, crop: CGRect?) {
        rampLock.withLock {
            let transform = transforms.value(at: time, default: .identity) { a, b, f in
                CGAffineTransform(a: a.a + (b.a - a.a) * f, b: a.b + (b.b - a.b) * f, c: a.c + (b.c - a.c) * f,
                                  d: a.d + (b.d - a.d) * f, tx: a.tx + (b.tx - a.tx) * f, ty: a.ty + (b.ty - a.ty) * f)
            }
            let opacity = opacities.value(at: time, default: 1) { a, b, f in a + (b - a) * Float(f) }
            let crop: CGRect? = crops.ramp(at: time) == nil ? nil : crops.value(at: time, default: .null) { a, b, f in
                CGRect(x: a.minX + (b.minX - a.minX) * f, y: a.minY + (b.minY - a.minY) * f,
                       width: a.width + (b.width - a.width) * f, height: a.height + (b.height - a.height) * f)
            }
            return (transform, opacity, crop)
        }
    }

    /// A copy with the same track and ramps, of `type`.
    func copied<T: AVVideoCompositionLayerInstruction>(as type: T.Type) -> T {
        let copy = T()
        rampLock.withLock {
            (copy.layerTrackID, copy.transforms, copy.opacities, copy.crops) = (layerTrackID, transforms, opacities, crops)
        }
        return copy
    }

    /// An immutable copy.
    open override func copy() -> Any { copied(as: AVVideoCompositionLayerInstruction.self) }

    /// A mutable copy.
    open override func mutableCopy() -> Any { copied(as: AVMutableVideoCompositionLayerInstruction.self) }
}
