import Foundation
import MediaEngine
import OpenCoreMedia

/// The work behind an audio mix output (and a composition audio track's output): every input
/// delivers 32-bit float at one rate and channel count, the engine's mixer sums them, and the
/// sum is converted to the output's PCM format.
final class MixPipeline: SamplePipeline {
    private let tracks: [any SamplePipeline]
    private let mixer: AudioMixer
    private let converter: AudioConverter
    private var finished = false
    private(set) var failure: AVError?

    /// Mixes started `inputs`, each delivering float PCM in `mixFormat`, into `output`.
    init(inputs: [any SamplePipeline], mixFormat: PCMFormat, output: PCMFormat) {
        tracks = inputs
        mixer = AudioMixer(inputCount: inputs.count, sampleRate: mixFormat.integerSampleRate,
                           channelCount: mixFormat.channelCount)
        converter = AudioConverter(output: output)
    }

    func next() -> CMSampleBuffer? {
        while !finished {
            do throws(EngineError) {
                if let input = mixer.inputNeedingData {
                    if let buffer = tracks[input].next() {
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
