import Foundation
import MediaEngine
import OpenCoreMedia

/// The reading side of `AVAudioFile`: the file's first audio stream through the engine's
/// `Demuxer`, `Decoder` and `AudioConverter` (the parts `AVAssetReader`'s PCM outputs use),
/// as interleaved samples of the processing format's type, counted in file frames.
///
/// File frame 0 is the first sample the decoder presents (encoder priming that the container
/// marks, as AAC's edit list or MP3's LAME header does, is not a frame, as on Apple platforms).
/// A seek moves the demuxer half a second before the target, decodes from there and drops
/// the samples before it, so that lossy decoders have their overlap and the first frame
/// delivered is the target exactly. Not thread safe: `AVAudioFile` serializes its calls.
final class AudioFileDecoding {
    /// The decoded samples' format: the processing format's type, interleaved.
    let output: PCMFormat
    /// The file's format, as its container describes the stream.
    let fileFormat: AVAudioFormat
    /// The file being read.
    private let url: URL
    /// The audio stream's demuxer and decoder; a new decoder for reading from the first packet
    /// again, so that the samples equal a fresh decode's (a flushed AAC decoder's first frame
    /// differs slightly).
    private let decoding: StreamDecoding
    /// Decoded frames into `output`.
    private let converter: AudioConverter
    /// The converter's sample index of file frame 0.
    private var origin: Int64 = 0
    /// Decoded bytes not yet delivered, from `pendingStart`.
    private var pending: [UInt8] = []
    /// The offset in `pending` of the next byte to deliver.
    private var pendingStart = 0
    /// The file frame of the next frame delivered.
    private(set) var position: Int64 = 0
    /// The frame a seek asked for, until the decoded samples reach it.
    private var seekTarget: Int64?
    /// Whether everything decoded has been converted, the resampler flushed too.
    private var ended = false

    /// Opens `url`'s first audio stream for samples of `output`'s type at the stream's rate and
    /// channel count; throws `EngineError` for a file FFmpeg cannot open or decode, and
    /// `AudioFileDecoding.NoAudio` for a file without a decodable audio stream.
    init(url: URL, bitsPerChannel: Int, isFloat: Bool) throws {
        self.url = url
        guard let decoding = try StreamDecoding(url: url, kind: .audio) else { throw NoAudio() }
        let demuxer = decoding.demuxer
        let audio = demuxer.streams[decoding.stream]
        guard audio.sampleRate > 0, audio.channelCount > 0 else { throw NoAudio() }
        self.decoding = decoding
        if let description = demuxer.formatDescription(ofStream: audio.index) {
            fileFormat = AVAudioFormat(cmAudioFormatDescription: description)
        } else {
            // A codec Core Media has no code for (Vorbis): the rate, the channels and the
            // stream's own four-character code.
            fileFormat = AVAudioFormat(
                description: AudioStreamBasicDescription(
                    mSampleRate: Double(audio.sampleRate), mFormatID: audio.codecType, mFormatFlags: 0, mBytesPerPacket: 0,
                    mFramesPerPacket: 0, mBytesPerFrame: 0, mChannelsPerFrame: UInt32(audio.channelCount),
                    mBitsPerChannel: 0, mReserved: 0),
                layout: nil, magicCookie: nil)
        }
        output = PCMFormat(sampleRate: Double(audio.sampleRate), channelCount: Int(audio.channelCount),
                           bitsPerChannel: bitsPerChannel, isFloat: isFloat)
        converter = AudioConverter(output: output)
        if let first = try demuxer.readPacket() {
            if first.presentationTime.isNumeric { firstPacketTime = first.presentationTime }
            decoding.hold(first)
        }
        if try decodeMore(), let firstStart { origin = firstStart }
    }

    /// A file without an audio stream FFmpeg can decode.
    struct NoAudio: Error {}

    /// The converter's sample index of the first buffer decoded since opening, for `origin`.
    private var firstStart: Int64?
    /// The time of the stream's first packet, where a seek to the start goes.
    private var firstPacketTime = CMTime.zero
    /// Whether the current seek has gone back to the file's start once already.
    private var hasRewound = false

    /// Copies up to `frames` frames into `destination` (interleaved, `output`'s bytes per frame)
    /// and returns how many; fewer only at the end of the file.
    func read(frames: Int, into destination: UnsafeMutableRawPointer) throws -> Int {
        let bytesPerFrame = output.bytesPerFrame
        return try read(frames: frames) { source, offset, count in
            (destination + offset * bytesPerFrame).copyMemory(from: source, byteCount: count * bytesPerFrame)
        }
    }

    /// Hands up to `frames` decoded frames to `take` in runs, each as its interleaved bytes, the
    /// frame offset of the run in this read and its frame count (for a caller that lays them out
    /// its own way, without a copy in between); returns how many; fewer only at the end of the file.
    func read(frames: Int, _ take: (UnsafeRawPointer, Int, Int) -> Void) throws -> Int {
        let bytesPerFrame = output.bytesPerFrame
        var delivered = 0
        while delivered < frames {
            if pending.count - pendingStart < bytesPerFrame {
                guard try decodeMore() else { break }
                continue
            }
            let count = min(frames - delivered, (pending.count - pendingStart) / bytesPerFrame)
            pending.withUnsafeBytes { bytes in take(bytes.baseAddress! + pendingStart, delivered, count) }
            pendingStart += count * bytesPerFrame
            delivered += count
            position += Int64(count)
        }
        if pendingStart > 1 << 20 || pendingStart == pending.count {
            pending.removeFirst(pendingStart)
            pendingStart = 0
        }
        return delivered
    }

    /// Moves reading to file frame `frame`: the next `read` starts there exactly.
    func seek(to frame: Int64) throws {
        guard frame != position || seekTarget != nil else { return }
        let rate = output.sampleRate
        let preroll = Int64(rate / 2)
        // Near the start, the first packet (whose time is negative when the container hides
        // encoder priming), so that the decoder starts where a full decode does.
        try restart(at: max(CMTime(value: frame + origin - preroll, timescale: Int32(rate)), firstPacketTime))
        hasRewound = false
        seekTarget = frame
        position = frame
    }

    /// The number of frames in the file: every sample the decoder presents, counted by a
    /// reading of its own (the container's durations are estimates for some formats). Data
    /// that fails to decode ends the count there, as it ends reading.
    static func frameCount(of url: URL) throws -> Int64 {
        guard let decoding = try StreamDecoding(url: url, kind: .audio) else { throw NoAudio() }
        var count: Int64 = 0
        while let frame = try? decoding.nextFrame() {
            count += Int64(frame.sampleCount)
        }
        return count
    }

    /// Decodes until at least one sample buffer is added to `pending`; false at the end.
    private func decodeMore() throws -> Bool {
        while !ended {
            guard let frame = try decoding.nextFrame() else {
                ended = true
                if let buffer = try converter.flush(), try append(buffer) { return true }
                break
            }
            if let buffer = try converter.convert(frame, timeBase: decoding.decoder.timeBase), try append(buffer) { return true }
        }
        return false
    }

    /// Adds a converted buffer's samples to `pending`, dropping those before a seek's target;
    /// false when none were added.
    private func append(_ buffer: CMSampleBuffer) throws -> Bool {
        let frames = CMSampleBufferGetNumSamples(buffer)
        let start = CMTimeConvertScale(CMSampleBufferGetPresentationTimeStamp(buffer), timescale: Int32(output.sampleRate),
                                       method: .roundHalfAwayFromZero).value
        if firstStart == nil { firstStart = start }
        var skip = 0
        if let target = seekTarget {
            if start - origin > target, !hasRewound {
                // The seek landed after its target (a demuxer's index can be coarse): start
                // over from the file's first packet, decoding forward to it.
                hasRewound = true
                try restart(at: firstPacketTime)
                return false
            }
            skip = Int(max(0, target - (start - origin)))
            guard skip < frames else { return false }
            seekTarget = nil
        }
        guard let data = CMSampleBufferGetDataBuffer(buffer) else { return false }
        let bytesPerFrame = output.bytesPerFrame
        let count = (frames - skip) * bytesPerFrame
        // Straight from the converter's memory (one block), without zero-filling first.
        try data.withContiguousStorage { bytes in
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[(skip * bytesPerFrame)..<(skip * bytesPerFrame + count)]))
        }
        return count > 0
    }

    /// Moves the demuxer to `time` and forgets everything decoded, for a seek.
    private func restart(at time: CMTime) throws {
        try decoding.restart(at: time, freshDecoder: time <= firstPacketTime)
        converter.reset()
        ended = false
        pending.removeAll(keepingCapacity: true)
        pendingStart = 0
    }

}
