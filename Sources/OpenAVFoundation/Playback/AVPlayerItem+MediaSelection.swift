import Foundation
import OpenCoreMedia

extension AVPlayerItem {
    /// What the item presents of each of its asset's selection groups: the options chosen with
    /// `select(_:in:)`, each group's default otherwise.
    public var currentMediaSelection: AVMediaSelection {
        mediaSelection.copy() as? AVMediaSelection ?? AVMediaSelection(asset: asset)
    }

    /// Presents `mediaSelectionOption` of `mediaSelectionGroup` (nil: none, where the group
    /// allows it). Choosing another audio language while the item plays switches the sound
    /// where the sound already sent ends (about 100 ms later), in step with the pictures;
    /// choosing subtitles gives their cues to the item's legible outputs
    /// (`AVPlayerItemLegibleOutput`).
    ///
    /// Differs from Apple: subtitles are not drawn into the item's player layers yet.
    public func select(_ mediaSelectionOption: AVMediaSelectionOption?, in mediaSelectionGroup: AVMediaSelectionGroup) {
        mediaSelection.select(mediaSelectionOption, in: mediaSelectionGroup)
        Self.present(mediaSelection, in: mediaSelectionGroup, tracks: tracks)
        player?.engine.outputsChanged(of: self)
    }

    /// Presents the option of `mediaSelectionGroup` in the first of the user's preferred
    /// languages it has (`Locale.preferredLanguages`), else the group's default.
    public func selectMediaOptionAutomatically(in mediaSelectionGroup: AVMediaSelectionGroup) {
        let preferred = AVMediaSelectionGroup.mediaSelectionOptions(from: mediaSelectionGroup.options,
                                                                    filteredAndSortedAccordingToPreferredLanguages: Locale.preferredLanguages)
        select(preferred.first ?? mediaSelectionGroup.defaultOption, in: mediaSelectionGroup)
    }

    /// Enables the player item track of the option `selection` has in an audible or legible
    /// group and disables the group's other tracks (the sound is read from the enabled audio
    /// track, the cues for legible outputs from the enabled subtitle track).
    static func present(_ selection: AVMediaSelection, in group: AVMediaSelectionGroup, tracks: [AVPlayerItemTrack]) {
        guard group.characteristic == .audible || group.characteristic == .legible else { return }
        let chosen = selection.selectedMediaOption(in: group)?.track.trackID
        let offered = Set(group.options.map(\.track.trackID))
        for track in tracks {
            guard let trackID = track.assetTrack?.trackID, offered.contains(trackID) else { continue }
            track.isEnabled = trackID == chosen
        }
    }
}
