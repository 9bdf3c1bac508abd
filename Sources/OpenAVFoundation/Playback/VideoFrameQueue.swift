import Foundation
import HostSystem
import Logging
import OpenCoreMedia
import OpenCoreVideo

/// The decoded pictures of a playing item's video track, decoded ahead on a thread of their own
/// from the video output of the item's reading (the one reading path) into a small bounded
/// queue, for the item's video outputs to take by item time. The decoder waits while the queue
/// is full; pictures passed over by the outputs are let go, and those never given out are
/// counted as dropped in the item's access log. Thread-safe.
final class VideoFrameQueue: @unchecked Sendable {
    /// How many pictures are decoded ahead.
    static let capacity = 6

    private static let logger = Logger(label: "OpenAVFoundation.AVPlayer")

    private let condition = NSCondition()
    /// The pictures decoded and not let go, oldest first; the decoder waits while `limit` do.
    private var frames = BoundedQueue<(time: CMTime, buffer: CVPixelBuffer)>(capacity: capacity, policy: .block)
    private var ended = false
    private var stopped = false
    private var failure: AVError?
    private var limit: Int
    /// The time of the last picture given to an output.
    private var given: CMTime?
    private let record: PlaybackAccessRecord?
    /// The reading the pictures come from; a file cut short fails it (`AVError.cutShort`).
    private let reader: AVAssetReader?

    /// The reader output of `track` of `asset` in the pixel format `settings` ask for
    /// (`kCVPixelBufferPixelFormatTypeKey`; the decoder's own when empty); with a
    /// `composition`, its frames (of every video track) instead.
    static func makeOutput(track: AVAssetTrack, asset: AVAsset, composition: AVVideoComposition?, settings: [String: Any]) -> AVAssetReaderOutput {
        let output: AVAssetReaderOutput
        if let composition {
            let composed = AVAssetReaderVideoCompositionOutput(videoTracks: asset.tracks(withMediaType: .video),
                                                               videoSettings: settings.isEmpty ? nil : settings)
            composed.videoComposition = composition
            output = composed
        } else {
            output = AVAssetReaderTrackOutput(track: track, outputSettings: settings)
        }
        output.alwaysCopiesSampleData = false
        return output
    }

    /// Starts decoding what `output` (made by `makeOutput`, read by `reader`) gives, `ahead`
    /// pictures ahead (see `decodeAhead`).
    init(output: AVAssetReaderOutput, reader: AVAssetReader, ahead: Int, record: PlaybackAccessRecord) {
        limit = min(max(1, ahead), Self.capacity)
        self.record = record
        self.reader = reader
        let thread = Thread { [self] in decode(output) }
        thread.name = "OpenAVFoundation.AVPlayer.video"
        thread.start()
    }

    /// A queue that has ended with `error`: the item's video could not be read.
    init(failure error: Error?) {
        limit = 1
        record = nil
        reader = nil
        failure = error as? AVError ?? AVError(.decodeFailed, reason: error.map { "\($0)" } ?? "the video could not be read")
        ended = true
    }

    /// How many pictures are decoded ahead, at most `capacity`: one while paused (the picture
    /// shown: a paused player that seeks decodes nothing past it), `capacity` while playing.
    func decodeAhead(_ count: Int) {
        condition.withLock {
            limit = min(max(1, count), Self.capacity)
            condition.broadcast()
        }
    }

    /// Stops decoding; the queue ends (the reading itself is cancelled by its owner).
    func stop() {
        condition.withLock {
            stopped = true
            ended = true
            frames.removeAll()
            condition.broadcast()
        }
    }

    private func decode(_ output: AVAssetReaderOutput) {
        guard let reader else { return }
        do {
            // Room first, then a picture: nothing is decoded past what the limit asks for.
            while condition.withLock({ () -> Bool in
                while !stopped && frames.count >= limit { condition.wait() }
                return !stopped
            }), let sample = output.copyNextSampleBuffer() {
                guard let buffer = CMSampleBufferGetImageBuffer(sample) else { continue }
                let time = CMSampleBufferGetPresentationTimeStamp(sample)
                condition.withLock {
                    _ = frames.push((time, buffer))
                    condition.broadcast()
                }
            }
            if condition.withLock({ stopped }) { return }
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

    /// Lets go of the pictures shown before `time` (as `frame(at:)` does, for when no output
    /// takes them), so that decoding goes on; whether decoding reached the end without failing
    /// and the last picture is shown by `time`.
    func playOut(to time: CMTime) -> Bool {
        condition.withLock {
            if let index = lastIndex(shownAt: time) { letGo(index) }
            return ended && failure == nil && (frames.last.map { $0.time <= time } ?? true)
        }
    }

    /// Whether a picture shown at or before `time` is newer than `than`.
    func hasFrame(at time: CMTime, newerThan than: CMTime) -> Bool {
        condition.withLock { lastIndex(shownAt: time).map { frames[$0].time > than } ?? false }
    }

    /// The picture shown at `time` (the last one at or before it) and its time; pictures before
    /// it are let go.
    func frame(at time: CMTime) -> (buffer: CVPixelBuffer, time: CMTime)? {
        condition.withLock {
            guard let index = lastIndex(shownAt: time) else { return nil }
            letGo(index)
            let shown = frames.first!
            given = shown.time
            return (shown.buffer, shown.time)
        }
    }

    /// The position of the last picture shown at or before `time`; lock held.
    private func lastIndex(shownAt time: CMTime) -> Int? {
        (0..<frames.count).last { frames[$0].time <= time }
    }

    /// Lets go of the first `count` pictures, counting those never given out; lock held.
    private func letGo(_ count: Int) {
        guard count > 0 else { return }
        var dropped = 0
        for _ in 0..<count where frames.pop()?.time != given { dropped += 1 }
        condition.broadcast()
        if dropped > 0 { record?.recordDropped(dropped) }
    }
}
