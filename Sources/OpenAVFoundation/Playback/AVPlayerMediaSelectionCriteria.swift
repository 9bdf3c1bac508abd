import Foundation

/// The languages and media characteristics a player prefers when it chooses an item's audio
/// and subtitles on its own (`AVPlayer.setMediaSelectionCriteria(_:forMediaCharacteristic:)`).
open class AVPlayerMediaSelectionCriteria: NSObject, @unchecked Sendable {
    /// Characteristics an option must have to be chosen at all (else the group's default is).
    public let principalMediaCharacteristics: [AVMediaCharacteristic]?
    /// Languages (BCP 47), most preferred first.
    public let preferredLanguages: [String]?
    /// Characteristics, most preferred first, that decide between options of one language.
    public let preferredMediaCharacteristics: [AVMediaCharacteristic]?

    /// Criteria with preferred languages and characteristics.
    public convenience init(preferredLanguages: [String]?, preferredMediaCharacteristics: [AVMediaCharacteristic]?) {
        self.init(principalMediaCharacteristics: nil, preferredLanguages: preferredLanguages,
                  preferredMediaCharacteristics: preferredMediaCharacteristics)
    }

    /// Criteria with principal characteristics, preferred languages and preferred characteristics.
    public init(principalMediaCharacteristics: [AVMediaCharacteristic]?, preferredLanguages: [String]?,
                preferredMediaCharacteristics: [AVMediaCharacteristic]?) {
        self.principalMediaCharacteristics = principalMediaCharacteristics
        self.preferredLanguages = preferredLanguages
        self.preferredMediaCharacteristics = preferredMediaCharacteristics
        super.init()
    }

    /// The option of `group` these criteria choose: among the options with every principal
    /// characteristic (the group's default when none has them), those in the first preferred
    /// language that has any (all of them without languages), the first with the most
    /// preferred characteristic, else the first; the group's default when nothing matches.
    func choice(in group: AVMediaSelectionGroup) -> AVMediaSelectionOption? {
        var candidates = group.options
        if let principal = principalMediaCharacteristics, !principal.isEmpty {
            candidates = AVMediaSelectionGroup.mediaSelectionOptions(from: candidates, withMediaCharacteristics: principal)
            if candidates.isEmpty { return group.defaultOption }
        }
        if let languages = preferredLanguages, !languages.isEmpty {
            let inLanguage = languages.lazy.map { AVMediaSelectionGroup.mediaSelectionOptions(from: candidates, with: Locale(identifier: $0)) }
                .first { !$0.isEmpty }
            guard let inLanguage else { return group.defaultOption }
            candidates = inLanguage
        }
        for characteristic in preferredMediaCharacteristics ?? [] {
            if let match = candidates.first(where: { $0.hasMediaCharacteristic(characteristic) }) { return match }
        }
        return candidates.first ?? group.defaultOption
    }
}
