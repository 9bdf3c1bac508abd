import Foundation
import MediaEngine
import OpenCoreMedia

/// The work behind an audio mix output: every track decoded and resampled to 32-bit float at
/// one rate and channel count, summed by the engine's mixer, then converted to the output's
/// PCM format.
final class MixPipeline: SamplePipeline {
    private let tracks: [TrackPipeline]
    private let mixer: AudioMixer
    private let converter: AudioConverter
    private var finished = false
    private(set) var failure: AVError?

    init(tracks: [TrackContents], mixFormat: PCMFormat, output: PCMFormat, timeRange: CMTimeRange) {
        self.tracks = tracks.map {
            TrackPipeline(streamIndex: $0.streamIndex, mode: .audio(mixFormat), timeRange: timeRange,
                          statedEnd: $0.statedEnd, alwaysCopiesSampleData: false)
        }
        mixer = AudioMixer(inputCount: tracks.count, sampleRate: mixFormat.integerSampleRate,
                           channelCount: mixFormat.channelCount)
        converter = AudioConverter(output: output)
    }

    func start(in session: ReadingSession) throws(AVError) {
        for track in tracks { try track.start(in: session) }
    }

    func next(from session: ReadingSession) -> CMSampleBuffer? {
        while !finished {
            do throws(EngineError) {
                if let input = mixer.inputNeedingData {
                    if let buffer = tracks[input].next(from: session) {
                        mixer.add(buffer, toInput: input)
                    } else if let trackFailure = tracks[input].failure {
                        failure = trackFailure
                        finished = true
                    } else {
                        mixer.endInput(input)
                    }
                    continue
                }
                if let frame = try mixer.nextFrame() {
                    if let mixed = try converter.convert(frame, timeBase: frame.timeBase) { return mixed }
                    continue
                }
                finished = true
                return try converter.flush()
            } catch {
                failure = AVError(error, fallback: .decodeFailed)
                finished = true
            }
        }
        return nil
    }
}
