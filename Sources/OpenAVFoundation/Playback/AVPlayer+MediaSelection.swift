import Foundation

extension AVPlayer {
    /// Sets the criteria by which the player chooses, as each item becomes ready, among the
    /// options of its groups of `mediaCharacteristic` (`.audible`, `.legible`); nil removes them
    /// (each group's default is then presented).
    public func setMediaSelectionCriteria(_ criteria: AVPlayerMediaSelectionCriteria?, forMediaCharacteristic mediaCharacteristic: AVMediaCharacteristic) {
        engine.selectionCriteria.withLock { $0[mediaCharacteristic] = criteria }
    }

    /// The criteria set for `mediaCharacteristic`, or nil.
    public func mediaSelectionCriteria(forMediaCharacteristic mediaCharacteristic: AVMediaCharacteristic) -> AVPlayerMediaSelectionCriteria? {
        engine.selectionCriteria.withLock { $0[mediaCharacteristic] }
    }
}
