import Foundation
import HostSystem
import Logging
import OpenCoreMedia

/// The timed metadata groups of one metadata track of a playing item, read ahead on a thread of
/// their own from the track's output of the item's reading (the one reading path), through
/// `AVAssetReaderOutputMetadataAdaptor`, into a small bounded queue, from which the player takes
/// those due for its metadata outputs. Groups that end before the start are passed over. A
/// track that cannot be read gives no groups (it is logged); playback goes on. Thread-safe.
final class TimedMetadataFeed: @unchecked Sendable {
    /// How many groups are read ahead: a few, because the item's one demuxer reads (and keeps
    /// for the sound and the pictures) everything up to the last of them.
    static let capacity = 2

    private static let logger = Logger(label: "OpenAVFoundation.AVPlayer")

    /// The item's track the groups come from.
    let playerItemTrack: AVPlayerItemTrack
    private let condition = NSCondition()
    private var groups = BoundedQueue<AVTimedMetadataGroup>(capacity: capacity, policy: .block)
    private var stopped = false
    private let reader: AVAssetReader

    /// Starts reading `output` (a passthrough output of `playerItemTrack`'s asset track, read by
    /// `reader`), passing over the groups that end before `start`.
    init(output: AVAssetReaderTrackOutput, playerItemTrack: AVPlayerItemTrack, reader: AVAssetReader, start: CMTime) {
        self.playerItemTrack = playerItemTrack
        self.reader = reader
        let adaptor = AVAssetReaderOutputMetadataAdaptor(assetReaderTrackOutput: output)
        let thread = Thread { [self] in read(adaptor, from: start) }
        thread.name = "OpenAVFoundation.AVPlayer.metadata"
        thread.start()
    }

    private func read(_ adaptor: AVAssetReaderOutputMetadataAdaptor, from start: CMTime) {
        while condition.withLock({ () -> Bool in
            while !stopped && groups.isFull { condition.wait() }
            return !stopped
        }), let group = adaptor.nextTimedMetadataGroup() {
            let range = group.timeRange
            if range.start < start && (range.duration.isNumeric ? range.end <= start : true) { continue }
            condition.withLock { _ = groups.push(group) }
        }
        if reader.status == .failed {
            Self.logger.warning("reading the timed metadata stopped: \(reader.error.map { "\($0)" } ?? "")")
        }
    }

    /// The groups that start by `time`, in order, taken from the queue.
    func take(through time: CMTime) -> [AVTimedMetadataGroup] {
        condition.withLock {
            var due: [AVTimedMetadataGroup] = []
            while let first = groups.first, first.timeRange.start <= time { due.append(groups.pop()!) }
            if !due.isEmpty { condition.broadcast() }
            return due
        }
    }

    /// Stops reading (the reading itself is cancelled by its owner).
    func stop() {
        condition.withLock {
            stopped = true
            groups.removeAll()
            condition.broadcast()
        }
    }
}
