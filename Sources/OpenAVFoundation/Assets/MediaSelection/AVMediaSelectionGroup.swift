import Foundation

/// The options among which one (or, for subtitles, none) is presented: an asset's audio
/// languages, its subtitles (`AVAsset.mediaSelectionGroup(forMediaCharacteristic:)`).
open class AVMediaSelectionGroup: NSObject, NSCopying, @unchecked Sendable {
    /// The characteristic the group was made for (audible or legible).
    let characteristic: AVMediaCharacteristic

    /// The options, in the order of their tracks in the file.
    public let options: [AVMediaSelectionOption]

    /// The option presented when nothing is chosen: the track the file marks as its default,
    /// else (for audio) the first; nil for subtitles the file does not mark.
    public let defaultOption: AVMediaSelectionOption?

    /// Whether presenting none of the options is allowed: true for subtitles, false for audio.
    public let allowsEmptySelection: Bool

    init(characteristic: AVMediaCharacteristic, tracks: [AVAssetTrack]) {
        self.characteristic = characteristic
        options = tracks.map(AVMediaSelectionOption.init(track:))
        allowsEmptySelection = characteristic != .audible
        defaultOption = options.first { $0.track.contents.isDefault } ?? (characteristic == .audible ? options.first : nil)
        super.init()
    }

    /// The option a property list from `AVMediaSelectionOption.propertyList()` names, or nil.
    open func mediaSelectionOption(withPropertyList plist: Any) -> AVMediaSelectionOption? {
        guard let trackID = ((plist as? NSDictionary)?["trackID"] as? NSNumber)?.int32Value else { return nil }
        return options.first { $0.track.trackID == trackID }
    }

    /// The options that can be played.
    open class func playableMediaSelectionOptions(from mediaSelectionOptions: [AVMediaSelectionOption]) -> [AVMediaSelectionOption] {
        mediaSelectionOptions.filter(\.isPlayable)
    }

    /// The options in one of `preferredLanguages` (BCP 47, most preferred first), sorted in
    /// that order of preference; options in no preferred language are left out.
    open class func mediaSelectionOptions(from mediaSelectionOptions: [AVMediaSelectionOption],
                                          filteredAndSortedAccordingToPreferredLanguages preferredLanguages: [String]) -> [AVMediaSelectionOption] {
        preferredLanguages.flatMap { preferred in
            mediaSelectionOptions.filter { option in
                option.locale?.languageCodeIdentifier == Locale(identifier: preferred).languageCodeIdentifier
            }
        }.reduce(into: [AVMediaSelectionOption]()) { kept, option in if !kept.contains(option) { kept.append(option) } }
    }

    /// The options in `locale`'s language.
    open class func mediaSelectionOptions(from mediaSelectionOptions: [AVMediaSelectionOption], with locale: Locale) -> [AVMediaSelectionOption] {
        mediaSelectionOptions.filter { option in option.locale?.languageCodeIdentifier == locale.languageCodeIdentifier }
    }

    /// The options that have every one of `mediaCharacteristics`.
    open class func mediaSelectionOptions(from mediaSelectionOptions: [AVMediaSelectionOption],
                                          withMediaCharacteristics mediaCharacteristics: [AVMediaCharacteristic]) -> [AVMediaSelectionOption] {
        mediaSelectionOptions.filter { option in mediaCharacteristics.allSatisfy(option.hasMediaCharacteristic) }
    }

    /// The options that have none of `mediaCharacteristics`.
    open class func mediaSelectionOptions(from mediaSelectionOptions: [AVMediaSelectionOption],
                                          withoutMediaCharacteristics mediaCharacteristics: [AVMediaCharacteristic]) -> [AVMediaSelectionOption] {
        mediaSelectionOptions.filter { option in !mediaCharacteristics.contains(where: option.hasMediaCharacteristic) }
    }

    /// The group itself: groups are immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// Groups are equal when they offer the same options for the same characteristic.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVMediaSelectionGroup else { return false }
        return other.characteristic == characteristic && other.options == options
    }

    /// A hash that agrees with `isEqual(_:)`.
    open override var hash: Int { characteristic.hashValue }
}
