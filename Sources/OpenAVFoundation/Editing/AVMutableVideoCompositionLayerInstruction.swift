import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// A layer instruction you set up: the track it draws and its transform, opacity and crop
/// ramps.
open class AVMutableVideoCompositionLayerInstruction: AVVideoCompositionLayerInstruction, @unchecked Sendable {
    /// A layer instruction drawing no track yet.
    public required override init() {
        super.init()
    }

    /// A layer instruction drawing `track`.
    public convenience init(assetTrack track: AVAssetTrack) {
        self.init()
        ramps.trackID = track.trackID
    }

    /// The ID of the source track the instruction draws.
    open override var trackID: CMPersistentTrackID {
        get { super.trackID }
        set { ramps.trackID = newValue }
    }

    /// Ramps the transform from `startTransform` to `endTransform` over `timeRange`.
    open func setTransformRamp(fromStart startTransform: CGAffineTransform, toEnd endTransform: CGAffineTransform,
                               timeRange: CMTimeRange) {
        ramps.withLock { $0.transforms.add(.init(start: startTransform, end: endTransform, timeRange: timeRange)) }
    }

    /// Sets the transform from `time` on, until the next ramp.
    open func setTransform(_ transform: CGAffineTransform, at time: CMTime) {
        ramps.withLock { $0.transforms.set(transform, at: time) }
    }

    /// Ramps the opacity (0–1) from `startOpacity` to `endOpacity` over `timeRange`.
    open func setOpacityRamp(fromStartOpacity startOpacity: Float, toEndOpacity endOpacity: Float, timeRange: CMTimeRange) {
        ramps.withLock { $0.opacities.add(.init(start: startOpacity, end: endOpacity, timeRange: timeRange)) }
    }

    /// Sets the opacity (0–1) from `time` on, until the next ramp.
    open func setOpacity(_ opacity: Float, at time: CMTime) {
        ramps.withLock { $0.opacities.set(opacity, at: time) }
    }

    /// Ramps the crop rectangle (in the source picture's pixels) over `timeRange`.
    open func setCropRectangleRamp(fromStartCropRectangle startCropRectangle: CGRect, toEndCropRectangle endCropRectangle: CGRect,
                                   timeRange: CMTimeRange) {
        ramps.withLock { $0.crops.add(.init(start: startCropRectangle, end: endCropRectangle, timeRange: timeRange)) }
    }

    /// Sets the crop rectangle (in the source picture's pixels) from `time` on.
    open func setCropRectangle(_ cropRectangle: CGRect, at time: CMTime) {
        ramps.withLock { $0.crops.set(cropRectangle, at: time) }
    }
}
