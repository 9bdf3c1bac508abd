import Foundation
import HostSystem
import Logging
import OpenCoreMedia

/// The timed items of one track of a playing item (the groups of a metadata track, the cues of
/// a subtitle track), read ahead on a thread of their own from the track's output of the item's
/// reading (the one reading path) into a small bounded queue, from which the player takes those
/// due for its outputs. Items that end before the start are passed over. A track that cannot be
/// read gives no items (it is logged); playback goes on. Thread-safe.
final class TimedTrackFeed<Item>: @unchecked Sendable {
    /// How many items are read ahead: a few, because the item's one demuxer reads (and keeps
    /// for the sound and the pictures) everything up to the last of them.
    static var capacity: Int { 2 }

    private static var logger: Logger { Logger(label: "OpenAVFoundation.AVPlayer") }

    /// The item's track the items come from.
    let playerItemTrack: AVPlayerItemTrack
    private let condition = NSCondition()
    private var items = BoundedQueue<Item>(capacity: capacity, policy: .block)
    private var stopped = false
    private let reader: AVAssetReader
    private let timeRange: (Item) -> CMTimeRange

    /// Starts reading with `next` (which reads the next item of `playerItemTrack`'s output of
    /// `reader`, nil at the end) on a thread named `threadName`, passing over the items whose
    /// `timeRange` ends before `start`.
    init(playerItemTrack: AVPlayerItemTrack, reader: AVAssetReader, start: CMTime, threadName: String,
         timeRange: @escaping (Item) -> CMTimeRange, next: @escaping () -> Item?) {
        self.playerItemTrack = playerItemTrack
        self.reader = reader
        self.timeRange = timeRange
        nonisolated(unsafe) let next = next
        let thread = Thread { [self] in read(next, from: start) }
        thread.name = threadName
        thread.start()
    }

    private func read(_ next: () -> Item?, from start: CMTime) {
        while condition.withLock({ () -> Bool in
            while !stopped && items.isFull { condition.wait() }
            return !stopped
        }), let item = next() {
            let range = timeRange(item)
            if range.start < start && (range.duration.isNumeric ? range.end <= start : true) { continue }
            condition.withLock { _ = items.push(item) }
        }
        if reader.status == .failed {
            Self.logger.warning("reading the \(playerItemTrack.assetTrack?.mediaType.rawValue ?? "") track stopped: \(reader.error.map { "\($0)" } ?? "")")
        }
    }

    /// The items that start by `time`, in order, taken from the queue.
    func take(through time: CMTime) -> [Item] {
        condition.withLock {
            var due: [Item] = []
            while let first = items.first, timeRange(first).start <= time { due.append(items.pop()!) }
            if !due.isEmpty { condition.broadcast() }
            return due
        }
    }

    /// Stops reading (the reading itself is cancelled by its owner).
    func stop() {
        condition.withLock {
            stopped = true
            items.removeAll()
            condition.broadcast()
        }
    }
}

extension TimedTrackFeed where Item == AVTimedMetadataGroup {
    /// The groups of a metadata track: `output` (a passthrough output of `playerItemTrack`'s
    /// asset track, read by `reader`) through `AVAssetReaderOutputMetadataAdaptor`.
    convenience init(metadataOutput output: AVAssetReaderTrackOutput, playerItemTrack: AVPlayerItemTrack, reader: AVAssetReader, start: CMTime) {
        let adaptor = AVAssetReaderOutputMetadataAdaptor(assetReaderTrackOutput: output)
        self.init(playerItemTrack: playerItemTrack, reader: reader, start: start, threadName: "OpenAVFoundation.AVPlayer.metadata",
                  timeRange: \.timeRange, next: adaptor.nextTimedMetadataGroup)
    }
}

extension TimedTrackFeed where Item == CMSampleBuffer {
    /// The cues of a subtitle track: the sample buffers of `output` (a passthrough output of
    /// `playerItemTrack`'s asset track, read by `reader`).
    convenience init(legibleOutput output: AVAssetReaderTrackOutput, playerItemTrack: AVPlayerItemTrack, reader: AVAssetReader, start: CMTime) {
        self.init(playerItemTrack: playerItemTrack, reader: reader, start: start, threadName: "OpenAVFoundation.AVPlayer.subtitles",
                  timeRange: { CMTimeRange(start: $0.presentationTimeStamp, duration: $0.duration) }, next: output.copyNextSampleBuffer)
    }
}
