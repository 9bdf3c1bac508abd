import Dispatch
import Foundation
import HostSystem
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
    /// How many groups wait before the ring of `pending` first grows.
    private static let pendingAtFirst = 8

    /// The delegate, its queue, and the groups waiting for it, behind one lock.
    private struct State {
        weak var delegate: AVPlayerItemMetadataOutputPushDelegate?
        var queue: DispatchQueue?
        var advance: TimeInterval = 0
        /// The groups the player took for this output and not yet given, in order, with their
        /// track. The player takes a group for every metadata output of its item once it is due
        /// for the one with the largest advance interval; here it waits until due for this one,
        /// so what waits is bounded by time (the groups of the difference between the two
        /// intervals), not by a count: the queue grows as needed (`grow`), never drops a group
        /// and never makes the player wait.
        var pending = BoundedQueue<(group: AVTimedMetadataGroup, track: AVPlayerItemTrack)>(capacity: pendingAtFirst, policy: .grow)
    }

    private let state = Locked(State())

    /// Creates an output giving the items with these identifiers (`AVMetadataIdentifier` raw
    /// values), or every item of every enabled metadata track when nil.
    public init(identifiers: [String]?) {
        self.identifiers = identifiers.map(Set.init)
        super.init()
    }

    /// The delegate the groups are given to.
    open var delegate: AVPlayerItemMetadataOutputPushDelegate? { state.delegate }

    /// The queue the delegate is called on.
    open var delegateQueue: DispatchQueue? { state.queue }

    /// Sets the delegate and the queue it is called on (the main queue when nil).
    open func setDelegate(_ delegate: AVPlayerItemMetadataOutputPushDelegate?, queue delegateQueue: DispatchQueue?) {
        state.withLock { s in
            s.delegate = delegate
            s.queue = delegateQueue
        }
    }

    /// How many seconds before its time a group is given to the delegate (0 by default).
    open var advanceIntervalForDelegateInvocation: TimeInterval {
        get { state.advance }
        set { state.advance = max(0, newValue) }
    }

    /// Forgets the groups not yet given (the item starts, or seeks): the delegate is told the
    /// sequence was flushed.
    func flush() {
        state.withLock { _ = $0.pending.removeAll() }
        tellDelegate { $0.outputSequenceWasFlushed(self) }
    }

    /// Forgets the groups not yet given (the item stopped playing, or the output was removed).
    func stop() {
        state.withLock { _ = $0.pending.removeAll() }
    }

    /// Takes `groups` (of `track`, in order) to give when their time comes.
    func receive(_ groups: [AVTimedMetadataGroup], from track: AVPlayerItemTrack) {
        let wanted = groups.compactMap { selected($0) }
        guard !wanted.isEmpty else { return }
        state.withLock { s in for group in wanted { _ = s.pending.push((group, track)) } }
    }

    /// Gives the delegate the groups due by item time `time` (less the advance interval),
    /// one call for each run of groups of one track.
    func deliver(through time: CMTime) {
        let due = state.withLock { s -> [(group: AVTimedMetadataGroup, track: AVPlayerItemTrack)] in
            let limit = time + CMTime(seconds: s.advance, preferredTimescale: 1_000_000)
            var due: [(group: AVTimedMetadataGroup, track: AVPlayerItemTrack)] = []
            while let first = s.pending.first, first.group.timeRange.start <= limit { due.append(s.pending.pop()!) }
            return due
        }
        var index = 0
        while index < due.count {
            let track = due[index].track
            let run = due[index...].prefix { $0.track === track }
            nonisolated(unsafe) let sent = run.map(\.group)
            tellDelegate { $0.metadataOutput(self, didOutputTimedMetadataGroups: sent, from: track) }
            index += run.count
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
        let (delegate, delegateQueue) = state.withLock { ($0.delegate, $0.queue) }
        tell(delegate, on: delegateQueue, call)
    }
}
