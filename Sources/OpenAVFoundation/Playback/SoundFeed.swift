import Foundation
import MediaEngine
import OpenCoreMedia

/// The sound of a playing item: its audio track's output of the item's reading (the one
/// reading path) as interleaved float PCM in the sound output's format, stretched to the play
/// rate when it is not 1, and handed out in pieces as the output takes them. Used by one thread
/// (the player's).
final class SoundFeed {
    /// The format every item's sound is converted to: one stream serves a whole queue, so
    /// items play back to back without reopening it.
    static let sampleRate = 48_000
    static let channelCount = 2

    private let reader: AVAssetReader
    private let output: AVAssetReaderOutput
    /// The decoded PCM being handed out: its bytes from `offset` (those before are gone) up to
    /// `limit` (those after lie past the end).
    private var current: (block: CMBlockBuffer, offset: Int, limit: Int)?
    /// The frames to hand out (the time range, sample-exact), and how many were taken so far.
    private let totalFrames: Int64?
    private var takenFrames: Int64 = 0
    /// Where frames are copied and scaled on their way out; reused.
    private var scratch: [Float] = []
    /// The stretching at rates other than 1, and what it gave that is not handed out yet.
    private var filter: AudioFilterGraph?
    private let keepsPitch: Bool
    private var stretched: [Float] = []
    private var stretchedHead = 0
    private var sourceFinished = false
    /// Where reading starts: the item time of the first frame handed out.
    private let start: CMTime
    /// The play rate: each frame handed out is `rate / sampleRate` seconds of the item.
    private(set) var rate: Double
    /// Why reading stopped early, if it did.
    private(set) var error: Error?
    /// For an item on the network: the sound read ahead on a thread of its own.
    private let ahead: SoundReadAhead?
    /// Whether the last piece asked for had not arrived yet (a network item waiting for data).
    private(set) var isWaiting = false

    /// The reader output of `track` of `asset` (every audio track mixed by `mix`, when there is
    /// one) in the feed's format, with the pitch kept at other rates unless `algorithm` is
    /// `.varispeed`.
    static func makeOutput(track: AVAssetTrack, asset: AVAsset, mix: AVAudioMix?, algorithm: AVAudioTimePitchAlgorithm) -> AVAssetReaderOutput {
        let settings: [String: Any] = [
            AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMIsFloatKey: true, AVLinearPCMBitDepthKey: 32,
            AVLinearPCMIsNonInterleaved: false, AVSampleRateKey: sampleRate, AVNumberOfChannelsKey: channelCount,
        ]
        let output: AVAssetReaderOutput
        if let mix {
            let mixed = AVAssetReaderAudioMixOutput(audioTracks: asset.tracks(withMediaType: .audio), audioSettings: settings)
            mixed.audioMix = mix
            mixed.audioTimePitchAlgorithm = algorithm
            output = mixed
        } else {
            let trackOutput = AVAssetReaderTrackOutput(track: track, outputSettings: settings)
            trackOutput.audioTimePitchAlgorithm = algorithm
            output = trackOutput
        }
        output.alwaysCopiesSampleData = false
        return output
    }

    /// Hands out what `output` (made by `makeOutput`, read by `reader`) gives from `start` to
    /// `end`, to be played at `rate` (the pitch kept when `keepsPitch`); read ahead on a thread
    /// of its own when `readsAhead` (an item on the network).
    init(output: AVAssetReaderOutput, reader: AVAssetReader, start: CMTime, end: CMTime, rate: Double, keepsPitch: Bool,
         readsAhead: Bool) throws {
        self.reader = reader
        self.output = output
        self.start = start
        self.rate = rate
        self.keepsPitch = keepsPitch
        totalFrames = end.isNumeric ? CMTimeConvertScale(end - start, timescale: CMTimeScale(Self.sampleRate), method: .roundHalfAwayFromZero).value : nil
        filter = try Self.makeFilter(rate: rate, keepsPitch: keepsPitch)
        // Last: the thread reading ahead starts once nothing can fail.
        ahead = readsAhead ? SoundReadAhead(output: output, sampleRate: Self.sampleRate,
                                                    duration: CMTime(seconds: Self.readAheadSeconds, preferredTimescale: 1000)) : nil
    }

    /// The stretching for `rate`; nil at rate 1.
    private static func makeFilter(rate: Double, keepsPitch: Bool) throws -> AudioFilterGraph? {
        do {
            return rate == 1 ? nil : try AudioFilterGraph(rate: rate, keepsPitch: keepsPitch, sampleRate: sampleRate, channelCount: channelCount)
        } catch {
            throw AVError(error, fallback: .decodeFailed)
        }
    }

    deinit { stop() }

    /// Stops reading ahead (the reading itself is cancelled by its owner).
    func stop() {
        ahead?.stop()
    }

    /// Goes on at `newRate` from where the source stands: what the old stretching holds is
    /// handed out first, at the old rate. Returns how many frames that is and the item time
    /// the new rate starts at; nil when the new stretching cannot be made (the rate stays).
    func changeRate(to newRate: Double) -> (framesBefore: Int, itemTime: CMTime)? {
        // No filter is a filter too (rate 1): `try?` would flatten it into a failure.
        guard newRate != rate, case .success(let newFilter) = Result(catching: { try Self.makeFilter(rate: newRate, keepsPitch: keepsPitch) })
        else { return nil }
        // The source frames consumed: those taken less what waits in the current piece.
        let waiting = current.map { Int64(($0.limit - $0.offset) / (4 * Self.channelCount)) } ?? 0
        let consumed = takenFrames - waiting
        // The old stretching's last output (it ends here), handed out before the new rate's.
        stretch(frames: 0, fill: nil)
        filter = newFilter
        rate = newRate
        let framesBefore = (stretched.count - stretchedHead) / Self.channelCount
        return (framesBefore, start + CMTime(value: consumed, timescale: CMTimeScale(Self.sampleRate)))
    }

    /// How much sound of a network item is read ahead, in seconds.
    static let readAheadSeconds = 4.0

    /// For a network item, seconds of sound at hand (read ahead or being handed out), and
    /// whether reading has ended; nil for a local one, which never waits.
    var buffered: (seconds: Double, ended: Bool)? {
        guard let ahead else { return nil }
        let (duration, ended) = ahead.buffered
        return (duration.seconds, ended)
    }

    /// Whether every frame has been handed out.
    var isFinished: Bool { sourceFinished && stretchedHead == stretched.count }

    /// Hands at most `frames` frames to `write` (pointer, frame count), as many calls as it
    /// takes, scaled by `gain`; the frames handed out.
    func take(_ frames: Int, gain: Float, write: (UnsafePointer<Float>, Int) -> Bool) -> Int {
        let channels = Self.channelCount
        var given = 0
        while given < frames {
            if stretchedHead < stretched.count {
                let count = min(frames - given, (stretched.count - stretchedHead) / channels)
                let ok = handOut(count, gain: gain, write: write) { destination in
                    stretched.withUnsafeBufferPointer {
                        destination.update(from: $0.baseAddress! + stretchedHead, count: count * channels)
                    }
                }
                guard ok else { break }
                stretchedHead += count * channels
                given += count
                continue
            }
            guard !sourceFinished else { break }
            guard let (block, offset, limit) = current ?? nextPiece() else {
                if isWaiting { break }
                sourceFinished = true
                stretch(frames: 0, fill: nil)
                continue
            }
            let available = (limit - offset) / (4 * channels)
            if filter != nil {
                // The whole piece goes through the stretching, copied straight into the filter's
                // input; what comes out waits above.
                current = nil
                stretch(frames: available) { CMBlockBufferCopyDataBytes(block, atOffset: offset, dataLength: available * 4 * channels, destination: $0) }
                continue
            }
            let count = min(frames - given, available)
            let ok = handOut(count, gain: gain, write: write) { destination in
                CMBlockBufferCopyDataBytes(block, atOffset: offset, dataLength: count * 4 * channels, destination: destination)
            }
            guard ok else { break }
            given += count
            let next = offset + count * 4 * channels
            current = next + 4 * channels > limit ? nil : (block, next, limit)
        }
        return given
    }

    /// Fills the scratch buffer with `count` frames through `fill`, scales it, and writes it.
    private func handOut(_ count: Int, gain: Float, write: (UnsafePointer<Float>, Int) -> Bool,
                         fill: (UnsafeMutablePointer<Float>) -> Void) -> Bool {
        let samples = count * Self.channelCount
        if scratch.count < samples { scratch = [Float](repeating: 0, count: samples) }
        return scratch.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            fill(base)
            if gain != 1 { for index in 0..<samples { base[index] *= gain } }
            return write(base, count)
        }
    }

    /// Passes `frames` frames that `fill` writes (nil: the end) through the stretching into `stretched`.
    private func stretch(frames: Int, fill: ((UnsafeMutablePointer<Float>) -> Void)?) {
        guard let filter else { return }
        if stretchedHead == stretched.count {
            stretched.removeAll(keepingCapacity: true)
            stretchedHead = 0
        }
        do {
            let keep = { (pointer: UnsafePointer<Float>, count: Int) in
                self.stretched.append(contentsOf: UnsafeBufferPointer(start: pointer, count: count * Self.channelCount))
            }
            if let fill { try filter.process(frames: frames, fill: fill, output: keep) } else { try filter.finish(output: keep) }
        } catch {
            self.error = AVError(error, fallback: .decodeFailed)
            sourceFinished = true
        }
    }

    /// The next decoded sample's PCM within the time range, or nil at the end. The reader hands
    /// out whole decoded frames; the frames before the start and past the end are cut here, so
    /// a range plays exactly (a loop, an item's forward end).
    private func nextPiece() -> (block: CMBlockBuffer, offset: Int, limit: Int)? {
        let bytesPerFrame = 4 * Self.channelCount
        isWaiting = false
        while let sample = nextSample() {
            guard let block = CMSampleBufferGetDataBuffer(sample), block.dataLength >= bytesPerFrame else { continue }
            let frames = Int64(block.dataLength / bytesPerFrame)
            let time = CMSampleBufferGetPresentationTimeStamp(sample)
            let first = time.isNumeric ? CMTimeConvertScale(time - start, timescale: CMTimeScale(Self.sampleRate), method: .roundHalfAwayFromZero).value : takenFrames
            let skipped = max(0, takenFrames - first)
            var count = frames - skipped
            if let totalFrames { count = min(count, totalFrames - takenFrames) }
            guard count > 0 else {
                if let totalFrames, takenFrames >= totalFrames { break }
                continue
            }
            takenFrames += count
            current = (block, Int(skipped) * bytesPerFrame, Int(skipped + count) * bytesPerFrame)
            return current
        }
        if reader.status == .failed { error = reader.error }
        return nil
    }

    /// The reader's next sample: from the read-ahead for a network item (nil with `isWaiting`
    /// when none has arrived), else read now; nil at the end.
    private func nextSample() -> CMSampleBuffer? {
        guard let ahead else { return output.copyNextSampleBuffer() }
        switch ahead.next() {
        case .sample(let sample): return sample
        case .waiting:
            isWaiting = true
            return nil
        case .end: return nil
        }
    }
}
