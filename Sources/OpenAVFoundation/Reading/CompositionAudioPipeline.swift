import Foundation
import MediaEngine
import OpenCoreMedia

/// The sound of a composition's audio track as one unbroken stream of 32-bit float
/// interleaved PCM: each edit's source span decoded from its file and cut to the sample,
/// time-scaled edits stretched (`atempo`, keeping the pitch, or resampled for `.varispeed`),
/// and silence for empty edits and for sources that end early. Sample `k` of the stream is at
/// `k / rate` on the composition's timeline, so an audio mix or a writer gets no gap.
final class CompositionAudioPipeline: SamplePipeline {
    /// The edit being read.
    private struct Piece {
        /// The source, nil for an empty edit or once the source has ended.
        var source: TrackPipeline?
        /// Stretches a time-scaled edit; nil when the edit plays at its natural rate.
        var stretch: AudioFilterGraph?
        /// Composition samples still to deliver for this edit.
        var remaining: Int
        /// The source sample position of the next source sample the edit takes.
        var sourceCursor: Int64
        /// Source samples the edit still takes.
        var sourceRemaining: Int
    }

    private var edits: ArraySlice<CompositionEdit>
    private let format: PCMFormat
    private let rate: Int32
    private let channelCount: Int
    private let keepsPitch: Bool
    private var piece: Piece?
    /// The composition sample position of the next delivered sample.
    private var position: Int64 = 0
    private var pending: [CMSampleBuffer] = []
    private var finished = false
    private let formatDescription: CMFormatDescription
    private(set) var failure: AVError?

    /// Reads `edits` (cut to the reading range) as float PCM in `format`.
    init(edits: [CompositionEdit], format: PCMFormat, algorithm: AVAudioTimePitchAlgorithm) {
        self.edits = edits[...]
        self.format = format
        rate = format.integerSampleRate
        channelCount = format.channelCount
        keepsPitch = algorithm != .varispeed
        formatDescription = CMFormatDescription(mediaType: kCMMediaType_Audio, mediaSubType: kAudioFormatLinearPCM,
                                                audioStreamBasicDescription: format.audioStreamBasicDescription,
                                                channelLayoutTag: format.channelLayoutTag)
        if let first = edits.first { position = sample(at: first.mapping.target.start) }
    }

    /// The sample position of `time` at the stream's rate.
    private func sample(at time: CMTime) -> Int64 {
        CMTimeConvertScale(time, timescale: rate, method: .roundHalfAwayFromZero).value
    }

    func next() -> CMSampleBuffer? {
        while pending.isEmpty, failure == nil, !finished {
            do {
                try step()
            } catch {
                failure = error
            }
        }
        return pending.isEmpty ? nil : pending.removeFirst()
    }

    /// Moves on by one source buffer, one stretch of silence, or one edit.
    private func step() throws(AVError) {
        guard let current = piece else {
            guard let edit = edits.popFirst() else {
                finished = true
                return
            }
            piece = try open(edit)
            return
        }
        if current.remaining <= 0 {
            piece = nil
        } else if let source = current.source {
            if let buffer = source.next() {
                try take(buffer)
                if piece?.sourceRemaining ?? 0 <= 0 { try endSource() }
            } else if let error = source.failure {
                throw error
            } else {
                try endSource()
            }
        } else {
            let count = min(current.remaining, 4096)
            let silence = [Float](repeating: 0, count: count * channelCount)
            silence.withUnsafeBufferPointer { emit($0.baseAddress!, count) }
        }
    }

    /// Starts reading an edit.
    private func open(_ edit: CompositionEdit) throws(AVError) -> Piece {
        let target = edit.mapping.target
        let remaining = Int(sample(at: target.end) - position)
        guard edit.source != nil else {
            return Piece(source: nil, stretch: nil, remaining: remaining, sourceCursor: 0, sourceRemaining: 0)
        }
        let source = edit.mapping.source
        let pipeline = try edit.makeSourcePipeline(mode: .audio(format), alwaysCopiesSampleData: false)
        let sourceStart = sample(at: source.start)
        var stretch: AudioFilterGraph?
        if source.duration != target.duration {
            let speed = source.duration.seconds / target.duration.seconds
            do throws(EngineError) {
                stretch = try AudioFilterGraph(rate: speed, keepsPitch: keepsPitch, sampleRate: Int(rate), channelCount: channelCount)
            } catch {
                throw AVError(error, fallback: .decodeFailed)
            }
        }
        return Piece(source: pipeline, stretch: stretch, remaining: remaining, sourceCursor: sourceStart,
                     sourceRemaining: Int(sample(at: source.end) - sourceStart))
    }

    /// Takes what a source buffer has of the edit's span: silence for a gap before it, then
    /// its samples from the cursor on, no more than the span holds.
    private func take(_ buffer: CMSampleBuffer) throws(AVError) {
        guard let data = buffer.dataBuffer, let current = piece else { return }
        let count = buffer.numSamples
        let start = sample(at: buffer.presentationTimeStamp)
        if start > current.sourceCursor {
            let gap = Int(min(Int64(current.sourceRemaining), start - current.sourceCursor))
            let silence = [Float](repeating: 0, count: gap * channelCount)
            try silence.withUnsafeBufferPointer { samples throws(AVError) in try feed(samples.baseAddress!, gap) }
        }
        guard let cursor = piece?.sourceCursor, let wanted = piece?.sourceRemaining else { return }
        let skip = Int(max(0, cursor - start))
        let taken = min(count - skip, wanted)
        guard taken > 0 else { return }
        var contiguous: UnsafeMutablePointer<CChar>?
        var length = 0
        let offset = skip * channelCount * 4
        if CMBlockBufferGetDataPointer(data, atOffset: offset, lengthAtOffsetOut: &length, totalLengthOut: nil,
                                       dataPointerOut: &contiguous) == kCMBlockBufferNoErr,
           let contiguous, length >= taken * channelCount * 4 {
            try feed(UnsafeRawPointer(contiguous).assumingMemoryBound(to: Float.self), taken)
        } else {
            var samples = [Float](repeating: 0, count: taken * channelCount)
            samples.withUnsafeMutableBytes {
                _ = CMBlockBufferCopyDataBytes(data, atOffset: offset, dataLength: $0.count, destination: $0.baseAddress!)
            }
            try samples.withUnsafeBufferPointer { samples throws(AVError) in try feed(samples.baseAddress!, taken) }
        }
    }

    /// Source samples into the edit's output, through the stretch when there is one; the
    /// source cursor moves past them.
    private func feed(_ samples: UnsafePointer<Float>, _ count: Int) throws(AVError) {
        guard count > 0, let current = piece else { return }
        piece?.sourceCursor += Int64(count)
        piece?.sourceRemaining -= count
        guard let stretch = current.stretch else { return emit(samples, count) }
        do throws(EngineError) {
            try stretch.process(samples, frames: count) { emit($0, $1) }
        } catch {
            throw AVError(error, fallback: .decodeFailed)
        }
    }

    /// The source has nothing more for the edit: the stretch gives what it holds, and
    /// silence fills the rest of the edit.
    private func endSource() throws(AVError) {
        if let stretch = piece?.stretch {
            do throws(EngineError) {
                try stretch.process(nil, frames: 0) { emit($0, $1) }
            } catch {
                throw AVError(error, fallback: .decodeFailed)
            }
        }
        piece?.source = nil
        piece?.stretch = nil
    }

    /// Delivers up to what the edit still needs of `count` samples at the stream's position.
    private func emit(_ samples: UnsafePointer<Float>, _ count: Int) {
        let delivered = min(count, piece?.remaining ?? 0)
        guard delivered > 0 else { return }
        let length = delivered * channelCount * 4
        let block = UnsafeMutableRawPointer.allocate(byteCount: length, alignment: 16)
        block.copyMemory(from: samples, byteCount: length)
        let blockBuffer = CMBlockBuffer(wrapping: block, length: length, release: { block.deallocate() })
        var timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: rate),
                                        presentationTimeStamp: CMTime(value: position, timescale: rate), decodeTimeStamp: .invalid)
        var size = channelCount * 4
        var buffer: CMSampleBuffer?
        CMSampleBufferCreateReady(allocator: nil, dataBuffer: blockBuffer, formatDescription: formatDescription,
                                  sampleCount: delivered, sampleTimingEntryCount: 1, sampleTimingArray: &timing,
                                  sampleSizeEntryCount: 1, sampleSizeArray: &size, sampleBufferOut: &buffer)
        if let buffer { pending.append(buffer) }
        position += Int64(delivered)
        piece?.remaining -= delivered
    }
}
