import Dispatch
import Foundation
import OpenCoreMedia

/// A player's time observers (`addPeriodicTimeObserver`, `addBoundaryTimeObserver`): who
/// watches what, and, as the player's thread moves the item time forward, whom to tell. Each is
/// told on its own queue. Observers are added and removed from any thread; `fire` and
/// `firePeriodic` are called by the player's thread only.
final class PlaybackTimeObservers: @unchecked Sendable {
    /// What an observer watches for: every `interval` of item time, or boundary times.
    enum Kind {
        case periodic(CMTime)
        case boundary([CMTime])
    }

    /// The token `addPeriodicTimeObserver`/`addBoundaryTimeObserver` return.
    final class Token: @unchecked Sendable {
        let id: Int
        init(id: Int) { self.id = id }
    }

    /// An observer, and where and what it is told.
    private struct Observer {
        let kind: Kind
        let queue: DispatchQueue
        let block: @Sendable (CMTime) -> Void
    }

    private let lock = NSLock()
    private var observers: [Int: Observer] = [:]
    private var nextID = 0
    /// The item time the observers were last brought up to (the player's thread's own).
    private var lastObserved: CMTime = .zero

    /// Adds an observer; keep the token to remove it.
    func add(_ kind: Kind, queue: DispatchQueue, block: @escaping @Sendable (CMTime) -> Void) -> Token {
        lock.withLock {
            nextID += 1
            observers[nextID] = Observer(kind: kind, queue: queue, block: block)
            return Token(id: nextID)
        }
    }

    /// Removes the observer `token` stands for.
    func remove(_ token: Token) {
        _ = lock.withLock { observers.removeValue(forKey: token.id) }
    }

    /// Playback moved forward to `now`: the periodic observers whose interval was crossed since
    /// the last time, and the boundary observers one of whose times was, are told `now`.
    func fire(at now: CMTime) {
        defer { lastObserved = now }
        guard now > lastObserved else { return }
        let due = lock.withLock { observers.values.filter { observer in
            switch observer.kind {
            case .periodic(let interval):
                guard interval > .zero else { return false }
                let before = CMTimeGetSeconds(lastObserved) / CMTimeGetSeconds(interval)
                let after = CMTimeGetSeconds(now) / CMTimeGetSeconds(interval)
                return before.rounded(.down) != after.rounded(.down)
            case .boundary(let times):
                return times.contains { $0 > lastObserved && $0 <= now }
            }
        } }
        for observer in due { observer.queue.async { observer.block(now) } }
    }

    /// Playback jumped, started or stopped at `time`: every periodic observer is told it.
    func firePeriodic(at time: CMTime) {
        let periodic = lock.withLock { observers.values.filter { if case .periodic = $0.kind { true } else { false } } }
        for observer in periodic { observer.queue.async { observer.block(time) } }
        lastObserved = time
    }

    /// Playback starts at `time` without telling anyone (a new item, a new reading).
    func start(at time: CMTime) {
        lastObserved = time
    }
}
