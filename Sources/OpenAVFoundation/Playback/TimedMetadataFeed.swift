import Foundation
import Logging
import OpenCoreMedia

/// The timed metadata groups of one metadata track of a playing item, read ahead on a thread of
/// their own through an `AVAssetReader` and `AVAssetReaderOutputMetadataAdaptor` (the one reading
/// path) into a small bounded queue, from which the metadata output takes those due. Groups that
/// end before the start are passed over. A track that cannot be read gives no groups (it is
/// logged); playback goes on. Thread-safe.
final class TimedMetadataFeed: @unchecked Sendable {
    /// How many groups are read ahead.
    static let capacity = 16

    private static let logger = Logger(label: "OpenAVFoundation.AVPlayer")

    /// The item's track the groups come from.
    let playerItemTrack: AVPlayerItemTrack
    private let condition = NSCondition()
    private var groups: [AVTimedMetadataGroup] = []
    private var stopped = false
    private let reader: AVAssetReader?

    /// Starts reading `track` of `asset` from `start` up to `end`.
    init(track: AVAssetTrack, playerItemTrack: AVPlayerItemTrack, asset: AVAsset, start: CMTime, end: CMTime) {
        self.playerItemTrack = playerItemTrack
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: nil)
        output.alwaysCopiesSampleData = false
        do {
            let reader = try AVAssetReader(asset: asset, readsLiveStreams: true)
            reader.timeRange = CMTimeRange(start: start, end: end.isNumeric ? end : .positiveInfinity)
            reader.add(output)
            guard reader.startReading() else { throw reader.error ?? AVError(.decodeFailed, reason: "the metadata could not be read") }
            self.reader = reader
        } catch {
            Self.logger.warning("the timed metadata of \(asset) cannot be read: \(error)")
            reader = nil
            return
        }
        let adaptor = AVAssetReaderOutputMetadataAdaptor(assetReaderTrackOutput: output)
        let thread = Thread { [self] in read(adaptor, from: start) }
        thread.name = "OpenAVFoundation.AVPlayer.metadata"
        thread.start()
    }

    private func read(_ adaptor: AVAssetReaderOutputMetadataAdaptor, from start: CMTime) {
        while condition.withLock({ () -> Bool in
            while !stopped && groups.count >= Self.capacity { condition.wait() }
            return !stopped
        }), let group = adaptor.nextTimedMetadataGroup() {
            let range = group.timeRange
            if range.start < start && (range.duration.isNumeric ? range.end <= start : true) { continue }
            condition.withLock { groups.append(group) }
        }
        if let reader, reader.status == .failed {
            Self.logger.warning("reading the timed metadata stopped: \(reader.error.map { "\($0)" } ?? "")")
        }
    }

    /// The groups that start by `time`, in order, taken from the queue.
    func take(through time: CMTime) -> [AVTimedMetadataGroup] {
        condition.withLock {
            let due = groups.prefix { $0.timeRange.start <= time }
            guard !due.isEmpty else { return [] }
            groups.removeFirst(due.count)
            condition.broadcast()
            return Array(due)
        }
    }

    /// Stops reading; the reading is cancelled here, so that the asset's demuxer goes back to it.
    func stop() {
        condition.withLock {
            stopped = true
            groups.removeAll()
            condition.broadcast()
        }
        reader?.cancelReading()
    }
}
