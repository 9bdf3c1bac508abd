import MediaEngine

/// A mixer input whose sample rate is not the mixer's: each cycle it pulls as many input frames
/// as the cycle's output frames need (in more than one pass when one pull gives too few), converts them with
/// libswresample (MediaEngine's `AudioConverter`) into a queue, and hands out the cycle's
/// frames from the queue. The resampler's filter delay is heard as silence at the start. All
/// memory is made with the input.
final class ResamplingInput {
    private let inputFormat: PCMFormat
    private let outputRate: Double
    private let converter: AudioConverter
    /// Converted frames not yet handed out, then the cycle's frames handed out.
    private let queue: RenderBus
    private var queued = 0
    private let result: RenderBus
    /// Plane pointers handed to the converter.
    private let inputPlanes: UnsafeMutablePointer<UnsafePointer<UInt8>?>
    private let outputPlanes: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>

    /// An input of `format` (deinterleaved float) into a mixer at `outputRate`, for cycles of up
    /// to `capacity` frames.
    init(format: AVAudioFormat, outputRate: Double, capacity: Int) {
        let channels = Int(format.channelCount)
        inputFormat = PCMFormat(sampleRate: format.sampleRate, channelCount: channels, bitsPerChannel: 32, isFloat: true, isNonInterleaved: true)
        self.outputRate = outputRate
        var output = inputFormat
        output.sampleRate = outputRate
        converter = AudioConverter(output: output)
        queue = RenderBus(channelCount: channels, capacity: capacity * 2)
        result = RenderBus(channelCount: channels, capacity: capacity)
        inputPlanes = .allocate(capacity: channels)
        outputPlanes = .allocate(capacity: channels)
    }

    deinit {
        inputPlanes.deallocate()
        outputPlanes.deallocate()
    }

    /// Whether the input converts `format` to `outputRate`.
    func matches(_ format: AVAudioFormat, outputRate rate: Double) -> Bool {
        format.sampleRate == inputFormat.sampleRate && Int(format.channelCount) == inputFormat.channelCount && rate == outputRate
    }

    /// `frames` frames at the output rate, pulling what they need from `source` (called with the
    /// input frames wanted and the pass: more than one pass when one pull gives too few, at
    /// most 8); nil when the source gave nothing and nothing is queued.
    func pull(frames: Int, from source: (_ frames: Int, _ pass: Int) -> RenderBus?) -> RenderBus? {
        let frames = min(frames, result.capacity)
        var pass = 0
        while queued < frames, pass < 8 {
            let wanted = Int((Double(frames - queued) * inputFormat.sampleRate / outputRate).rounded(.up)) + 1
            guard let input = source(wanted, pass), input.frames > 0 else { break }
            for channel in 0..<inputFormat.channelCount {
                inputPlanes[channel] = UnsafeRawPointer(input.planes[channel]).assumingMemoryBound(to: UInt8.self)
                outputPlanes[channel] = UnsafeMutableRawPointer(queue.planes[channel] + queued).assumingMemoryBound(to: UInt8.self)
            }
            let made = (try? converter.convert(inputPlanes, count: input.frames, format: inputFormat, into: outputPlanes,
                                               capacity: queue.capacity - queued)) ?? 0
            queued += made
            pass += 1
            if made == 0 { break }
        }
        if queued == 0 { return nil }
        // Frames the queue lacks (the filter's delay, at the start) are silence before the rest.
        let given = min(frames, queued), missing = frames - given
        result.frames = frames
        for channel in 0..<inputFormat.channelCount {
            result.planes[channel].update(repeating: 0, count: missing)
            (result.planes[channel] + missing).update(from: queue.planes[channel], count: given)
            queue.planes[channel].update(from: queue.planes[channel] + given, count: queued - given)
        }
        queued -= given
        return result
    }
}
