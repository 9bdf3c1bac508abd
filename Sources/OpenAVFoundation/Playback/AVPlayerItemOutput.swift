import Dispatch
import Foundation
import HostSystem
import OpenCoreMedia

/// The base of the outputs that take a player item's media as it plays.
open class AVPlayerItemOutput: NSObject, @unchecked Sendable {
    /// The item, held weakly: the item owns its outputs.
    private struct ItemLink {
        weak var item: AVPlayerItem?
    }

    private let itemLink = Locked(ItemLink())

    /// The item the output was added to.
    var item: AVPlayerItem? {
        get { itemLink.item }
        set { itemLink.item = newValue }
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
    @Locked open var suppressesPlayerRendering = false

    /// Calls `body` with `delegate` on `queue` (the main queue when nil), when there is a delegate.
    func tell<Delegate>(_ delegate: Delegate?, on queue: DispatchQueue?, _ body: @escaping (Delegate) -> Void) {
        guard let delegate else { return }
        nonisolated(unsafe) let target = delegate
        nonisolated(unsafe) let call = body
        (queue ?? .main).async { call(target) }
    }
}
