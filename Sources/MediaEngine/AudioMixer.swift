import CFFmpeg
import Foundation
import OpenCoreMedia

/// Sums several audio inputs into one: each input delivers 32-bit float interleaved PCM at the
/// mixer's rate and channel count (an `AudioConverter` makes it so), placed on one timeline by
/// its timestamps; the mix comes out in frames of 1024 samples for an `AudioConverter` to put
/// into the output format. An input that ends, or has not started yet, contributes silence.
package final class AudioMixer {
    /// Samples per second of every input and of the mix.
    package let sampleRate: Int32
    /// Channels of every input and of the mix.
    package let channelCount: Int
    /// Samples per mixed frame.
    private let chunk = 1024

    /// One input's samples not mixed yet (interleaved), starting at `start` (in sample frames
    /// on the timeline).
    private struct Input {
        let channelCount: Int
        var start: Int64 = 0
        var samples: [Float] = []
        var ended = false
        /// Where the samples end on the timeline, in sample frames.
        var end: Int64 { start + Int64(samples.count / channelCount) }
    }

    private var inputs: [Input]
    /// The timeline position of the next mixed sample; nil until every input has delivered
    /// (or ended) and the first frame is mixed.
    private var position: Int64?

    /// A mixer of `inputCount` inputs.
    package init(inputCount: Int, sampleRate: Int32, channelCount: Int) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        inputs = Array(repeating: Input(channelCount: max(1, channelCount)), count: inputCount)
    }

    /// Adds a sample buffer of float32 interleaved PCM to input `index`, each sample frame
    /// scaled by `gain` of its position on the timeline (in samples) when there is one.
    package func add(_ buffer: CMSampleBuffer, toInput index: Int, gain: ((Int64) -> Float)? = nil) {
        guard let data = buffer.dataBuffer else { return }
        let count = CMBlockBufferGetDataLength(data) / MemoryLayout<Float>.size
        var samples = [Float](repeating: 0, count: count)
        samples.withUnsafeMutableBytes { _ = CMBlockBufferCopyDataBytes(data, atOffset: 0, dataLength: $0.count, destination: $0.baseAddress!) }
        let time = buffer.presentationTimeStamp
        let start = time.isNumeric ? CMTimeConvertScale(time, timescale: sampleRate, method: .default).value : inputs[index].end
        if let gain {
            for frame in 0..<(count / channelCount) {
                let factor = gain(start + Int64(frame))
                for channel in 0..<channelCount { samples[frame * channelCount + channel] *= factor }
            }
        }
        if inputs[index].samples.isEmpty { inputs[index].start = start }
        inputs[index].samples.append(contentsOf: samples)
    }

    /// Says input `index` will deliver no more samples.
    package func endInput(_ index: Int) {
        inputs[index].ended = true
    }

    /// The input that must deliver more before the next frame can be mixed, or nil when a
    /// frame (or the end) is ready.
    package var inputNeedingData: Int? {
        guard let position else { return inputs.firstIndex { !$0.ended && $0.samples.isEmpty } }
        let target = position + Int64(chunk)
        return inputs.firstIndex { !$0.ended && $0.end < target }
    }

    /// Whether every input has ended and everything has been mixed.
    package var isFinished: Bool {
        inputs.allSatisfy { $0.ended && $0.samples.isEmpty }
    }

    /// The next mixed frame (float32 interleaved, timestamps in samples), or nil when an input
    /// must deliver more first or everything is mixed.
    package func nextFrame() throws(EngineError) -> Frame? {
        guard inputNeedingData == nil else { return nil }
        if position == nil {
            // The mix starts with the earliest input.
            position = inputs.filter { !$0.samples.isEmpty }.map(\.start).min()
        }
        guard let position else { return nil }
        let available = inputs.map(\.end).max() ?? position
        let count = Int(min(Int64(chunk), available - position))
        guard count > 0 else { return nil }
        let frame = Frame()
        let f = frame.pointer
        f.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
        f.pointee.sample_rate = sampleRate
        f.pointee.nb_samples = Int32(count)
        av_channel_layout_default(&f.pointee.ch_layout, Int32(channelCount))
        try ffmpegCheck(av_frame_get_buffer(f, 0), "allocating mixed audio")
        f.pointee.pts = position
        frame.timeBase = AVRational(num: 1, den: sampleRate)
        let mixed = UnsafeMutableBufferPointer(start: UnsafeMutableRawPointer(f.pointee.data.0!).assumingMemoryBound(to: Float.self),
                                               count: count * channelCount)
        mixed.initialize(repeating: 0)
        for index in inputs.indices {
            let input = inputs[index]
            let from = max(position, input.start), to = min(position + Int64(count), input.end)
            if from < to {
                let sourceOffset = Int(from - input.start) * channelCount
                let targetOffset = Int(from - position) * channelCount
                for i in 0..<(Int(to - from) * channelCount) { mixed[targetOffset + i] += input.samples[sourceOffset + i] }
            }
            // Drop what is now mixed.
            let consumed = Int(max(0, min(input.end, position + Int64(count)) - input.start))
            if consumed > 0 {
                inputs[index].samples.removeFirst(min(consumed * channelCount, input.samples.count))
                inputs[index].start += Int64(consumed)
            }
        }
        self.position = position + Int64(count)
        return frame
    }
}
