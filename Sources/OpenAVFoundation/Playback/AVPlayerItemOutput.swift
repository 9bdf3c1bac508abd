import Dispatch
import Foundation
import OpenCoreMedia

/// The base of the outputs that take a player item's media as it plays.
open class AVPlayerItemOutput: NSObject, @unchecked Sendable {
    let outputLock = NSLock()
    private var suppresses = false
    private weak var itemValue: AVPlayerItem?

    /// The item the output was added to.
    var item: AVPlayerItem? {
        get { outputLock.withLock { itemValue } }
        set { outputLock.withLock { itemValue = newValue } }
    }

    /// Creates an output.
    public override init() {
        super.init()
    }

    /// The item time shown at host time `hostTimeInSeconds` (the host time clock in seconds,
    /// as `CACurrentMediaTime()` reads it); invalid while the output has no playing item.
    open func itemTime(forHostTime hostTimeInSeconds: CFTimeInterval) -> CMTime {
        guard let item, let player = item.player, player.currentItem === item else { return .invalid }
        return player.engine.clock.itemTime(atHost: UInt64(max(0, (hostTimeInSeconds * 1e9).rounded())))
    }

    /// Whether the player should not show the item's video itself (it has no window on Linux
    /// unless a player layer shows it).
    open var suppressesPlayerRendering: Bool {
        get { outputLock.withLock { suppresses } }
        set { outputLock.withLock { suppresses = newValue } }
    }

    /// Calls `body` with `delegate` on `queue` (the main queue when nil), when there is a delegate.
    func tell<Delegate>(_ delegate: Delegate?, on queue: DispatchQueue?, _ body: @escaping (Delegate) -> Void) {
        guard let delegate else { return }
        nonisolated(unsafe) let target = delegate
        nonisolated(unsafe) let call = body
        (queue ?? .main).async { call(target) }
    }
}
