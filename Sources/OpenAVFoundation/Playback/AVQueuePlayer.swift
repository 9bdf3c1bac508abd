import Foundation

/// A player of several items in turn: when one ends, the next plays, its sound following
/// without a gap.
open class AVQueuePlayer: AVPlayer, @unchecked Sendable {
    /// Creates a player of `items`, in order.
    public convenience init(items: [AVPlayerItem]) {
        self.init()
        engine.setItems(items)
    }

    override class var defaultActionAtItemEnd: ActionAtItemEnd { .advance }

    /// The items still to play, the current one first.
    open func items() -> [AVPlayerItem] { engine.items }

    /// Ends the current item and plays the next.
    open func advanceToNextItem() {
        engine.editItems { if !$0.isEmpty { $0.removeFirst() } }
    }

    /// Whether `item` can be inserted after `afterItem` (nil: at the end): it is not in a
    /// player yet, and `afterItem` is in this queue.
    open func canInsert(_ item: AVPlayerItem, after afterItem: AVPlayerItem?) -> Bool {
        let queue = engine.items
        guard item.player == nil, !queue.contains(where: { $0 === item }) else { return false }
        return afterItem.map { after in queue.contains { $0 === after } } ?? true
    }

    /// Inserts `item` after `afterItem` (nil: at the end).
    open func insert(_ item: AVPlayerItem, after afterItem: AVPlayerItem?) {
        guard canInsert(item, after: afterItem) else { return }
        engine.editItems { queue in
            if let afterItem, let index = queue.firstIndex(where: { $0 === afterItem }) {
                queue.insert(item, at: index + 1)
            } else {
                queue.append(item)
            }
        }
    }

    /// Removes `item` from the queue (the current item: the next plays).
    open func remove(_ item: AVPlayerItem) {
        engine.editItems { $0.removeAll { $0 === item } }
    }

    /// Empties the queue.
    open func removeAllItems() {
        engine.setItems([])
    }

    /// Makes `item` the only item (nil: none).
    open override func replaceCurrentItem(with item: AVPlayerItem?) {
        engine.editItems { queue in
            if !queue.isEmpty { queue.removeFirst() }
            if let item { queue.insert(item, at: 0) }
        }
    }
}
