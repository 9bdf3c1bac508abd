import Foundation
import HostSystem

/// Which option of each of an asset's selection groups is chosen (an asset's
/// `preferredMediaSelection`, a player item's `currentMediaSelection`).
open class AVMediaSelection: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    /// The asset the selection is of.
    public private(set) weak var asset: AVAsset?
    /// The option chosen in each group, by group; a group missing here has its default.
    let chosen: Locked<[(group: AVMediaSelectionGroup, option: AVMediaSelectionOption?)]>

    init(asset: AVAsset?, chosen: [(group: AVMediaSelectionGroup, option: AVMediaSelectionOption?)] = []) {
        self.asset = asset
        self.chosen = Locked(chosen)
        super.init()
    }

    /// The option chosen in `mediaSelectionGroup`: the one selected, else the group's default.
    open func selectedMediaOption(in mediaSelectionGroup: AVMediaSelectionGroup) -> AVMediaSelectionOption? {
        chosen.withLock { choices in
            choices.last { $0.group == mediaSelectionGroup }.map { $0.option } ?? mediaSelectionGroup.defaultOption
        }
    }

    /// Whether a player's selection criteria may choose in `mediaSelectionGroup` on their own:
    /// true until an option is chosen explicitly.
    open func mediaSelectionCriteriaCanBeAppliedAutomatically(to mediaSelectionGroup: AVMediaSelectionGroup) -> Bool {
        chosen.withLock { !$0.contains { $0.group == mediaSelectionGroup } }
    }

    /// An immutable copy.
    open func copy(with zone: NSZone? = nil) -> Any { AVMediaSelection(asset: asset, chosen: chosen.withLock { $0 }) }

    /// A mutable copy.
    open func mutableCopy(with zone: NSZone? = nil) -> Any { AVMutableMediaSelection(asset: asset, chosen: chosen.withLock { $0 }) }
}
