import Foundation
import Logging
import OpenCoreMedia
import OpenCoreVideo

/// The decoded pictures of a playing item's video track, decoded ahead on a thread of their own
/// through an `AVAssetReader` (the one reading path) into a small bounded queue, for the item's
/// video outputs to take by item time. The decoder waits while the queue is full; pictures
/// passed over by the outputs are let go. Thread-safe.
final class VideoFrameQueue: @unchecked Sendable {
    /// How many pictures are decoded ahead.
    static let capacity = 6

    private static let logger = Logger(label: "OpenAVFoundation.AVPlayer")

    private let condition = NSCondition()
    private var frames: [(time: CMTime, buffer: CVPixelBuffer)] = []
    private var ended = false
    private var stopped = false
    private var failure: AVError?

    /// Starts decoding `track` from `start` (the first picture is the one shown at `start`) up
    /// to `end`, in the pixel format `settings` ask for (`kCVPixelBufferPixelFormatTypeKey`;
    /// the decoder's own when empty).
    init(track: AVAssetTrack, asset: AVAsset, start: CMTime, end: CMTime, settings: [String: Any]) {
        nonisolated(unsafe) let settings = settings
        let thread = Thread { [self] in decode(track: track, asset: asset, start: start, end: end, settings: settings) }
        thread.name = "OpenAVFoundation.AVPlayer.video"
        thread.start()
    }

    /// Stops decoding; the queue ends.
    func stop() {
        condition.withLock {
            stopped = true
            ended = true
            frames.removeAll()
            condition.broadcast()
        }
    }

    private func decode(track: AVAssetTrack, asset: AVAsset, start: CMTime, end: CMTime, settings: [String: Any]) {
        do {
            let reader = try AVAssetReader(asset: asset)
            reader.timeRange = CMTimeRange(start: start, end: end.isNumeric ? end : .positiveInfinity)
            let output = AVAssetReaderTrackOutput(track: track, outputSettings: settings)
            output.alwaysCopiesSampleData = false
            reader.add(output)
            if !reader.startReading() { throw reader.error ?? AVError(.decodeFailed, reason: "the video could not be read") }
            while let sample = output.copyNextSampleBuffer() {
                guard let buffer = CMSampleBufferGetImageBuffer(sample) else { continue }
                let time = CMSampleBufferGetPresentationTimeStamp(sample)
                let keepGoing = condition.withLock { () -> Bool in
                    while !stopped && frames.count >= Self.capacity { condition.wait() }
                    guard !stopped else { return false }
                    frames.append((time, buffer))
                    condition.broadcast()
                    return true
                }
                if !keepGoing { return reader.cancelReading() }
            }
            if reader.status == .failed { throw reader.error ?? AVError(.decodeFailed, reason: "the video could not be read") }
        } catch {
            Self.logger.warning("video decoding stopped: \(error)")
            condition.withLock { failure = error as? AVError ?? AVError(.decodeFailed, reason: "\(error)") }
        }
        condition.withLock {
            ended = true
            condition.broadcast()
        }
    }

    /// Why decoding failed, if it did.
    var error: AVError? { condition.withLock { failure } }

    /// Waits until the first picture is decoded (or decoding ended), at most until host
    /// nanosecond `deadline`; whether a picture is there.
    func waitForFirstFrame(until deadline: Date) -> Bool {
        condition.withLock {
            while frames.isEmpty && !ended && condition.wait(until: deadline) {}
            return !frames.isEmpty
        }
    }

    /// Whether a picture shown at or before `time` is newer than `than`.
    func hasFrame(at time: CMTime, newerThan than: CMTime) -> Bool {
        condition.withLock { frames.last { $0.time <= time }.map { $0.time > than } ?? false }
    }

    /// The picture shown at `time` (the last one at or before it) and its time; pictures before
    /// it are let go.
    func frame(at time: CMTime) -> (buffer: CVPixelBuffer, time: CMTime)? {
        condition.withLock {
            guard let index = frames.lastIndex(where: { $0.time <= time }) else { return nil }
            frames.removeFirst(index)
            condition.broadcast()
            return (frames[0].buffer, frames[0].time)
        }
    }
}
