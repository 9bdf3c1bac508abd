import Foundation
import MediaEngine
import OpenCoreMedia

/// The work behind an audio mix output (and a composition audio track's output): every input
/// delivers 32-bit float at one rate and channel count, the engine's mixer sums them, and the
/// sum is converted to the output's PCM format.
final class MixPipeline: SamplePipeline {
    private let tracks: [any SamplePipeline]
    /// Each input's volume over the timeline, nil for full volume.
    private let volumes: [VolumeCurve?]
    private let mixer: AudioMixer
    private let converter: AudioConverter
    private var finished = false
    private(set) var failure: AVError?

    /// Mixes started `inputs`, each delivering float PCM in `mixFormat` at the volume of its
    /// parameters (full volume without), into `output`.
    init(inputs: [any SamplePipeline], volumes: [AVAudioMixInputParameters?] = [], mixFormat: PCMFormat, output: PCMFormat) {
        tracks = inputs
        self.volumes = inputs.indices.map { index in
            index < volumes.count ? volumes[index].map { VolumeCurve($0, sampleRate: mixFormat.integerSampleRate) } : nil
        }
        mixer = AudioMixer(inputCount: inputs.count, sampleRate: mixFormat.integerSampleRate,
                           channelCount: mixFormat.channelCount)
        converter = AudioConverter(output: output)
    }

    func next() -> CMSampleBuffer? {
        while !finished {
            do throws(EngineError) {
                if let input = mixer.inputNeedingData {
                    if let buffer = tracks[input].next() {
                        mixer.add(buffer, toInput: input, gain: volumes[input].map { curve in curve.gain(at:) })
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

/// A track's volume over the mix's samples, from its audio mix parameters: each ramp turned
/// into sample positions once, so that the gain of each sample is a lookup and a line.
struct VolumeCurve {
    private struct Piece {
        let start: Int64
        let end: Int64
        let from: Float
        let to: Float
    }

    private let pieces: [Piece]

    init(_ parameters: AVAudioMixInputParameters, sampleRate: Int32) {
        func position(_ time: CMTime) -> Int64 {
            time.isPositiveInfinity ? .max : CMTimeConvertScale(time, timescale: sampleRate, method: .roundHalfAwayFromZero).value
        }
        pieces = parameters.values.withLock { $0.volumes.all }.map { ramp in
            Piece(start: position(ramp.timeRange.start), end: position(ramp.timeRange.end), from: ramp.start, to: ramp.end)
        }
    }

    /// The volume at sample `position`: full before the first ramp, on the line inside one,
    /// its end after it.
    func gain(at position: Int64) -> Float {
        guard let piece = pieces.last(where: { $0.start <= position }) else { return 1 }
        guard position < piece.end else { return piece.to }
        guard piece.end != .max, piece.end > piece.start else { return piece.from }
        return piece.from + (piece.to - piece.from) * Float(Double(position - piece.start) / Double(piece.end - piece.start))
    }
}
