// Which format-specific keys correspond to which common keys.

/// The correspondence between format keys and common keys that gives an item its `commonKey`.
enum AVMetadataCommonKeyMapping {
    /// The common key for a key in a key space, or nil when the key has no common meaning.
    static func commonKey(forKey key: String, keySpace: AVMetadataKeySpace) -> AVMetadataKey? {
        if keySpace == .common { return AVMetadataKey(rawValue: key) }
        return table[keySpace]?[key]
    }

    private static let table: [AVMetadataKeySpace: [String: AVMetadataKey]] = [
        .quickTimeUserData: [
            AVMetadataKey.quickTimeUserDataKeyFullName.rawValue: .commonKeyTitle,
            AVMetadataKey.quickTimeUserDataKeyArtist.rawValue: .commonKeyArtist,
            AVMetadataKey.quickTimeUserDataKeyAuthor.rawValue: .commonKeyAuthor,
            AVMetadataKey.quickTimeUserDataKeyAlbum.rawValue: .commonKeyAlbumName,
            AVMetadataKey.quickTimeUserDataKeyCreationDate.rawValue: .commonKeyCreationDate,
            AVMetadataKey.quickTimeUserDataKeyDescription.rawValue: .commonKeyDescription,
            AVMetadataKey.quickTimeUserDataKeyCopyright.rawValue: .commonKeyCopyrights,
            AVMetadataKey.quickTimeUserDataKeyLocationISO6709.rawValue: .commonKeyLocation,
            AVMetadataKey.quickTimeUserDataKeyMake.rawValue: .commonKeyMake,
            AVMetadataKey.quickTimeUserDataKeyModel.rawValue: .commonKeyModel,
            AVMetadataKey.quickTimeUserDataKeySoftware.rawValue: .commonKeySoftware,
            AVMetadataKey.quickTimeUserDataKeyPublisher.rawValue: .commonKeyPublisher,
            AVMetadataKey.quickTimeUserDataKeyAccessibilityDescription.rawValue: .commonKeyAccessibilityDescription,
        ],
        .quickTimeMetadata: [
            AVMetadataKey.quickTimeMetadataKeyTitle.rawValue: .commonKeyTitle,
            AVMetadataKey.quickTimeMetadataKeyArtist.rawValue: .commonKeyArtist,
            AVMetadataKey.quickTimeMetadataKeyAuthor.rawValue: .commonKeyAuthor,
            AVMetadataKey.quickTimeMetadataKeyAlbum.rawValue: .commonKeyAlbumName,
            AVMetadataKey.quickTimeMetadataKeyArtwork.rawValue: .commonKeyArtwork,
            AVMetadataKey.quickTimeMetadataKeyCreationDate.rawValue: .commonKeyCreationDate,
            AVMetadataKey.quickTimeMetadataKeyDescription.rawValue: .commonKeyDescription,
            AVMetadataKey.quickTimeMetadataKeyCopyright.rawValue: .commonKeyCopyrights,
            AVMetadataKey.quickTimeMetadataKeyLocationISO6709.rawValue: .commonKeyLocation,
            AVMetadataKey.quickTimeMetadataKeyMake.rawValue: .commonKeyMake,
            AVMetadataKey.quickTimeMetadataKeyModel.rawValue: .commonKeyModel,
            AVMetadataKey.quickTimeMetadataKeySoftware.rawValue: .commonKeySoftware,
            AVMetadataKey.quickTimeMetadataKeyPublisher.rawValue: .commonKeyPublisher,
            AVMetadataKey.quickTimeMetadataKeyAccessibilityDescription.rawValue: .commonKeyAccessibilityDescription,
        ],
        .iTunes: [
            AVMetadataKey.iTunesMetadataKeySongName.rawValue: .commonKeyTitle,
            AVMetadataKey.iTunesMetadataKeyArtist.rawValue: .commonKeyArtist,
            AVMetadataKey.iTunesMetadataKeyAuthor.rawValue: .commonKeyAuthor,
            AVMetadataKey.iTunesMetadataKeyAlbum.rawValue: .commonKeyAlbumName,
            AVMetadataKey.iTunesMetadataKeyCoverArt.rawValue: .commonKeyArtwork,
            AVMetadataKey.iTunesMetadataKeyReleaseDate.rawValue: .commonKeyCreationDate,
            AVMetadataKey.iTunesMetadataKeyDescription.rawValue: .commonKeyDescription,
            AVMetadataKey.iTunesMetadataKeyCopyright.rawValue: .commonKeyCopyrights,
            AVMetadataKey.iTunesMetadataKeyPublisher.rawValue: .commonKeyPublisher,
            AVMetadataKey.iTunesMetadataKeyEncodingTool.rawValue: .commonKeySoftware,
        ],
        .isoUserData: [
            AVMetadataKey.isoUserDataKeyCopyright.rawValue: .commonKeyCopyrights,
            AVMetadataKey.isoUserDataKeyDate.rawValue: .commonKeyCreationDate,
            AVMetadataKey.isoUserDataKeyAccessibilityDescription.rawValue: .commonKeyAccessibilityDescription,
            AVMetadataKey.metadata3GPUserDataKeyTitle.rawValue: .commonKeyTitle,
            AVMetadataKey.metadata3GPUserDataKeyAuthor.rawValue: .commonKeyAuthor,
            AVMetadataKey.metadata3GPUserDataKeyPerformer.rawValue: .commonKeyArtist,
            AVMetadataKey.metadata3GPUserDataKeyDescription.rawValue: .commonKeyDescription,
            AVMetadataKey.metadata3GPUserDataKeyLocation.rawValue: .commonKeyLocation,
        ],
        .id3: [
            AVMetadataKey.id3MetadataKeyTitleDescription.rawValue: .commonKeyTitle,
            AVMetadataKey.id3MetadataKeyLeadPerformer.rawValue: .commonKeyArtist,
            AVMetadataKey.id3MetadataKeyAlbumTitle.rawValue: .commonKeyAlbumName,
            AVMetadataKey.id3MetadataKeyAttachedPicture.rawValue: .commonKeyArtwork,
            AVMetadataKey.id3MetadataKeyCopyright.rawValue: .commonKeyCopyrights,
            AVMetadataKey.id3MetadataKeyPublisher.rawValue: .commonKeyPublisher,
            AVMetadataKey.id3MetadataKeyRecordingTime.rawValue: .commonKeyCreationDate,
            AVMetadataKey.id3MetadataKeyYear.rawValue: .commonKeyCreationDate,
            AVMetadataKey.id3MetadataKeyLanguage.rawValue: .commonKeyLanguage,
            AVMetadataKey.id3MetadataKeyEncodedWith.rawValue: .commonKeySoftware,
        ],
    ]
}
