import Dispatch
import Foundation
import OpenCoreMedia

/// Gives the timed metadata of a playing item (the groups of its enabled metadata tracks, such
/// as an HTTP Live Stream's timed ID3 tags) to a delegate as their times come in playback.
///
/// After each seek, and when the item starts, the delegate is told the sequence was flushed,
/// then gets the groups from that time on; a group is given once, on the delegate queue, when
/// the item's time reaches its start (less `advanceIntervalForDelegateInvocation`), also while
/// paused. Differs from Apple: only ID3 metadata tracks are read (see
/// `AVTimedMetadataGroup.init(sampleBuffer:)`).
open class AVPlayerItemMetadataOutput: AVPlayerItemOutput, @unchecked Sendable {
    private let identifiers: Set<String>?
    private weak var pushDelegate: AVPlayerItemMetadataOutputPushDelegate?
    private var pushQueue: DispatchQueue?
    private var advance: TimeInterval = 0
    private var feeds: [TimedMetadataFeed] = []

    /// Creates an output giving the items with these identifiers (`AVMetadataIdentifier` raw
    /// values), or every item of every enabled metadata track when nil.
    public init(identifiers: [String]?) {
        self.identifiers = identifiers.map(Set.init)
        super.init()
    }

    /// The delegate the groups are given to.
    open var delegate: AVPlayerItemMetadataOutputPushDelegate? { outputLock.withLock { pushDelegate } }

    /// The queue the delegate is called on.
    open var delegateQueue: DispatchQueue? { outputLock.withLock { pushQueue } }

    /// Sets the delegate and the queue it is called on (the main queue when nil).
    open func setDelegate(_ delegate: AVPlayerItemMetadataOutputPushDelegate?, queue delegateQueue: DispatchQueue?) {
        outputLock.withLock {
            pushDelegate = delegate
            pushQueue = delegateQueue
        }
    }

    /// How many seconds before its time a group is given to the delegate (0 by default).
    open var advanceIntervalForDelegateInvocation: TimeInterval {
        get { outputLock.withLock { advance } }
        set { outputLock.withLock { advance = max(0, newValue) } }
    }

    /// Starts reading the item's metadata tracks from `time`, in place of what was read; the
    /// delegate is told the sequence was flushed.
    func restart(in item: AVPlayerItem, at time: CMTime) {
        let tracks = item.tracks.filter { $0.isEnabled && $0.assetTrack?.mediaType == .metadata }
        let started = tracks.compactMap { track in
            track.assetTrack.map { TimedMetadataFeed(track: $0, playerItemTrack: track, asset: item.asset, start: time, end: item.endTime) }
        }
        let previous = outputLock.withLock { () -> [TimedMetadataFeed] in
            defer { feeds = started }
            return feeds
        }
        previous.forEach { $0.stop() }
        tellDelegate { $0.outputSequenceWasFlushed(self) }
    }

    /// Stops reading (the item stopped playing, or the output was removed).
    func stop() {
        let previous = outputLock.withLock { () -> [TimedMetadataFeed] in
            defer { feeds = [] }
            return feeds
        }
        previous.forEach { $0.stop() }
    }

    /// Gives the delegate the groups due by item time `time`.
    func deliver(through time: CMTime) {
        let (reading, early) = outputLock.withLock { (feeds, advance) }
        let due = time + CMTime(seconds: early, preferredTimescale: 1_000_000)
        for feed in reading {
            let groups = feed.take(through: due).compactMap { selected($0) }
            guard !groups.isEmpty else { continue }
            nonisolated(unsafe) let sent = groups
            let track = feed.playerItemTrack
            tellDelegate { $0.metadataOutput(self, didOutputTimedMetadataGroups: sent, from: track) }
        }
    }

    /// The group with only the items asked for; nil when none is.
    private func selected(_ group: AVTimedMetadataGroup) -> AVTimedMetadataGroup? {
        guard let identifiers else { return group }
        let items = group.items.filter { $0.identifier.map { identifiers.contains($0.rawValue) } ?? false }
        return items.isEmpty ? nil : AVTimedMetadataGroup(items: items, timeRange: group.timeRange)
    }

    /// Calls the delegate on its queue (the main queue when none was given).
    private func tellDelegate(_ call: @escaping (AVPlayerItemMetadataOutputPushDelegate) -> Void) {
        let (delegate, delegateQueue) = outputLock.withLock { (pushDelegate, pushQueue) }
        tell(delegate, on: delegateQueue, call)
    }
}
