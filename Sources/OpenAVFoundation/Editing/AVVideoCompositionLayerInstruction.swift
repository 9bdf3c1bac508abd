import Foundation
import HostSystem
import OpenCoreMedia
import OpenCoreVideo

/// How one source track is drawn during a video composition instruction: its transform into
/// the render space, its opacity and its crop rectangle, each constant or ramping over time.
///
/// Transform ramps interpolate the matrix component by component, opacity and crop ramps
/// linearly. Before the first value set, the transform is the identity, the opacity 1 and the
/// crop the whole picture; after the last ramp, its end value holds.
open class AVVideoCompositionLayerInstruction: NSObject, @unchecked Sendable {
    /// The track drawn and its ramps (settable in the mutable subclass).
    struct Ramps {
        var trackID: CMPersistentTrackID = kCMPersistentTrackID_Invalid
        var transforms = LayerRamps<CGAffineTransform>()
        var opacities = LayerRamps<Float>()
        var crops = LayerRamps<CGRect>()
    }

    /// The track and ramps, behind one lock.
    let ramps = Locked(Ramps())

    /// A layer instruction drawing no track, with no ramps.
    public required override init() {
        super.init()
    }

    /// The ID of the source track the instruction draws.
    open var trackID: CMPersistentTrackID { ramps.trackID }

    /// The transform ramp whose time range holds `time`, else the first one starting after it:
    /// its start and end transforms and time range (a transform set at a time holds until the
    /// next ramp). False when there is neither.
    open func getTransformRamp(for time: CMTime, start startTransform: UnsafeMutablePointer<CGAffineTransform>?,
                               end endTransform: UnsafeMutablePointer<CGAffineTransform>?,
                               timeRange: UnsafeMutablePointer<CMTimeRange>?) -> Bool {
        guard let ramp = ramps.withLock({ $0.transforms.reported(at: time) }) else { return false }
        startTransform?.pointee = ramp.start
        endTransform?.pointee = ramp.end
        timeRange?.pointee = ramp.timeRange
        return true
    }

    /// The opacity ramp whose time range holds `time`, else the first one starting after it;
    /// false when there is neither.
    open func getOpacityRamp(for time: CMTime, startOpacity: UnsafeMutablePointer<Float>?,
                             endOpacity: UnsafeMutablePointer<Float>?, timeRange: UnsafeMutablePointer<CMTimeRange>?) -> Bool {
        guard let ramp = ramps.withLock({ $0.opacities.reported(at: time) }) else { return false }
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
        guard let ramp = ramps.withLock({ $0.crops.reported(at: time) }) else { return false }
        startCropRectangle?.pointee = ramp.start
        endCropRectangle?.pointee = ramp.end
        timeRange?.pointee = ramp.timeRange
        return true
    }

    /// What the instruction draws at `time`: transform, opacity and crop (nil: none).
    func state(at time: CMTime) -> (transform: CGAffineTransform, opacity: Float, crop: CGRect?) {
        ramps.withLock { ramps in
            let transform = ramps.transforms.value(at: time, default: .identity) { a, b, f in
                CGAffineTransform(a: a.a + (b.a - a.a) * f, b: a.b + (b.b - a.b) * f, c: a.c + (b.c - a.c) * f,
                                  d: a.d + (b.d - a.d) * f, tx: a.tx + (b.tx - a.tx) * f, ty: a.ty + (b.ty - a.ty) * f)
            }
            let opacity = ramps.opacities.value(at: time, default: 1) { a, b, f in a + (b - a) * Float(f) }
            let crop: CGRect? = ramps.crops.ramp(at: time) == nil ? nil : ramps.crops.value(at: time, default: .null) { a, b, f in
                CGRect(x: a.minX + (b.minX - a.minX) * f, y: a.minY + (b.minY - a.minY) * f,
                       width: a.width + (b.width - a.width) * f, height: a.height + (b.height - a.height) * f)
            }
            return (transform, opacity, crop)
        }
    }

    /// A copy with the same track and ramps, of `type`.
    func copied<T: AVVideoCompositionLayerInstruction>(as type: T.Type) -> T {
        let copy = T()
        let snapshot = ramps.withLock { $0 }
        copy.ramps.withLock { $0 = snapshot }
        return copy
    }

    /// An immutable copy.
    open override func copy() -> Any { copied(as: AVVideoCompositionLayerInstruction.self) }

    /// A mutable copy.
    open override func mutableCopy() -> Any { copied(as: AVMutableVideoCompositionLayerInstruction.self) }
}
