import Foundation
import MediaEngine
import OpenCoreMedia
import OpenCoreVideo

/// Reads the samples of one track: as stored (`nil` settings), as decoded pixel buffers
/// (`kCVPixelBufferPixelFormatTypeKey`, optional width and height) or as linear PCM
/// (`AVFormatIDKey: kAudioFormatLinearPCM` and the `AVLinearPCM…` keys).
open class AVAssetReaderTrackOutput: AVAssetReaderOutput, @unchecked Sendable {
    /// The track the output reads.
    public let track: AVAssetTrack
    /// The settings the output was made with; nil for the samples as stored.
    public let outputSettings: [String: Any]?
    /// How the sound of a composition's time-scaled edits is stretched: `.varispeed` lets the
    /// pitch follow the speed, the others keep it.
    open var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm = .spectral

    /// Whether the key frame reading starts at is delivered even when it lies before the
    /// reader's time range (for `AVAssetImageGenerator`'s default tolerances).
    var deliversFromSyncSample = false
    /// Whether that key frame is all that is wanted (`AVAssetImageGenerator` with an unlimited
    /// tolerance before the time): the decoder is drained after it, instead of being fed the
    /// frames after it until frame threading gives it out (a file's track; a composition's
    /// edits are read as before).
    var deliversOnlySyncSample = false

    /// The pipeline mode the settings ask for, or why they cannot be honoured.
    private let plan: Result<TrackPipeline.Mode, SettingsProblem>

    /// Creates an output for `track` with `outputSettings` (nil: samples as stored).
    public init(track: AVAssetTrack, outputSettings: [String: Any]?) {
        self.track = track
        self.outputSettings = outputSettings
        plan = Self.plan(track: track, settings: outputSettings)
        super.init()
    }

    /// The track's media type.
    open override var mediaType: AVMediaType { track.mediaType }

    override var additionProblem: String? {
        if case .failure(let problem) = plan { return problem.description }
        if outputSettings == nil, track is AVCompositionTrack, track.mediaType != .subtitle, track.mediaType != .text {
            return AVAssetTrack.compositionPassthroughProblem
        }
        return nil
    }

    override var tracks: [AVAssetTrack] { [track] }

    override var decodes: Bool { outputSettings != nil }

    override func makePipeline(timeRange: CMTimeRange, session: ReadingSession?) throws(AVError) -> any SamplePipeline {
        switch plan {
        case .success(let mode):
            return try track.makeReadingPipeline(mode: mode, timeRange: timeRange, session: session,
                                                 alwaysCopiesSampleData: alwaysCopiesSampleData,
                                                 deliversFirstFrame: deliversFromSyncSample, endsAfterFirstFrame: deliversOnlySyncSample,
                                                 algorithm: audioTimePitchAlgorithm)
        case .failure(let problem):
            throw AVError(.unsupportedOutputSettings, reason: problem.description)
        }
    }

    /// What the settings ask of this track's media.
    private static func plan(track: AVAssetTrack, settings: [String: Any]?) -> Result<TrackPipeline.Mode, SettingsProblem> {
        guard let settings else {
            guard let description = track.contents.formatDescription else {
                return .failure(SettingsProblem("the track's codec has no format description, so it cannot be passed through"))
            }
            return .success(.passthrough(description))
        }
        do {
            switch track.mediaType {
            case .video:
                return .success(.video(try VideoOutputSettings(settings)))
            case .audio:
                let asbd = track.contents.formatDescription?.audioStreamBasicDescription
                let format = try PCMFormat(outputSettings: settings, sourceSampleRate: asbd?.mSampleRate ?? 48000,
                                           sourceChannelCount: Int(asbd?.mChannelsPerFrame ?? 2))
                return .success(.audio(format))
            default:
                throw SettingsProblem("\(track.mediaType.rawValue) tracks can only be read with nil output settings")
            }
        } catch let problem as SettingsProblem {
            return .failure(problem)
        } catch {
            return .failure(SettingsProblem("\(error)"))
        }
    }
}
