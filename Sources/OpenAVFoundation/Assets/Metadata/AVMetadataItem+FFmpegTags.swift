// Turning FFmpeg's container tags into the metadata items Apple's AVAsset shows for the same file.
import Foundation
import MediaEngine

extension AVMetadataItem {
    /// Turns the tags FFmpeg reports for a file (`AVFormatContext.metadata`) or a track
    /// (`AVStream.metadata`) into AVFoundation metadata items.
    ///
    /// - Parameters:
    ///   - tags: FFmpeg's tags in their dictionary order, for example `("title", "Hello")`.
    ///   - formatName: FFmpeg's demuxer name, for example "mov,mp4,m4a,3gp,3g2,mj2" or "mp3".
    /// - Returns: `metadata`, the format-specific items (`AVAsset.metadata`), and `commonMetadata`,
    ///   one common-key-space item per common key and language (`AVAsset.commonMetadata`).
    ///
    /// Key spaces: for the ISO base media demuxer, a file whose major brand is "qt  " gets QuickTime
    /// user data items (`udta/%A9nam` …) and any other brand iTunes items (`itsk/%A9nam` …); keys FFmpeg
    /// passes through verbatim from QuickTime metadata ("com.apple.quicktime.make") become `mdta` items;
    /// "location" is always the QuickTime user data `©xyz` item, where FFmpeg writes and reads it.
    /// "mp3" files get ID3 items. Other containers, which Apple does not read, get common-key-space
    /// items in both lists.
    ///
    /// Dropped as container bookkeeping, not user metadata: `major_brand`, `minor_version`,
    /// `compatible_brands` (the 'ftyp' box), `handler_name`, `vendor_id`, `language` (track headers),
    /// `timecode`, and any key with no Apple counterpart. Kept: `encoder` (FFmpeg writes it as a
    /// real `©swr`/`©too` atom that Apple shows as the software item). `creation_time` comes from the
    /// movie header, which Apple does not list as an item; here it becomes the common creation date
    /// when no date tag gives one (an extension, so `AVAsset.creationDate` has a value).
    /// A "-eng" style suffix is read as the item's language; FFmpeg's unsuffixed duplicate is merged.
    ///
    /// `pictures` are the file's attached pictures (cover art, which FFmpeg reads as a stream of
    /// one still image): each becomes the artwork item of the file's key space (iTunes `covr`,
    /// ID3 `APIC`), its value the image as stored, and the common `.commonKeyArtwork` item.
    package static func metadata(
        fromFFmpegTags tags: [(key: String, value: String)], formatName: String, pictures: [Data] = []
    ) -> (metadata: [AVMetadataItem], commonMetadata: [AVMetadataItem]) {
        let family = FFmpegTagFamily(formatName: formatName, tags: tags)
        var creationTime: String?
        var metadata: [AVMetadataItem] = []

        for tag in FFmpegTagFamily.mergedLanguageVariants(tags) {
            if tag.key == "creation_time" {
                creationTime = creationTime ?? tag.value
                continue
            }
            guard let (keySpace, key) = family.itemKey(forFFmpegKey: tag.key) else { continue }
            metadata.append(AVMetadataItem(
                keySpace: keySpace, key: key, value: tag.value as NSString,
                extendedLanguageTag: tag.language))
        }
        for picture in pictures {
            let (keySpace, key) = family.artworkKey
            metadata.append(AVMetadataItem(keySpace: keySpace, key: key.rawValue, value: picture as NSData,
                                           dataType: artworkDataType(of: picture)))
        }

        if family == .other {
            // No format key space: the common items are the only items.
            return (metadata, metadata)
        }
        var common = commonItems(from: metadata)
        if let creationTime, !common.contains(where: { $0.commonKey == .commonKeyCreationDate }) {
            common.append(AVMetadataItem(
                keySpace: .common, key: AVMetadataKey.commonKeyCreationDate.rawValue, value: creationTime as NSString))
        }
        return (metadata, common)
    }

    /// The base data type of a picture's bytes: PNG, JPEG, or raw data for anything else.
    package static func artworkDataType(of picture: Data) -> String {
        switch PictureFormat(of: picture) {
        case .png: return kCMMetadataBaseDataType_PNG as String
        case .jpeg: return kCMMetadataBaseDataType_JPEG as String
        case nil: return kCMMetadataBaseDataType_RawData as String
        }
    }

    /// The common-key-space items for format items: for each common key and language, the first item
    /// found in the order QuickTime metadata, QuickTime user data, iTunes, ISO user data, ID3, others.
    package static func commonItems(from items: [AVMetadataItem]) -> [AVMetadataItem] {
        let order: [AVMetadataKeySpace] = [.quickTimeMetadata, .quickTimeUserData, .iTunes, .isoUserData, .id3]
        func rank(_ item: AVMetadataItem) -> Int {
            item.keySpace.flatMap { order.firstIndex(of: $0) } ?? order.count
        }
        let ranked = items.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }
        var seen = Set<String>()
        var result: [AVMetadataItem] = []
        for (_, item) in ranked {
            guard let commonKey = item.commonKey else { continue }
            let language = item.extendedLanguageTag ?? ""
            guard seen.insert(commonKey.rawValue + "\u{0}" + language).inserted else { continue }
            var state = item.snapshot
            state.keySpace = .common
            state.key = commonKey.rawValue as NSString
            result.append(AVMetadataItem(state: state))
        }
        return result
    }
}

/// How one container's FFmpeg tag names map to Apple key spaces and keys.
enum FFmpegTagFamily: Equatable {
    /// QuickTime movies: user data atoms.
    case quickTime
    /// MPEG-4, M4A, M4V, 3GP: iTunes 'ilst' items.
    case mpeg4
    /// MP3: ID3v2 frames.
    case id3
    /// Containers Apple does not read: common key space only.
    case other

    init(formatName: String, tags: [(key: String, value: String)]) {
        let names = formatName.split(separator: ",").map(String.init)
        if names.contains("mov") || names.contains("mp4") {
            let brand = tags.first { $0.key == "major_brand" }?.value
            self = brand == "qt  " ? .quickTime : .mpeg4
        } else if names.contains("mp3") {
            self = .id3
        } else {
            self = .other
        }
    }

    /// Where cover art goes in this family's key space: iTunes `covr` (QuickTime and MPEG-4
    /// files alike: FFmpeg reads it from the `ilst` atom), ID3 `APIC`, or the common key.
    var artworkKey: (AVMetadataKeySpace, AVMetadataKey) {
        switch self {
        case .quickTime, .mpeg4: return (.iTunes, .iTunesMetadataKeyCoverArt)
        case .id3: return (.id3, .id3MetadataKeyAttachedPicture)
        case .other: return (.common, .commonKeyArtwork)
        }
    }

    /// Tags that describe the container, not the content; never items.
    static let bookkeeping: Set<String> = [
        "major_brand", "minor_version", "compatible_brands", "handler_name", "vendor_id", "language", "timecode",
    ]

    /// The key space and key for an FFmpeg tag name, or nil when the tag is dropped.
    func itemKey(forFFmpegKey ffmpegKey: String) -> (AVMetadataKeySpace, String)? {
        if FFmpegTagFamily.bookkeeping.contains(ffmpegKey) { return nil }
        switch self {
        case .quickTime, .mpeg4:
            if ffmpegKey.hasPrefix("com.apple.quicktime.") || ffmpegKey == AVMetadataKey.quickTimeMetadataKeyiXML.rawValue {
                return (.quickTimeMetadata, ffmpegKey)
            }
            if let key = FFmpegTagFamily.quickTimeUserDataEverywhere[ffmpegKey] {
                return (.quickTimeUserData, key.rawValue)
            }
            let table = self == .quickTime ? FFmpegTagFamily.quickTimeUserData : FFmpegTagFamily.iTunes
            return table[ffmpegKey].map { (self == .quickTime ? .quickTimeUserData : .iTunes, $0.rawValue) }
        case .id3:
            return FFmpegTagFamily.id3Frames[ffmpegKey].map { (.id3, $0.rawValue) }
        case .other:
            return FFmpegTagFamily.common[ffmpegKey].map { (.common, $0.rawValue) }
        }
    }

    /// Splits "key-lng" tags into key and language, and drops FFmpeg's unsuffixed copy of the same value.
    static func mergedLanguageVariants(
        _ tags: [(key: String, value: String)]
    ) -> [(key: String, value: String, language: String?)] {
        let split: [(key: String, value: String, language: String?)] = tags.map { tag in
            if let dash = tag.key.lastIndex(of: "-") {
                let suffix = tag.key[tag.key.index(after: dash)...]
                if suffix.count == 3, suffix.allSatisfy({ $0.isASCII && $0.isLowercase }) {
                    return (String(tag.key[..<dash]), tag.value, languageTag(forISO639_2: String(suffix)))
                }
            }
            return (tag.key, tag.value, nil)
        }
        var result: [(key: String, value: String, language: String?)] = []
        for tag in split {
            if tag.language == nil,
               split.contains(where: { $0.language != nil && $0.key == tag.key && $0.value == tag.value }) {
                continue
            }
            if let index = result.firstIndex(where: { $0.key == tag.key && $0.value == tag.value && $0.language == nil }),
               tag.language != nil {
                result[index].language = tag.language
                continue
            }
            result.append(tag)
        }
        return result
    }

    /// The BCP 47 tag for an ISO 639-2 code (the two-letter code where one exists); nil for "und".
    static func languageTag(forISO639_2 code: String) -> String? {
        if code == "und" || code == "zxx" || code == "mis" || code == "mul" { return nil }
        let twoLetter: [String: String] = [
            "ara": "ar", "chi": "zh", "zho": "zh", "cze": "cs", "ces": "cs", "dan": "da", "dut": "nl", "nld": "nl",
            "eng": "en", "fin": "fi", "fre": "fr", "fra": "fr", "ger": "de", "deu": "de", "gre": "el", "ell": "el",
            "heb": "he", "hin": "hi", "hun": "hu", "ita": "it", "jpn": "ja", "kor": "ko", "nor": "no", "pol": "pl",
            "por": "pt", "rus": "ru", "spa": "es", "swe": "sv", "tur": "tr", "ukr": "uk",
        ]
        return twoLetter[code] ?? code
    }

    /// Tags FFmpeg reads from and writes to QuickTime user data in MOV and MP4 alike.
    static let quickTimeUserDataEverywhere: [String: AVMetadataKey] = [
        "location": .quickTimeUserDataKeyLocationISO6709,
    ]

    /// FFmpeg's names for QuickTime user data atoms (libavformat's mov.c and movenc.c).
    static let quickTimeUserData: [String: AVMetadataKey] = [
        "title": .quickTimeUserDataKeyFullName,
        "artist": .quickTimeUserDataKeyArtist,
        "author": .quickTimeUserDataKeyAuthor,
        "album": .quickTimeUserDataKeyAlbum,
        "comment": .quickTimeUserDataKeyComment,
        "date": .quickTimeUserDataKeyCreationDate,
        "description": .quickTimeUserDataKeyDescription,
        "copyright": .quickTimeUserDataKeyCopyright,
        "genre": .quickTimeUserDataKeyGenre,
        "composer": .quickTimeUserDataKeyComposer,
        "encoder": .quickTimeUserDataKeySoftware,
        "make": .quickTimeUserDataKeyMake,
        "model": .quickTimeUserDataKeyModel,
        "keywords": .quickTimeUserDataKeyKeywords,
        "director": .quickTimeUserDataKeyDirector,
        "producer": .quickTimeUserDataKeyProducer,
        "performers": .quickTimeUserDataKeyPerformers,
        "original_artist": .quickTimeUserDataKeyOriginalArtist,
        "original_format": .quickTimeUserDataKeyOriginalFormat,
        "original_source": .quickTimeUserDataKeyOriginalSource,
        "host_computer": .quickTimeUserDataKeyHostComputer,
        "disclaimer": .quickTimeUserDataKeyDisclaimer,
        "warning": .quickTimeUserDataKeyWarning,
        "playback_requirements": .quickTimeUserDataKeySpecialPlaybackRequirements,
        "chapter": .quickTimeUserDataKeyChapter,
        "URL": .quickTimeUserDataKeyURLLink,
        "track": .quickTimeUserDataKeyTrack,
        "publisher": .quickTimeUserDataKeyPublisher,
    ]

    /// FFmpeg's names for iTunes 'ilst' items (libavformat's mov.c and movenc.c).
    static let iTunes: [String: AVMetadataKey] = [
        "title": .iTunesMetadataKeySongName,
        "artist": .iTunesMetadataKeyArtist,
        "album_artist": .iTunesMetadataKeyAlbumArtist,
        "album": .iTunesMetadataKeyAlbum,
        "comment": .iTunesMetadataKeyUserComment,
        "date": .iTunesMetadataKeyReleaseDate,
        "encoder": .iTunesMetadataKeyEncodingTool,
        "composer": .iTunesMetadataKeyComposer,
        "genre": .iTunesMetadataKeyUserGenre,
        "copyright": .iTunesMetadataKeyCopyright,
        "description": .iTunesMetadataKeyDescription,
        "grouping": .iTunesMetadataKeyGrouping,
        "lyrics": .iTunesMetadataKeyLyrics,
        "track": .iTunesMetadataKeyTrackNumber,
        "disc": .iTunesMetadataKeyDiscNumber,
        "compilation": .iTunesMetadataKeyDiscCompilation,
        "author": .iTunesMetadataKeyAuthor,
        "producer": .iTunesMetadataKeyProducer,
        "publisher": .iTunesMetadataKeyPublisher,
        "rating": .iTunesMetadataKeyContentRating,
        "make": .quickTimeUserDataKeyMake,
        "model": .quickTimeUserDataKeyModel,
    ]

    /// FFmpeg's names for ID3v2 frames (libavformat's id3v2.c).
    static let id3Frames: [String: AVMetadataKey] = [
        "title": .id3MetadataKeyTitleDescription,
        "artist": .id3MetadataKeyLeadPerformer,
        "album_artist": .id3MetadataKeyBand,
        "album": .id3MetadataKeyAlbumTitle,
        "comment": .id3MetadataKeyComments,
        "date": .id3MetadataKeyRecordingTime,
        "encoder": .id3MetadataKeyEncodedWith,
        "encoded_by": .id3MetadataKeyEncodedBy,
        "composer": .id3MetadataKeyComposer,
        "performer": .id3MetadataKeyConductor,
        "genre": .id3MetadataKeyContentType,
        "copyright": .id3MetadataKeyCopyright,
        "publisher": .id3MetadataKeyPublisher,
        "track": .id3MetadataKeyTrackNumber,
        "disc": .id3MetadataKeyPartOfASet,
        "lyrics": .id3MetadataKeyUnsynchronizedLyric,
        "language": .id3MetadataKeyLanguage,
        "title-sort": .id3MetadataKeyTitleSortOrder,
        "album-sort": .id3MetadataKeyAlbumSortOrder,
        "artist-sort": .id3MetadataKeyPerformerSortOrder,
    ]

    /// FFmpeg's generic tag names that have a common key, for containers with no Apple key space.
    static let common: [String: AVMetadataKey] = [
        "title": .commonKeyTitle,
        "artist": .commonKeyArtist,
        "author": .commonKeyAuthor,
        "album": .commonKeyAlbumName,
        "date": .commonKeyCreationDate,
        "creation_time": .commonKeyCreationDate,
        "description": .commonKeyDescription,
        "copyright": .commonKeyCopyrights,
        "publisher": .commonKeyPublisher,
        "encoder": .commonKeySoftware,
        "make": .commonKeyMake,
        "model": .commonKeyModel,
        "location": .commonKeyLocation,
    ]
}
