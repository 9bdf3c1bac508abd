import Foundation
import HostSystem
import OpenCoreMedia
import OpenCoreVideo

/// Reads the frames of a video composition of an asset's video tracks: one every
/// `frameDuration`, drawn by the built-in compositor or by the composition's custom one.
open class AVAssetReaderVideoCompositionOutput: AVAssetReaderOutput, @unchecked Sendable {
    /// The video tracks composed.
    public let videoTracks: [AVAssetTrack]
    /// The pixel buffer settings of the frames (`kCVPixelBufferPixelFormatTypeKey`, width and
    /// height); nil for 32-bit BGRA at the render size.
    public let videoSettings: [String: Any]?

    private let plan: Swift.Result<VideoOutputSettings, SettingsProblem>

    /// The copy of the video composition and the compositor that draws it, set together.
    private struct Composing {
        var composition: AVVideoComposition?
        var compositor: (any AVVideoCompositing)?
    }

    private let composing = Locked(Composing())

    /// Creates an output composing `videoTracks`; set `videoComposition` before reading starts.
    public init(videoTracks: [AVAssetTrack], videoSettings: [String: Any]?) {
        self.videoTracks = videoTracks
        self.videoSettings = videoSettings
        do {
            plan = .success(try VideoOutputSettings(videoSettings ?? [kCVPixelBufferPixelFormatTypeKey: kCVPixelFormatType_32BGRA]))
        } catch let problem as SettingsProblem {
            plan = .failure(problem)
        } catch {
            plan = .failure(SettingsProblem("\(error)"))
        }
        super.init()
    }

    /// Always `.video`.
    open override var mediaType: AVMediaType { .video }

    /// How the tracks are composed; a copy is kept, so later changes to a mutable composition
    /// do not reach a reading under way.
    open var videoComposition: AVVideoComposition? {
        get { composing.composition }
        set {
            let (copy, made) = AVVideoComposition.copyWithCompositor(newValue)
            composing.withLock { composing in
                composing.composition = copy
                composing.compositor = made
            }
        }
    }

    /// Sets the composition (already copied) and the compositor that draws it (an image
    /// generator's own, so that its `customVideoCompositor` is the one at work).
    func setVideoComposition(_ composition: AVVideoComposition, compositor: (any AVVideoCompositing)?) {
        composing.withLock { composing in
            composing.composition = composition
            composing.compositor = compositor
        }
    }

    /// The custom compositor made from the composition's `customVideoCompositorClass`, or nil.
    open var customVideoCompositor: (any AVVideoCompositing)? { composing.compositor }

    override var tracks: [AVAssetTrack] { videoTracks }

    override var additionProblem: String? {
        if case .failure(let problem) = plan { return problem.description }
        if videoTracks.isEmpty || videoTracks.contains(where: { $0.mediaType != .video }) {
            return "a video composition output needs one or more video tracks"
        }
        return nil
    }

    override func makePipeline(timeRange: CMTimeRange, session: ReadingSession?) throws(AVError) -> any SamplePipeline {
        let settings: VideoOutputSettings
        switch plan {
        case .success(let made): settings = made
        case .failure(let problem): throw AVError(.unsupportedOutputSettings, reason: problem.description)
        }
        let (composition, compositor) = composing.withLock { ($0.composition, $0.compositor) }
        guard let composition else {
            throw AVError(.invalidVideoComposition, reason: "set the output's videoComposition before reading starts")
        }
        if let asset = videoTracks.first?.asset,
           let problem = VideoCompositionValidation.problem(of: composition, asset: asset, timeRange: .invalid) {
            throw AVError(.invalidVideoComposition, reason: "the video composition is not valid: \(problem)")
        }
        return try VideoCompositionPipeline(composition: composition, tracks: videoTracks, custom: compositor, settings: settings,
                                            timeRange: timeRange, session: session)
    }
}
