import Foundation
import HostSystem
import OpenCoreMedia

/// Loops one item (or a time range of it) in a queue player, without a gap: it keeps copies of
/// the template item queued and puts a new one in the queue each time one has played (by
/// default before the queue's other items, as `existingItemsOrdering` says).
open class AVPlayerLooper: NSObject, @unchecked Sendable {
    /// How many copies are queued at once.
    private static let replicaCount = 2

    private weak var player: AVQueuePlayer?
    private let template: AVPlayerItem
    private let timeRange: CMTimeRange
    private let ordering: ItemOrdering

    /// The copies queued, the loops played, and whether looping was disabled, behind one lock.
    private struct State {
        var replicas: [AVPlayerItem] = []
        var loops = 0
        var status: Status = .unknown
    }

    private let state = Locked(State())
    private var observer: NSObjectProtocol?

    /// Loops `itemToLoop` between `loopRange`'s start and end (an invalid or empty range: the
    /// whole item) in `player`, its copies put before or after the items already queued as
    /// `itemOrdering` says.
    public init(player: AVQueuePlayer, templateItem itemToLoop: AVPlayerItem, timeRange loopRange: CMTimeRange,
                existingItemsOrdering itemOrdering: ItemOrdering) {
        self.player = player
        template = itemToLoop
        timeRange = loopRange
        ordering = itemOrdering
        super.init()
        observer = NotificationCenter.default.addObserver(forName: AVPlayerItem.didPlayToEndTimeNotification, object: nil, queue: nil) { [weak self] note in
            guard let self, let item = note.object as? AVPlayerItem else { return }
            self.played(item)
        }
        for _ in 0..<Self.replicaCount { enqueue() }
    }

    /// Loops `itemToLoop` between `loopRange`'s start and end (an invalid or empty range: the
    /// whole item) in `player`, its copies put before the items already queued.
    public convenience init(player: AVQueuePlayer, templateItem itemToLoop: AVPlayerItem, timeRange loopRange: CMTimeRange) {
        self.init(player: player, templateItem: itemToLoop, timeRange: loopRange, existingItemsOrdering: .loopingItemsPrecedeExistingItems)
    }

    /// Loops all of `itemToLoop` in `player`, its copies put before the items already queued.
    public convenience init(player: AVQueuePlayer, templateItem itemToLoop: AVPlayerItem) {
        self.init(player: player, templateItem: itemToLoop, timeRange: .invalid)
    }

    deinit { observer.map(NotificationCenter.default.removeObserver) }

    /// How many times the item has played to its end.
    open var loopCount: Int { state.loops }

    /// Whether looping is under way.
    open var status: Status {
        state.withLock { s in
            if s.status == .unknown, let first = s.replicas.first {
                if first.status == .readyToPlay { return .ready }
                if first.status == .failed { return .failed }
            }
            return s.status
        }
    }

    /// Why looping failed, when `status` is `.failed`.
    open var error: Error? { state.withLock { $0.replicas.first?.error } }

    /// The copies of the template item in the queue.
    open var loopingPlayerItems: [AVPlayerItem] { state.replicas }

    /// Stops putting copies in the queue: what is queued plays out.
    open func disableLooping() {
        state.status = .cancelled
    }

    /// Puts a new copy in the queue: after the last copy still queued, else before or after the
    /// other items as the ordering says.
    private func enqueue() {
        // A copy keeps the template's settings (video composition, audio mix, pitch algorithm, buffering).
        let replica = template.copy() as! AVPlayerItem
        if timeRange.isValid, !timeRange.isEmpty {
            replica.forwardPlaybackEndTime = timeRange.end
            replica.seek(to: timeRange.start, toleranceBefore: .zero, toleranceAfter: .zero, completionHandler: nil)
        }
        let queued = state.withLock { s -> [AVPlayerItem] in
            defer { s.replicas.append(replica) }
            return s.replicas
        }
        guard let player else { return }
        player.engine.editItems { queue in
            if let last = queue.lastIndex(where: { item in queued.contains { $0 === item } }) {
                queue.insert(replica, at: last + 1)
            } else if ordering == .loopingItemsPrecedeExistingItems {
                queue.insert(replica, at: 0)
            } else {
                queue.append(replica)
            }
        }
    }

    /// A copy played to its end: counted, and another joins the queue.
    private func played(_ item: AVPlayerItem) {
        let again = state.withLock { s -> Bool? in
            guard let index = s.replicas.firstIndex(where: { $0 === item }) else { return nil }
            s.replicas.remove(at: index)
            s.loops += 1
            return s.status != .cancelled
        }
        if again == true { enqueue() }
    }
}
