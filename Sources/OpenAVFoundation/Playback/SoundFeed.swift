import Foundation
import OpenCoreMedia

/// The sound of a playing item: its audio track read through an `AVAssetReader` (the one
/// reading path) as interleaved float PCM in the sound output's format, handed out in pieces
/// as the output takes them. Used by one thread (the player's).
final class SoundFeed {
    /// The format every item's sound is converted to: one stream serves a whole queue, so
    /// items play back to back without reopening it.
    static let sampleRate = 48_000
    static let channelCount = 2

    private let reader: AVAssetReader
    private let output: AVAssetReaderTrackOutput
    /// The decoded PCM being handed out, and how many of its bytes are gone.
    private var current: (block: CMBlockBuffer, offset: Int)?
    /// Where frames are copied and scaled on their way out; reused.
    private var scratch: [Float] = []
    /// The item time of the first frame handed out.
    let start: CMTime
    /// Whether every frame has been handed out.
    private(set) var isFinished = false
    /// Why reading stopped early, if it did.
    private(set) var error: Error?

    /// Reads `track` of `asset` from `start` to `end`.
    init(track: AVAssetTrack, asset: AVAsset, start: CMTime, end: CMTime) throws {
        reader = try AVAssetReader(asset: asset)
        reader.timeRange = CMTimeRange(start: start, end: end.isNumeric ? end : .positiveInfinity)
        output = AVAssetReaderTrackOutput(track: track, outputSettings: [
            AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMIsFloatKey: true, AVLinearPCMBitDepthKey: 32,
            AVLinearPCMIsNonInterleaved: false, AVSampleRateKey: Self.sampleRate, AVNumberOfChannelsKey: Self.channelCount,
        ])
        output.alwaysCopiesSampleData = false
        reader.add(output)
        guard reader.startReading() else { throw reader.error ?? AVError(.decodeFailed, reason: "the sound could not be read") }
        self.start = start
    }

    deinit { reader.cancelReading() }

    /// Hands at most `frames` frames to `write` (pointer, frame count), as many calls as it
    /// takes, scaled by `gain`; the frames handed out.
    func take(_ frames: Int, gain: Float, write: (UnsafePointer<Float>, Int) -> Bool) -> Int {
        let bytesPerFrame = 4 * Self.channelCount
        var given = 0
        while given < frames, !isFinished {
            guard let (block, offset) = current ?? nextPiece() else { break }
            let count = min(frames - given, (block.dataLength - offset) / bytesPerFrame)
            if scratch.count < count * Self.channelCount { scratch = [Float](repeating: 0, count: count * Self.channelCount) }
            let ok = scratch.withUnsafeMutableBufferPointer { buffer -> Bool in
                let base = buffer.baseAddress!
                CMBlockBufferCopyDataBytes(block, atOffset: offset, dataLength: count * bytesPerFrame, destination: base)
                if gain != 1 { for index in 0..<(count * Self.channelCount) { base[index] *= gain } }
                return write(base, count)
            }
            guard ok else { break }
            given += count
            let next = offset + count * bytesPerFrame
            current = next + bytesPerFrame > block.dataLength ? nil : (block, next)
        }
        return given
    }

    /// The next decoded sample's PCM, or nil at the end.
    private func nextPiece() -> (block: CMBlockBuffer, offset: Int)? {
        while let sample = output.copyNextSampleBuffer() {
            guard let block = CMSampleBufferGetDataBuffer(sample), block.dataLength >= 4 * Self.channelCount else { continue }
            current = (block, 0)
            return current
        }
        isFinished = true
        if reader.status == .failed { error = reader.error }
        return nil
    }
}
