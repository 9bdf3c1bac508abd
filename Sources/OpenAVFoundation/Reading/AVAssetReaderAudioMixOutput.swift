import Foundation
import HostSystem
import MediaEngine
import OpenCoreMedia

/// Reads several audio tracks mixed into one stream of linear PCM, each at the volume its
/// `audioMix` parameters give (full volume without).
open class AVAssetReaderAudioMixOutput: AVAssetReaderOutput, @unchecked Sendable {
    /// The tracks mixed.
    public let audioTracks: [AVAssetTrack]
    /// The PCM settings of the mix; nil for 32-bit float at the highest rate and channel count
    /// of the tracks.
    public let audioSettings: [String: Any]?
    /// How the sound of a composition's time-scaled edits is stretched: `.varispeed` lets the
    /// pitch follow the speed, the others keep it.
    open var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm = .spectral
    /// The volume of each track over time; nil mixes every track at full volume. A copy is
    /// kept, so later changes to a mutable mix do not reach a reading under way.
    open var audioMix: AVAudioMix? {
        get { mix }
        set { mix = newValue?.copy() as? AVAudioMix }
    }

    @Locked private var mix: AVAudioMix? = nil
    private let plan: Swift.Result<(mix: PCMFormat, output: PCMFormat), SettingsProblem>

    /// Creates a mix of `audioTracks` in the PCM format `audioSettings` describes.
    public init(audioTracks: [AVAssetTrack], audioSettings: [String: Any]?) {
        self.audioTracks = audioTracks
        self.audioSettings = audioSettings
        plan = Self.plan(audioTracks, audioSettings)
        super.init()
    }

    /// Always `.audio`.
    open override var mediaType: AVMediaType { .audio }

    override var tracks: [AVAssetTrack] { audioTracks }

    override var additionProblem: String? {
        if case .failure(let problem) = plan { return problem.description }
        return nil
    }

    override func makePipeline(timeRange: CMTimeRange, session: ReadingSession?) throws(AVError) -> any SamplePipeline {
        switch plan {
        case .success(let formats):
            let mix = audioMix
            var inputs: [any SamplePipeline] = []
            var volumes: [AVAudioMixInputParameters?] = []
            for track in audioTracks {
                let parameters = mix?.parameters(forTrackID: track.trackID)
                inputs.append(try track.makeReadingPipeline(mode: .audio(formats.mix), timeRange: timeRange, session: session,
                                                            alwaysCopiesSampleData: false,
                                                            algorithm: parameters?.audioTimePitchAlgorithm ?? audioTimePitchAlgorithm))
                volumes.append(parameters)
            }
            return MixPipeline(inputs: inputs, volumes: volumes, mixFormat: formats.mix, output: formats.output)
        case .failure(let problem):
            throw AVError(.unsupportedOutputSettings, reason: problem.description)
        }
    }

    /// The float format the tracks are mixed in, and the output format.
    private static func plan(_ tracks: [AVAssetTrack], _ settings: [String: Any]?)
        -> Swift.Result<(mix: PCMFormat, output: PCMFormat), SettingsProblem> {
        guard !tracks.isEmpty, tracks.allSatisfy({ $0.mediaType == .audio }) else {
            return .failure(SettingsProblem("an audio mix output needs one or more audio tracks"))
        }
        let descriptions = tracks.compactMap { $0.contents.formatDescription?.audioStreamBasicDescription }
        let rate = descriptions.map(\.mSampleRate).max() ?? 48000
        let channels = Int(descriptions.map(\.mChannelsPerFrame).max() ?? 2)
        do {
            let output = try settings.map { try PCMFormat(outputSettings: $0, sourceSampleRate: rate, sourceChannelCount: channels) }
                ?? PCMFormat(sampleRate: rate, channelCount: channels, bitsPerChannel: 32, isFloat: true)
            let mix = PCMFormat(sampleRate: output.sampleRate, channelCount: output.channelCount, bitsPerChannel: 32, isFloat: true)
            return .success((mix, output))
        } catch {
            return .failure(SettingsProblem("\(error)"))
        }
    }
}
