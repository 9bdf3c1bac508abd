import Foundation
import Logging
import MediaEngine
import OpenCoreMedia
import OpenCoreVideo

/// The work behind a reader output, started for one reading pass: makes the output's sample
/// buffers from its sources (a reading session's packets, or a composition's segments).
protocol SamplePipeline: AnyObject {
    /// The next sample buffer, or nil when the output has delivered everything (or failed).
    func next() -> CMSampleBuffer?
    /// Why the pipeline stopped early, if it did.
    var failure: AVError? { get }
}

/// The work behind one track output: the packets of one stream, passed through as they are or
/// decoded and converted into the pixel or PCM format the output asked for.
final class TrackPipeline: SamplePipeline {
    /// What the output delivers.
    enum Mode {
        /// Compressed samples as stored, with the track's format description.
        case passthrough(CMFormatDescription)
        /// Decoded pixel buffers.
        case video(VideoOutputSettings)
        /// Decoded PCM.
        case audio(PCMFormat)
    }

    private static let logger = Logger(label: "OpenAVFoundation.AVAssetReader")

    let streamIndex: Int
    let mode: Mode
    /// The pass over the file the packets come from.
    private let session: ReadingSession
    let timeRange: CMTimeRange
    let alwaysCopiesSampleData: Bool
    /// The end of the requested range, or nil for "to the end of the file".
    private let end: CMTime?
    /// Where reading must get before the file ends: the range's end or the track's stated end,
    /// whichever is sooner; invalid when the container states no end.
    private let expectedEnd: CMTime
    /// The latest end of a packet read so far.
    private var reachedEnd = CMTime.invalid
    /// The error to end with once everything read is delivered: the file ended well before
    /// `expectedEnd` (it was cut short).
    private var cutShort: AVError?
    /// Whether the first decoded frame (the key frame reading started at) is delivered even
    /// when it ends before the time range: the image generator's fast path.
    var deliversFirstFrame = false
    /// Whether the first packet (the key frame reading starts at) is the last one decoded: the
    /// decoder is drained after it, so that its frame comes out at once.
    var endsAfterFirstFrame = false

    private var decoder: Decoder?
    private var heldPacket: Packet?
    private let pixelConverter = PixelConverter()
    private let pools = PixelBufferPools()
    private var sampleMaker = ImageSampleMaker()
    private var audioConverter: AudioConverter?
    private var pending: [CMSampleBuffer] = []
    private var inputEnded = false
    private var decoderDrained = false
    private var finished = false
    private var skippedCorruptPackets = 0
    private var deliveredFrames = 0
    /// Why the pipeline stopped early, if it did.
    private(set) var failure: AVError?

    /// A pipeline for stream `streamIndex` of `session`'s file over `timeRange`; `statedEnd` is
    /// where the container says the track ends (invalid when it does not say).
    init(session: ReadingSession, streamIndex: Int, mode: Mode, timeRange: CMTimeRange, statedEnd: CMTime,
         alwaysCopiesSampleData: Bool) {
        self.session = session
        self.streamIndex = streamIndex
        self.mode = mode
        self.timeRange = timeRange
        self.alwaysCopiesSampleData = alwaysCopiesSampleData
        let end = timeRange.end.isNumeric ? timeRange.end : nil
        self.end = end
        expectedEnd = statedEnd.isNumeric ? min(end ?? statedEnd, statedEnd) : .invalid
    }

    /// Opens what the mode needs: a decoder for decoded output, a resampler for PCM.
    func start() throws(AVError) {
        switch mode {
        case .passthrough: break
        case .video: decoder = try session.makeDecoder(forStream: streamIndex)
        case .audio(let format):
            decoder = try session.makeDecoder(forStream: streamIndex)
            audioConverter = AudioConverter(output: format, keeping: timeRange)
        }
    }


    /// The next sample buffer, or nil when the output has delivered everything (or failed).
    func next() -> CMSampleBuffer? {
        while true {
            if !pending.isEmpty { return pending.removeFirst() }
            if finished { return nil }
            do {
                switch mode {
                case .passthrough(let description):
                    // Handed straight out: a stored packet becomes exactly one sample.
                    if let sample = passThrough(description) { return sample }
                case .video, .audio: try decodeStep()
                }
            } catch {
                failure = error
                finished = true
            }
            if finished, failure == nil, let cutShort {
                failure = cutShort
                self.cutShort = nil
            }
            if let readFailure = session.failure, failure == nil, finished || pending.isEmpty {
                failure = readFailure
                finished = true
            }
        }
    }

    /// The next packet as stored, as a sample buffer; nil for a packet past the range's end (or
    /// none left, which finishes the pipeline). A packet shown after the end but decoded before
    /// it is delivered: frames shown inside the range may refer to it (B-frames), as Apple's
    /// passthrough outputs also deliver what decoding the range needs.
    private func passThrough(_ description: CMFormatDescription) -> CMSampleBuffer? {
        guard let packet = nextPacket() else {
            finished = true
            return nil
        }
        if let end {
            let decodeTime = packet.decodeTime
            if decodeTime.isNumeric, decodeTime >= end {
                finished = true
                return nil
            }
            let presentationTime = packet.presentationTime
            if !decodeTime.isNumeric, presentationTime.isNumeric, presentationTime >= end { return nil }
        }
        return CMSampleBuffer.compressed(from: packet, formatDescription: description, timeBase: packet.timeBase)
    }

    /// The next packet of the stream, noting how far the stream got. At the end of the file
    /// (not after a read failure, which has its own error) a stream that stopped more than
    /// `AVError.cutShortTolerance` before `expectedEnd` is to fail once what was read is out:
    /// FFmpeg meets a truncated file's end as an ordinary end of file.
    private func nextPacket() -> Packet? {
        guard let packet = session.nextPacket(forStream: streamIndex) else {
            if session.failure == nil {
                cutShort = AVError.cutShort(reached: reachedEnd.isNumeric ? reachedEnd : timeRange.start, expected: expectedEnd)
            }
            return nil
        }
        let presentationTime = packet.presentationTime, duration = packet.duration
        let time = presentationTime.isNumeric ? presentationTime : packet.decodeTime
        if time.isNumeric {
            let packetEnd = duration.isNumeric ? time + duration : time
            if !reachedEnd.isNumeric || packetEnd > reachedEnd { reachedEnd = packetEnd }
        }
        return packet
    }

    /// Moves the decoder on by one step: a frame out, or a packet in, or the end.
    private func decodeStep() throws(AVError) {
        guard let decoder else { preconditionFailure("decoding pipeline started without a decoder") }
        let frame: Frame?
        do throws(EngineError) {
            frame = try decoder.receiveFrame()
        } catch where error.isCorruptPacket {
            skippedCorruptPackets += 1
            return
        } catch {
            throw AVError(error, fallback: .decodeFailed)
        }
        if let frame {
            try deliver(frame)
            return
        }
        if decoderDrained {
            finished = true
            if let tail = try flushAudio() { pending.append(tail) }
            if deliveredFrames == 0 && skippedCorruptPackets > 0 {
                throw AVError(.decodeFailed, reason: "every one of \(skippedCorruptPackets) packets of stream \(streamIndex) was corrupt")
            }
            return
        }
        let packet = heldPacket ?? (inputEnded ? nil : nextPacket())
        heldPacket = nil
        if packet == nil || endsAfterFirstFrame { inputEnded = true }
        if case .video = mode, let packet { decoder.skipsNonReferenceFrames = isShownBeforeRange(packet) }
        do throws(EngineError) {
            if try !decoder.send(packet) { heldPacket = packet }
            if packet == nil { decoderDrained = true }
        } catch where error.isCorruptPacket {
            skippedCorruptPackets += 1
            Self.logger.debug("skipped a corrupt packet", metadata: ["stream": "\(streamIndex)"])
        } catch {
            throw AVError(error, fallback: .decodeFailed)
        }
    }

    /// Whether a packet's frame is shown wholly before the time range, so that nothing of it is
    /// delivered (by its own time and duration, as `deliver` judges frames; a packet of unknown
    /// duration is not judged), unless it may be the first frame the image generator's fast
    /// path delivers.
    private func isShownBeforeRange(_ packet: Packet) -> Bool {
        guard timeRange.start.isNumeric, !(deliversFirstFrame && deliveredFrames == 0) else { return false }
        let time = packet.presentationTime, duration = packet.duration
        guard time.isNumeric, duration.isNumeric, duration > .zero else { return false }
        return time + duration <= timeRange.start
    }

    /// Turns a decoded frame into a sample buffer, when it falls inside the time range.
    private func deliver(_ frame: Frame) throws(AVError) {
        let time = frame.presentationTime
        if let end, time.isNumeric, time >= end {
            finished = true
            return
        }
        if timeRange.start.isNumeric, time.isNumeric, time < timeRange.start, !(deliversFirstFrame && deliveredFrames == 0) {
            let frameEnd = frame.duration.isNumeric ? time + frame.duration : time
            if frameEnd <= timeRange.start { return }
        }
        deliveredFrames += 1
        switch mode {
        case .video(let settings): pending.append(try videoSample(frame, settings))
        case .audio: if let sample = try convertAudio(frame) { pending.append(sample) }
        case .passthrough: preconditionFailure("passthrough pipelines do not decode")
        }
    }

    /// A sample buffer holding the frame's pixels in the asked format and size.
    private func videoSample(_ frame: Frame, _ settings: VideoOutputSettings) throws(AVError) -> CMSampleBuffer {
        try sampleMaker.sample(try pixelBuffer(for: frame, settings), time: frame.presentationTime, duration: frame.duration)
    }

    /// The frame's pixels: the frame's own memory when it already has the asked layout and
    /// may be shared, otherwise a pooled buffer the converter fills.
    private func pixelBuffer(for frame: Frame, _ settings: VideoOutputSettings) throws(AVError) -> CVPixelBuffer {
        let width = settings.width ?? frame.width
        let height = settings.height ?? frame.height
        let shareable = alwaysCopiesSampleData && !frame.isWritable ? nil : CVBuffer.sharing(frame)
        if let shareable, width == frame.width, height == frame.height,
           settings.pixelFormatType == nil || settings.acceptedPixelFormatTypes.contains(shareable.pixelFormatType) {
            return shareable
        }
        let format = settings.pixelFormatType ?? kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
        let buffer = try pooledBuffer(format: format, width: width, height: height)
        do throws(EngineError) {
            try pixelConverter.convert(frame, into: buffer)
        } catch {
            throw AVError(error, fallback: .decodeFailed)
        }
        return buffer
    }

    /// A buffer from the output's pool, made for this format and size.
    private func pooledBuffer(format: OSType, width: Int, height: Int) throws(AVError) -> CVPixelBuffer {
        guard let buffer = pools.buffer(pixelFormat: format, width: width, height: height) else {
            throw AVError(.outOfMemory, reason: "cannot allocate a \(width)x\(height) pixel buffer")
        }
        return buffer
    }

    /// Decoded audio resampled into the output's PCM format.
    private func convertAudio(_ frame: Frame) throws(AVError) -> CMSampleBuffer? {
        do throws(EngineError) {
            return try audioConverter?.convert(frame, timeBase: frame.timeBase)
        } catch {
            throw AVError(error, fallback: .decodeFailed)
        }
    }

    /// What the resampler still holds at the end.
    private func flushAudio() throws(AVError) -> CMSampleBuffer? {
        do throws(EngineError) {
            return try audioConverter?.flush()
        } catch {
            throw AVError(error, fallback: .decodeFailed)
        }
    }
}
