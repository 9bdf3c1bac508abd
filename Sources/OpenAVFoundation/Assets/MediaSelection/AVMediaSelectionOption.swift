import Foundation
import OpenCoreMedia

/// One way of presenting the media of a selection group: an audio track in one language, a
/// subtitle track, … (a track of the asset).
open class AVMediaSelectionOption: NSObject, NSCopying, @unchecked Sendable {
    /// The track the option presents.
    let track: AVAssetTrack

    init(track: AVAssetTrack) {
        self.track = track
        super.init()
    }

    /// The option's media type (`.audio`, `.subtitle`, `.text`, …).
    open var mediaType: AVMediaType { track.mediaType }

    /// The codecs of the option's media, as four-character codes; empty when unknown.
    open var mediaSubTypes: [NSNumber] {
        track.contents.formatDescription.map { [NSNumber(value: CMFormatDescriptionGetMediaSubType($0))] } ?? []
    }

    /// Whether the option's media has a characteristic (audible, legible, forced subtitles
    /// only, for accessibility, …), as its track's `mediaCharacteristics` say.
    open func hasMediaCharacteristic(_ mediaCharacteristic: AVMediaCharacteristic) -> Bool {
        track.hasMediaCharacteristic(mediaCharacteristic)
    }

    /// Whether the option can be played here: its codec can be decoded.
    open var isPlayable: Bool { track.contents.isDecodable }

    /// The option's language as a BCP 47 tag ("en", "pt-BR"), or nil when the file states none.
    open var extendedLanguageTag: String? {
        track.extendedLanguageTag ?? track.languageCode.flatMap(FFmpegTagFamily.languageTag(forISO639_2:))
    }

    /// The option's language as a locale, or nil when the file states none.
    open var locale: Locale? { extendedLanguageTag.map { Locale(identifier: $0) } }

    /// The option's metadata in the common key space (its title, …).
    open var commonMetadata: [AVMetadataItem] { track.commonMetadata }

    /// The formats the option has metadata in, as their raw strings.
    open var availableMetadataFormats: [String] { AVAsset.formats(of: track.metadata).map(\.rawValue) }

    /// The option's metadata items in one format (an `AVMetadataFormat` raw string).
    open func metadata(forFormat format: String) -> [AVMetadataItem] {
        track.metadata.filter { $0.keySpace.flatMap(AVMetadataFormat.init(keySpace:))?.rawValue == format }
    }

    /// An option of another group that goes with this one (forced subtitles for an audio
    /// language): none here, files do not say.
    open func associatedMediaSelectionOption(in mediaSelectionGroup: AVMediaSelectionGroup) -> AVMediaSelectionOption? { nil }

    /// A property list that names the option, for `AVMediaSelectionGroup.mediaSelectionOption(withPropertyList:)`.
    open func propertyList() -> Any { NSDictionary(dictionary: ["trackID": NSNumber(value: track.trackID)]) }

    /// A name to show for the option in the current locale: an HTTP Live Stream rendition's
    /// `NAME`, the track's title when the file gives one, else its language ("English"), with
    /// "Forced" or "SDH" for such subtitles.
    open var displayName: String { displayName(with: .current) }

    /// A name to show for the option, in `locale`'s language.
    open func displayName(with locale: Locale) -> String {
        if let name = track.contents.renditionName, !name.isEmpty { return name }
        if let title = commonMetadata.first(where: { $0.commonKey == .commonKeyTitle })?.stringValue, !title.isEmpty { return title }
        let language = self.locale.flatMap { own in locale.localizedString(forLanguageCode: own.identifier) } ?? "Unknown language"
        if hasMediaCharacteristic(.containsOnlyForcedSubtitles) { return language + " Forced" }
        if mediaType != .audio, hasMediaCharacteristic(.describesMusicAndSoundForAccessibility) { return language + " SDH" }
        return language
    }

    /// The option itself: options are immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// Options are equal when they present the same track of the same asset.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVMediaSelectionOption else { return false }
        return other.track.trackID == track.trackID && other.track.asset === track.asset
    }

    /// A hash that agrees with `isEqual(_:)`.
    open override var hash: Int { Int(track.trackID) }
}
