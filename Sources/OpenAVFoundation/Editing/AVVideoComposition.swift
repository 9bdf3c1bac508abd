import Foundation
import HostSystem
import OpenCoreMedia
import OpenCoreVideo

/// How the video tracks of an asset are combined into frames: the frames' size, scale and
/// rate, and the instructions saying what is drawn during each time range (the guide's
/// *Editing* chapter). The built-in compositor draws `AVVideoCompositionInstruction`s; set
/// `customVideoCompositorClass` to compose frames yourself. `AVAssetReaderVideoCompositionOutput`,
/// `AVAssetExportSession`, `AVAssetImageGenerator` and `AVPlayerItem` take it.
///
/// Differs from Apple: there is no Core Image or Core Animation on Linux, so neither
/// `init(asset:applyingCIFiltersWithHandler:)` nor `animationTool` exists; draw titles,
/// watermarks and filters with a custom compositor (the Editing article shows one).
open class AVVideoComposition: NSObject, @unchecked Sendable {
    /// Everything a video composition holds.
    struct Values {
        var frameDuration = CMTime.zero
        var renderSize = CGSize.zero
        var renderScale: Float = 1
        var instructions: [any AVVideoCompositionInstructionProtocol] = []
        var sourceTrackIDForFrameTiming = kCMPersistentTrackID_Invalid
        var customVideoCompositorClass: (any AVVideoCompositing.Type)?
        var colorPrimaries: String?
        var colorTransferFunction: String?
        var colorYCbCrMatrix: String?
    }

    /// The values, behind one lock (settable in the mutable subclass).
    let values = Locked(Values())

    /// An empty video composition: no instructions, a zero size and a zero frame duration.
    public required override init() {
        super.init()
    }

    /// A video composition that shows the asset's video tracks as they are (see
    /// `videoComposition(withPropertiesOf:)`).
    public convenience init(propertiesOf asset: AVAsset) {
        self.init()
        let properties = Self.values(propertiesOf: asset)
        values.withLock { $0 = properties }
    }

    /// A video composition that shows the asset's video tracks as they are: the render size
    /// holds every track turned by its preferred transform (a composition's natural size for
    /// a composition), the frame duration suits the fastest track (1/30 s when none says),
    /// and one instruction for each time range in which the same tracks have media, with a
    /// layer for each (the lowest track ID on top) set to its preferred transform (moved so
    /// that the turned picture starts at the frame's origin, for files whose matrix turns it
    /// out of the frame).
    open class func videoComposition(withPropertiesOf asset: AVAsset) async throws -> AVVideoComposition {
        _ = try await asset.load(.tracks, .duration)
        let composition = self.init()
        let properties = values(propertiesOf: asset)
        composition.values.withLock { $0 = properties }
        return composition
    }

    /// The same, answered on an arbitrary queue.
    open class func videoComposition(withPropertiesOf asset: AVAsset,
                                     completionHandler: @escaping @Sendable (AVVideoComposition?, (any Error)?) -> Void) {
        let made = self
        Task {
            do {
                completionHandler(try await made.videoComposition(withPropertiesOf: asset), nil)
            } catch {
                completionHandler(nil, error)
            }
        }
    }

    /// The interval between composed frames.
    open var frameDuration: CMTime { values.frameDuration }
    /// The size composed frames are rendered at, before `renderScale`.
    open var renderSize: CGSize { values.renderSize }
    /// The scale composed frames are rendered at, 1 by default.
    open var renderScale: Float { values.renderScale }
    /// What is drawn during each time range, in time order, without gaps or overlaps.
    open var instructions: [any AVVideoCompositionInstructionProtocol] { values.instructions }
    /// A source track whose frame times the composed frames follow (one composed frame for
    /// each of its frames, none where it has none), or `kCMPersistentTrackID_Invalid` for
    /// frames every `frameDuration`.
    open var sourceTrackIDForFrameTiming: CMPersistentTrackID { values.sourceTrackIDForFrameTiming }
    /// The class of a compositor of your own, or nil for the built-in one.
    open var customVideoCompositorClass: (any AVVideoCompositing.Type)? { values.customVideoCompositorClass }
    /// The colour primaries of composed frames, one of the `AVVideoColorPrimaries_…` values; nil
    /// (the default) for the sources' own. Composed frames carry it as their
    /// `kCVImageBufferColorPrimariesKey` attachment, and an export writes it into the file.
    ///
    /// Differs from Apple: frames are tagged, not converted between gamuts.
    open var colorPrimaries: String? { values.colorPrimaries }
    /// The transfer function of composed frames, one of the `AVVideoTransferFunction_…` values;
    /// nil (the default) for the sources' own. Composed frames carry it as their
    /// `kCVImageBufferTransferFunctionKey` attachment, and an export writes it into the file.
    ///
    /// Differs from Apple: frames are tagged, not converted between transfer curves.
    open var colorTransferFunction: String? { values.colorTransferFunction }
    /// The Y'CbCr matrix of composed frames, one of the `AVVideoYCbCrMatrix_…` values; nil (the
    /// default) for the sources' own. Composed frames delivered in a Y'CbCr format are
    /// converted with this matrix and carry it as their `kCVImageBufferYCbCrMatrixKey`
    /// attachment, and an export encodes and tags the file with it.
    open var colorYCbCrMatrix: String? { values.colorYCbCrMatrix }

    /// An immutable copy.
    open override func copy() -> Any { copied(as: AVVideoComposition.self) }

    /// A mutable copy.
    open override func mutableCopy() -> Any { copied(as: AVMutableVideoComposition.self) }

    private func copied(as type: AVVideoComposition.Type) -> AVVideoComposition {
        let copy = type.init()
        let snapshot = values.withLock { $0 }
        copy.values.withLock { $0 = snapshot }
        return copy
    }

    /// Whether the composition can render `timeRange` of `asset` (its whole duration when the
    /// range is invalid): positive size, scale and frame duration, instructions in order with
    /// no gap, overlap or invalid range, and layers that name the asset's video tracks. Each
    /// problem goes to the delegate, which says whether to look further.
    open func isValid(for asset: AVAsset?, timeRange: CMTimeRange,
                      validationDelegate: (any AVVideoCompositionValidationHandling)?) -> Bool {
        VideoCompositionValidation(composition: self, asset: asset, delegate: validationDelegate).run(timeRange)
    }

    /// The same check against an asset's tracks (an empty array skips the check of layer
    /// instructions' track IDs) and duration (`.invalid` to skip it when `timeRange` is
    /// invalid too). The delegate is handed the tracks' asset with an unknown track ID.
    open func isValid(for tracks: [AVAssetTrack], assetDuration duration: CMTime, timeRange: CMTimeRange,
                      validationDelegate: (any AVVideoCompositionValidationHandling)?) -> Bool {
        VideoCompositionValidation(composition: self, tracks: tracks, duration: duration, delegate: validationDelegate).run(timeRange)
    }

    /// The same check as `isValid(for:timeRange:validationDelegate:)`, once `asset`'s tracks and
    /// duration have loaded; `completionHandler` is called on an arbitrary queue with the
    /// answer, or with false and the error when the asset cannot be loaded.
    open func determineValidity(for asset: AVAsset?, timeRange: CMTimeRange,
                                validationDelegate: (any AVVideoCompositionValidationHandling)?,
                                completionHandler: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        nonisolated(unsafe) let delegate = validationDelegate
        Task {
            do {
                if let asset { _ = try await asset.load(.tracks, .duration) }
                completionHandler(isValid(for: asset, timeRange: timeRange, validationDelegate: delegate), nil)
            } catch {
                completionHandler(false, error)
            }
        }
    }

    // MARK: Properties of an asset

    /// The values of a composition showing `asset`'s video tracks as they are, each
    /// instruction a copy of `prototype` (when given) with its time range and layers.
    static func values(propertiesOf asset: AVAsset, prototype: AVVideoCompositionInstruction? = nil) -> Values {
        let tracks = asset.tracks(withMediaType: .video).filter { $0.timeRange.isValid && $0.timeRange.duration > .zero }
            .sorted { $0.trackID < $1.trackID }
        var values = Values()
        values.renderSize = renderSize(of: asset, tracks: tracks)
        let durations = tracks.map(\.minFrameDuration).filter { $0.isNumeric && $0 > .zero }
        values.frameDuration = durations.min() ?? CMTime(value: 1, timescale: 30)
        // Instructions: one per span in which the same tracks have media.
        var cuts = Set<CMTime>()
        for track in tracks {
            for segment in track.segments where !segment.isEmpty {
                cuts.insert(segment.timeMapping.target.start)
                cuts.insert(segment.timeMapping.target.end)
            }
        }
        let times = cuts.sorted()
        var instructions: [AVMutableVideoCompositionInstruction] = []
        for (start, end) in zip(times, times.dropFirst()) {
            let present = tracks.filter { track in
                track.segments.contains { !$0.isEmpty && $0.timeMapping.target.start <= start && $0.timeMapping.target.end >= end }
            }
            let layers = present.map { track -> AVVideoCompositionLayerInstruction in
                let layer = AVMutableVideoCompositionLayerInstruction(assetTrack: track)
                layer.setTransform(upright(track), at: start)
                return layer
            }
            if let last = instructions.last, last.layerInstructions.map(\.trackID) == layers.map(\.trackID) {
                last.timeRange = CMTimeRange(start: last.timeRange.start, end: end)
                continue
            }
            let instruction = prototype?.copied(as: AVMutableVideoCompositionInstruction.self) ?? AVMutableVideoCompositionInstruction()
            instruction.timeRange = CMTimeRange(start: start, end: end)
            instruction.layerInstructions = layers
            instructions.append(instruction)
        }
        values.instructions = instructions
        return values
    }

    /// A track's preferred transform, moved so that the turned picture starts at the origin:
    /// what cameras write already; FFmpeg's rotation matrices turn about the origin and leave
    /// the picture outside the frame.
    private static func upright(_ track: AVAssetTrack) -> CGAffineTransform {
        let transform = track.preferredTransform
        let box = CGRect(origin: .zero, size: track.naturalSize).applying(transform)
        guard !box.isNull, box.minX != 0 || box.minY != 0 else { return transform }
        return transform.concatenating(CGAffineTransform(translationX: -box.minX, y: -box.minY))
    }

    /// A composition's natural size, else the box holding every track turned by its
    /// preferred transform.
    private static func renderSize(of asset: AVAsset, tracks: [AVAssetTrack]) -> CGSize {
        if let composition = asset as? AVComposition { return composition.naturalSize }
        var box = CGRect.null
        for track in tracks {
            box = box.union(CGRect(origin: .zero, size: track.naturalSize).applying(track.preferredTransform))
        }
        return box.isNull ? .zero : CGSize(width: box.width.rounded(), height: box.height.rounded())
    }
}

extension AVVideoComposition {
    /// A copy of `composition` (so later changes to a mutable one do not reach its user) and an
    /// instance of its custom compositor class, as a reader output or an image generator keeps them.
    static func copyWithCompositor(_ composition: AVVideoComposition?) -> (AVVideoComposition?, (any AVVideoCompositing)?) {
        let copy = composition?.copy() as? AVVideoComposition
        return (copy, copy?.customVideoCompositorClass.map { $0.init() })
    }
}
