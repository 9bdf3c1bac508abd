import Foundation

/// A media selection you change: choose an option (or none, where the group allows it) in
/// each group.
open class AVMutableMediaSelection: AVMediaSelection, @unchecked Sendable {
    /// Chooses `mediaSelectionOption` in `mediaSelectionGroup`; nil chooses no option where the
    /// group allows an empty selection, and its default otherwise. An option of another group
    /// is ignored.
    open func select(_ mediaSelectionOption: AVMediaSelectionOption?, in mediaSelectionGroup: AVMediaSelectionGroup) {
        if let mediaSelectionOption, !mediaSelectionGroup.options.contains(mediaSelectionOption) { return }
        let option = mediaSelectionOption ?? (mediaSelectionGroup.allowsEmptySelection ? nil : mediaSelectionGroup.defaultOption)
        chosen.withLock { choices in
            choices.removeAll { $0.group == mediaSelectionGroup }
            choices.append((mediaSelectionGroup, option))
        }
    }
}
