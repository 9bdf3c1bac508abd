// The metadata keys of every key space AVFoundation names, with Apple's raw values.

/// A key that identifies a metadata item within its key space, such as the common title key or the iTunes song name.
/// Matches Apple: an extensible string wrapper; four-character keys that start with "©" use U+00A9, as Apple's do.
public struct AVMetadataKey: RawRepresentable, Hashable, Sendable {
    /// The key's string, for example "title" or "©nam".
    public let rawValue: String

    /// Creates a metadata key from its raw value.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a metadata key from its raw value.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The common key for the title.
    public static let commonKeyTitle = AVMetadataKey(rawValue: "title")
    /// The common key for the creator.
    public static let commonKeyCreator = AVMetadataKey(rawValue: "creator")
    /// The common key for the subject.
    public static let commonKeySubject = AVMetadataKey(rawValue: "subject")
    /// The common key for the description.
    public static let commonKeyDescription = AVMetadataKey(rawValue: "description")
    /// The common key for the publisher.
    public static let commonKeyPublisher = AVMetadataKey(rawValue: "publisher")
    /// The common key for the contributor.
    public static let commonKeyContributor = AVMetadataKey(rawValue: "contributor")
    /// The common key for the creation date.
    public static let commonKeyCreationDate = AVMetadataKey(rawValue: "creationDate")
    /// The common key for the last modified date.
    public static let commonKeyLastModifiedDate = AVMetadataKey(rawValue: "lastModifiedDate")
    /// The common key for the type.
    public static let commonKeyType = AVMetadataKey(rawValue: "type")
    /// The common key for the format.
    public static let commonKeyFormat = AVMetadataKey(rawValue: "format")
    /// The common key for the identifier.
    public static let commonKeyIdentifier = AVMetadataKey(rawValue: "identifier")
    /// The common key for the source.
    public static let commonKeySource = AVMetadataKey(rawValue: "source")
    /// The common key for the language.
    public static let commonKeyLanguage = AVMetadataKey(rawValue: "language")
    /// The common key for the relation.
    public static let commonKeyRelation = AVMetadataKey(rawValue: "relation")
    /// The common key for the location.
    public static let commonKeyLocation = AVMetadataKey(rawValue: "location")
    /// The common key for the copyrights.
    public static let commonKeyCopyrights = AVMetadataKey(rawValue: "copyrights")
    /// The common key for the album name.
    public static let commonKeyAlbumName = AVMetadataKey(rawValue: "albumName")
    /// The common key for the author.
    public static let commonKeyAuthor = AVMetadataKey(rawValue: "author")
    /// The common key for the artist.
    public static let commonKeyArtist = AVMetadataKey(rawValue: "artist")
    /// The common key for the artwork.
    public static let commonKeyArtwork = AVMetadataKey(rawValue: "artwork")
    /// The common key for the make.
    public static let commonKeyMake = AVMetadataKey(rawValue: "make")
    /// The common key for the model.
    public static let commonKeyModel = AVMetadataKey(rawValue: "model")
    /// The common key for the software.
    public static let commonKeySoftware = AVMetadataKey(rawValue: "software")
    /// The common key for the accessibility description.
    public static let commonKeyAccessibilityDescription = AVMetadataKey(rawValue: "accessibilityDescription")
    /// The 3GPP user data key for the album and track.
    public static let metadata3GPUserDataKeyAlbumAndTrack = AVMetadataKey(rawValue: "albm")
    /// The 3GPP user data key for the author.
    public static let metadata3GPUserDataKeyAuthor = AVMetadataKey(rawValue: "auth")
    /// The 3GPP user data key for the collection.
    public static let metadata3GPUserDataKeyCollection = AVMetadataKey(rawValue: "coll")
    /// The 3GPP user data key for the copyright.
    public static let metadata3GPUserDataKeyCopyright = AVMetadataKey(rawValue: "cprt")
    /// The 3GPP user data key for the description.
    public static let metadata3GPUserDataKeyDescription = AVMetadataKey(rawValue: "dscp")
    /// The 3GPP user data key for the genre.
    public static let metadata3GPUserDataKeyGenre = AVMetadataKey(rawValue: "gnre")
    /// The 3GPP user data key for the keyword list.
    public static let metadata3GPUserDataKeyKeywordList = AVMetadataKey(rawValue: "kywd")
    /// The 3GPP user data key for the location.
    public static let metadata3GPUserDataKeyLocation = AVMetadataKey(rawValue: "loci")
    /// The 3GPP user data key for the media classification.
    public static let metadata3GPUserDataKeyMediaClassification = AVMetadataKey(rawValue: "clsf")
    /// The 3GPP user data key for the media rating.
    public static let metadata3GPUserDataKeyMediaRating = AVMetadataKey(rawValue: "rtng")
    /// The 3GPP user data key for the performer.
    public static let metadata3GPUserDataKeyPerformer = AVMetadataKey(rawValue: "perf")
    /// The 3GPP user data key for the recording year.
    public static let metadata3GPUserDataKeyRecordingYear = AVMetadataKey(rawValue: "yrrc")
    /// The 3GPP user data key for the thumbnail.
    public static let metadata3GPUserDataKeyThumbnail = AVMetadataKey(rawValue: "thmb")
    /// The 3GPP user data key for the title.
    public static let metadata3GPUserDataKeyTitle = AVMetadataKey(rawValue: "titl")
    /// The 3GPP user data key for the user rating.
    public static let metadata3GPUserDataKeyUserRating = AVMetadataKey(rawValue: "urat")
    /// The ISO user data key for the accessibility description.
    public static let isoUserDataKeyAccessibilityDescription = AVMetadataKey(rawValue: "ades")
    /// The ISO user data key for the copyright.
    public static let isoUserDataKeyCopyright = AVMetadataKey(rawValue: "cprt")
    /// The ISO user data key for the date.
    public static let isoUserDataKeyDate = AVMetadataKey(rawValue: "date")
    /// The ISO user data key for the tagged characteristic.
    public static let isoUserDataKeyTaggedCharacteristic = AVMetadataKey(rawValue: "tagc")
    /// The Icy streaming metadata key for the stream title.
    public static let icyMetadataKeyStreamTitle = AVMetadataKey(rawValue: "StreamTitle")
    /// The Icy streaming metadata key for the stream url.
    public static let icyMetadataKeyStreamURL = AVMetadataKey(rawValue: "StreamUrl")
    /// The QuickTime user data key for the accessibility description.
    public static let quickTimeUserDataKeyAccessibilityDescription = AVMetadataKey(rawValue: "©ade")
    /// The QuickTime user data key for the album.
    public static let quickTimeUserDataKeyAlbum = AVMetadataKey(rawValue: "©alb")
    /// The QuickTime user data key for the arranger.
    public static let quickTimeUserDataKeyArranger = AVMetadataKey(rawValue: "©arg")
    /// The QuickTime user data key for the artist.
    public static let quickTimeUserDataKeyArtist = AVMetadataKey(rawValue: "©ART")
    /// The QuickTime user data key for the author.
    public static let quickTimeUserDataKeyAuthor = AVMetadataKey(rawValue: "©aut")
    /// The QuickTime user data key for the chapter.
    public static let quickTimeUserDataKeyChapter = AVMetadataKey(rawValue: "©chp")
    /// The QuickTime user data key for the comment.
    public static let quickTimeUserDataKeyComment = AVMetadataKey(rawValue: "©cmt")
    /// The QuickTime user data key for the composer.
    public static let quickTimeUserDataKeyComposer = AVMetadataKey(rawValue: "©com")
    /// The QuickTime user data key for the copyright.
    public static let quickTimeUserDataKeyCopyright = AVMetadataKey(rawValue: "©cpy")
    /// The QuickTime user data key for the creation date.
    public static let quickTimeUserDataKeyCreationDate = AVMetadataKey(rawValue: "©day")
    /// The QuickTime user data key for the credits.
    public static let quickTimeUserDataKeyCredits = AVMetadataKey(rawValue: "©src")
    /// The QuickTime user data key for the description.
    public static let quickTimeUserDataKeyDescription = AVMetadataKey(rawValue: "©des")
    /// The QuickTime user data key for the director.
    public static let quickTimeUserDataKeyDirector = AVMetadataKey(rawValue: "©dir")
    /// The QuickTime user data key for the disclaimer.
    public static let quickTimeUserDataKeyDisclaimer = AVMetadataKey(rawValue: "©dis")
    /// The QuickTime user data key for the encoded by.
    public static let quickTimeUserDataKeyEncodedBy = AVMetadataKey(rawValue: "©enc")
    /// The QuickTime user data key for the full name.
    public static let quickTimeUserDataKeyFullName = AVMetadataKey(rawValue: "©nam")
    /// The QuickTime user data key for the genre.
    public static let quickTimeUserDataKeyGenre = AVMetadataKey(rawValue: "©gen")
    /// The QuickTime user data key for the host computer.
    public static let quickTimeUserDataKeyHostComputer = AVMetadataKey(rawValue: "©hst")
    /// The QuickTime user data key for the information.
    public static let quickTimeUserDataKeyInformation = AVMetadataKey(rawValue: "©inf")
    /// The QuickTime user data key for the keywords.
    public static let quickTimeUserDataKeyKeywords = AVMetadataKey(rawValue: "©key")
    /// The QuickTime user data key for the location iso6709.
    public static let quickTimeUserDataKeyLocationISO6709 = AVMetadataKey(rawValue: "©xyz")
    /// The QuickTime user data key for the make.
    public static let quickTimeUserDataKeyMake = AVMetadataKey(rawValue: "©mak")
    /// The QuickTime user data key for the model.
    public static let quickTimeUserDataKeyModel = AVMetadataKey(rawValue: "©mod")
    /// The QuickTime user data key for the original artist.
    public static let quickTimeUserDataKeyOriginalArtist = AVMetadataKey(rawValue: "©ope")
    /// The QuickTime user data key for the original format.
    public static let quickTimeUserDataKeyOriginalFormat = AVMetadataKey(rawValue: "©fmt")
    /// The QuickTime user data key for the original source.
    public static let quickTimeUserDataKeyOriginalSource = AVMetadataKey(rawValue: "©src")
    /// The QuickTime user data key for the performers.
    public static let quickTimeUserDataKeyPerformers = AVMetadataKey(rawValue: "©prf")
    /// The QuickTime user data key for the phonogram rights.
    public static let quickTimeUserDataKeyPhonogramRights = AVMetadataKey(rawValue: "©phg")
    /// The QuickTime user data key for the producer.
    public static let quickTimeUserDataKeyProducer = AVMetadataKey(rawValue: "©prd")
    /// The QuickTime user data key for the product.
    public static let quickTimeUserDataKeyProduct = AVMetadataKey(rawValue: "©PRD")
    /// The QuickTime user data key for the publisher.
    public static let quickTimeUserDataKeyPublisher = AVMetadataKey(rawValue: "©pub")
    /// The QuickTime user data key for the software.
    public static let quickTimeUserDataKeySoftware = AVMetadataKey(rawValue: "©swr")
    /// The QuickTime user data key for the special playback requirements.
    public static let quickTimeUserDataKeySpecialPlaybackRequirements = AVMetadataKey(rawValue: "©req")
    /// The QuickTime user data key for the tagged characteristic.
    public static let quickTimeUserDataKeyTaggedCharacteristic = AVMetadataKey(rawValue: "tagc")
    /// The QuickTime user data key for the track.
    public static let quickTimeUserDataKeyTrack = AVMetadataKey(rawValue: "©trk")
    /// The QuickTime user data key for the track name.
    public static let quickTimeUserDataKeyTrackName = AVMetadataKey(rawValue: "tnam")
    /// The QuickTime user data key for the url link.
    public static let quickTimeUserDataKeyURLLink = AVMetadataKey(rawValue: "©url")
    /// The QuickTime user data key for the warning.
    public static let quickTimeUserDataKeyWarning = AVMetadataKey(rawValue: "©wrn")
    /// The QuickTime user data key for the writer.
    public static let quickTimeUserDataKeyWriter = AVMetadataKey(rawValue: "©wrt")
    /// The iTunes metadata key for the account kind.
    public static let iTunesMetadataKeyAccountKind = AVMetadataKey(rawValue: "akID")
    /// The iTunes metadata key for the acknowledgement.
    public static let iTunesMetadataKeyAcknowledgement = AVMetadataKey(rawValue: "©cak")
    /// The iTunes metadata key for the album.
    public static let iTunesMetadataKeyAlbum = AVMetadataKey(rawValue: "©alb")
    /// The iTunes metadata key for the album artist.
    public static let iTunesMetadataKeyAlbumArtist = AVMetadataKey(rawValue: "aART")
    /// The iTunes metadata key for the apple id.
    public static let iTunesMetadataKeyAppleID = AVMetadataKey(rawValue: "apID")
    /// The iTunes metadata key for the arranger.
    public static let iTunesMetadataKeyArranger = AVMetadataKey(rawValue: "©arg")
    /// The iTunes metadata key for the art director.
    public static let iTunesMetadataKeyArtDirector = AVMetadataKey(rawValue: "©ard")
    /// The iTunes metadata key for the artist.
    public static let iTunesMetadataKeyArtist = AVMetadataKey(rawValue: "©ART")
    /// The iTunes metadata key for the artist id.
    public static let iTunesMetadataKeyArtistID = AVMetadataKey(rawValue: "atID")
    /// The iTunes metadata key for the author.
    public static let iTunesMetadataKeyAuthor = AVMetadataKey(rawValue: "©aut")
    /// The iTunes metadata key for the beats per min.
    public static let iTunesMetadataKeyBeatsPerMin = AVMetadataKey(rawValue: "tmpo")
    /// The iTunes metadata key for the composer.
    public static let iTunesMetadataKeyComposer = AVMetadataKey(rawValue: "©wrt")
    /// The iTunes metadata key for the conductor.
    public static let iTunesMetadataKeyConductor = AVMetadataKey(rawValue: "©con")
    /// The iTunes metadata key for the content rating.
    public static let iTunesMetadataKeyContentRating = AVMetadataKey(rawValue: "rtng")
    /// The iTunes metadata key for the copyright.
    public static let iTunesMetadataKeyCopyright = AVMetadataKey(rawValue: "cprt")
    /// The iTunes metadata key for the cover art.
    public static let iTunesMetadataKeyCoverArt = AVMetadataKey(rawValue: "covr")
    /// The iTunes metadata key for the credits.
    public static let iTunesMetadataKeyCredits = AVMetadataKey(rawValue: "©src")
    /// The iTunes metadata key for the description.
    public static let iTunesMetadataKeyDescription = AVMetadataKey(rawValue: "©des")
    /// The iTunes metadata key for the director.
    public static let iTunesMetadataKeyDirector = AVMetadataKey(rawValue: "©dir")
    /// The iTunes metadata key for the disc compilation.
    public static let iTunesMetadataKeyDiscCompilation = AVMetadataKey(rawValue: "cpil")
    /// The iTunes metadata key for the disc number.
    public static let iTunesMetadataKeyDiscNumber = AVMetadataKey(rawValue: "disk")
    /// The iTunes metadata key for the eq.
    public static let iTunesMetadataKeyEQ = AVMetadataKey(rawValue: "©equ")
    /// The iTunes metadata key for the encoded by.
    public static let iTunesMetadataKeyEncodedBy = AVMetadataKey(rawValue: "©enc")
    /// The iTunes metadata key for the encoding tool.
    public static let iTunesMetadataKeyEncodingTool = AVMetadataKey(rawValue: "©too")
    /// The iTunes metadata key for the exec producer.
    public static let iTunesMetadataKeyExecProducer = AVMetadataKey(rawValue: "©xpd")
    /// The iTunes metadata key for the genre id.
    public static let iTunesMetadataKeyGenreID = AVMetadataKey(rawValue: "geID")
    /// The iTunes metadata key for the grouping.
    public static let iTunesMetadataKeyGrouping = AVMetadataKey(rawValue: "grup")
    /// The iTunes metadata key for the liner notes.
    public static let iTunesMetadataKeyLinerNotes = AVMetadataKey(rawValue: "©lnt")
    /// The iTunes metadata key for the lyrics.
    public static let iTunesMetadataKeyLyrics = AVMetadataKey(rawValue: "©lyr")
    /// The iTunes metadata key for the online extras.
    public static let iTunesMetadataKeyOnlineExtras = AVMetadataKey(rawValue: "©url")
    /// The iTunes metadata key for the original artist.
    public static let iTunesMetadataKeyOriginalArtist = AVMetadataKey(rawValue: "©ope")
    /// The iTunes metadata key for the performer.
    public static let iTunesMetadataKeyPerformer = AVMetadataKey(rawValue: "©prf")
    /// The iTunes metadata key for the phonogram rights.
    public static let iTunesMetadataKeyPhonogramRights = AVMetadataKey(rawValue: "©phg")
    /// The iTunes metadata key for the playlist id.
    public static let iTunesMetadataKeyPlaylistID = AVMetadataKey(rawValue: "plID")
    /// The iTunes metadata key for the predefined genre.
    public static let iTunesMetadataKeyPredefinedGenre = AVMetadataKey(rawValue: "gnre")
    /// The iTunes metadata key for the producer.
    public static let iTunesMetadataKeyProducer = AVMetadataKey(rawValue: "©prd")
    /// The iTunes metadata key for the publisher.
    public static let iTunesMetadataKeyPublisher = AVMetadataKey(rawValue: "©pub")
    /// The iTunes metadata key for the record company.
    public static let iTunesMetadataKeyRecordCompany = AVMetadataKey(rawValue: "©mak")
    /// The iTunes metadata key for the release date.
    public static let iTunesMetadataKeyReleaseDate = AVMetadataKey(rawValue: "©day")
    /// The iTunes metadata key for the soloist.
    public static let iTunesMetadataKeySoloist = AVMetadataKey(rawValue: "©sol")
    /// The iTunes metadata key for the song id.
    public static let iTunesMetadataKeySongID = AVMetadataKey(rawValue: "cnID")
    /// The iTunes metadata key for the song name.
    public static let iTunesMetadataKeySongName = AVMetadataKey(rawValue: "©nam")
    /// The iTunes metadata key for the sound engineer.
    public static let iTunesMetadataKeySoundEngineer = AVMetadataKey(rawValue: "©sne")
    /// The iTunes metadata key for the thanks.
    public static let iTunesMetadataKeyThanks = AVMetadataKey(rawValue: "©thx")
    /// The iTunes metadata key for the track number.
    public static let iTunesMetadataKeyTrackNumber = AVMetadataKey(rawValue: "trkn")
    /// The iTunes metadata key for the track sub title.
    public static let iTunesMetadataKeyTrackSubTitle = AVMetadataKey(rawValue: "©st3")
    /// The iTunes metadata key for the user comment.
    public static let iTunesMetadataKeyUserComment = AVMetadataKey(rawValue: "©cmt")
    /// The iTunes metadata key for the user genre.
    public static let iTunesMetadataKeyUserGenre = AVMetadataKey(rawValue: "©gen")
    /// The QuickTime metadata key for the accessibility description.
    public static let quickTimeMetadataKeyAccessibilityDescription = AVMetadataKey(rawValue: "com.apple.quicktime.accessibility.description")
    /// The QuickTime metadata key for the album.
    public static let quickTimeMetadataKeyAlbum = AVMetadataKey(rawValue: "com.apple.quicktime.album")
    /// The QuickTime metadata key for the arranger.
    public static let quickTimeMetadataKeyArranger = AVMetadataKey(rawValue: "com.apple.quicktime.arranger")
    /// The QuickTime metadata key for the artist.
    public static let quickTimeMetadataKeyArtist = AVMetadataKey(rawValue: "com.apple.quicktime.artist")
    /// The QuickTime metadata key for the artwork.
    public static let quickTimeMetadataKeyArtwork = AVMetadataKey(rawValue: "com.apple.quicktime.artwork")
    /// The QuickTime metadata key for the author.
    public static let quickTimeMetadataKeyAuthor = AVMetadataKey(rawValue: "com.apple.quicktime.author")
    /// The QuickTime metadata key for the camera frame readout time.
    public static let quickTimeMetadataKeyCameraFrameReadoutTime = AVMetadataKey(rawValue: "com.apple.quicktime.camera.framereadouttimeinmicroseconds")
    /// The QuickTime metadata key for the camera identifier.
    public static let quickTimeMetadataKeyCameraIdentifier = AVMetadataKey(rawValue: "com.apple.quicktime.camera.identifier")
    /// The QuickTime metadata key for the collection user.
    public static let quickTimeMetadataKeyCollectionUser = AVMetadataKey(rawValue: "com.apple.quicktime.collection.user")
    /// The QuickTime metadata key for the comment.
    public static let quickTimeMetadataKeyComment = AVMetadataKey(rawValue: "com.apple.quicktime.comment")
    /// The QuickTime metadata key for the composer.
    public static let quickTimeMetadataKeyComposer = AVMetadataKey(rawValue: "com.apple.quicktime.composer")
    /// The QuickTime metadata key for the content identifier.
    public static let quickTimeMetadataKeyContentIdentifier = AVMetadataKey(rawValue: "com.apple.quicktime.content.identifier")
    /// The QuickTime metadata key for the copyright.
    public static let quickTimeMetadataKeyCopyright = AVMetadataKey(rawValue: "com.apple.quicktime.copyright")
    /// The QuickTime metadata key for the creation date.
    public static let quickTimeMetadataKeyCreationDate = AVMetadataKey(rawValue: "com.apple.quicktime.creationdate")
    /// The QuickTime metadata key for the credits.
    public static let quickTimeMetadataKeyCredits = AVMetadataKey(rawValue: "com.apple.quicktime.credits")
    /// The QuickTime metadata key for the description.
    public static let quickTimeMetadataKeyDescription = AVMetadataKey(rawValue: "com.apple.quicktime.description")
    /// The QuickTime metadata key for the direction facing.
    public static let quickTimeMetadataKeyDirectionFacing = AVMetadataKey(rawValue: "com.apple.quicktime.direction.facing")
    /// The QuickTime metadata key for the direction motion.
    public static let quickTimeMetadataKeyDirectionMotion = AVMetadataKey(rawValue: "com.apple.quicktime.direction.motion")
    /// The QuickTime metadata key for the director.
    public static let quickTimeMetadataKeyDirector = AVMetadataKey(rawValue: "com.apple.quicktime.director")
    /// The QuickTime metadata key for the display name.
    public static let quickTimeMetadataKeyDisplayName = AVMetadataKey(rawValue: "com.apple.quicktime.displayname")
    /// The QuickTime metadata key for the encoded by.
    public static let quickTimeMetadataKeyEncodedBy = AVMetadataKey(rawValue: "com.apple.quicktime.encodedby")
    /// The QuickTime metadata key for the genre.
    public static let quickTimeMetadataKeyGenre = AVMetadataKey(rawValue: "com.apple.quicktime.genre")
    /// The QuickTime metadata key for the information.
    public static let quickTimeMetadataKeyInformation = AVMetadataKey(rawValue: "com.apple.quicktime.information")
    /// The QuickTime metadata key for the is montage.
    public static let quickTimeMetadataKeyIsMontage = AVMetadataKey(rawValue: "com.apple.quicktime.is-montage")
    /// The QuickTime metadata key for the keywords.
    public static let quickTimeMetadataKeyKeywords = AVMetadataKey(rawValue: "com.apple.quicktime.keywords")
    /// The QuickTime metadata key for the location body.
    public static let quickTimeMetadataKeyLocationBody = AVMetadataKey(rawValue: "com.apple.quicktime.location.body")
    /// The QuickTime metadata key for the location date.
    public static let quickTimeMetadataKeyLocationDate = AVMetadataKey(rawValue: "com.apple.quicktime.location.date")
    /// The QuickTime metadata key for the location iso6709.
    public static let quickTimeMetadataKeyLocationISO6709 = AVMetadataKey(rawValue: "com.apple.quicktime.location.ISO6709")
    /// The QuickTime metadata key for the location name.
    public static let quickTimeMetadataKeyLocationName = AVMetadataKey(rawValue: "com.apple.quicktime.location.name")
    /// The QuickTime metadata key for the location note.
    public static let quickTimeMetadataKeyLocationNote = AVMetadataKey(rawValue: "com.apple.quicktime.location.note")
    /// The QuickTime metadata key for the location role.
    public static let quickTimeMetadataKeyLocationRole = AVMetadataKey(rawValue: "com.apple.quicktime.location.role")
    /// The QuickTime metadata key for the make.
    public static let quickTimeMetadataKeyMake = AVMetadataKey(rawValue: "com.apple.quicktime.make")
    /// The QuickTime metadata key for the model.
    public static let quickTimeMetadataKeyModel = AVMetadataKey(rawValue: "com.apple.quicktime.model")
    /// The QuickTime metadata key for the original artist.
    public static let quickTimeMetadataKeyOriginalArtist = AVMetadataKey(rawValue: "com.apple.quicktime.originalartist")
    /// The QuickTime metadata key for the performer.
    public static let quickTimeMetadataKeyPerformer = AVMetadataKey(rawValue: "com.apple.quicktime.performer")
    /// The QuickTime metadata key for the phonogram rights.
    public static let quickTimeMetadataKeyPhonogramRights = AVMetadataKey(rawValue: "com.apple.quicktime.phonogramrights")
    /// The QuickTime metadata key for the producer.
    public static let quickTimeMetadataKeyProducer = AVMetadataKey(rawValue: "com.apple.quicktime.producer")
    /// The QuickTime metadata key for the publisher.
    public static let quickTimeMetadataKeyPublisher = AVMetadataKey(rawValue: "com.apple.quicktime.publisher")
    /// The QuickTime metadata key for the rating user.
    public static let quickTimeMetadataKeyRatingUser = AVMetadataKey(rawValue: "com.apple.quicktime.rating.user")
    /// The QuickTime metadata key for the software.
    public static let quickTimeMetadataKeySoftware = AVMetadataKey(rawValue: "com.apple.quicktime.software")
    /// The QuickTime metadata key for the title.
    public static let quickTimeMetadataKeyTitle = AVMetadataKey(rawValue: "com.apple.quicktime.title")
    /// The QuickTime metadata key for the year.
    public static let quickTimeMetadataKeyYear = AVMetadataKey(rawValue: "com.apple.quicktime.year")
    /// The QuickTime metadata key for iXML production metadata.
    public static let quickTimeMetadataKeyiXML = AVMetadataKey(rawValue: "info.ixml.xml")
    /// The ID3 key for the album sort order frame.
    public static let id3MetadataKeyAlbumSortOrder = AVMetadataKey(rawValue: "TSOA")
    /// The ID3 key for the album title frame.
    public static let id3MetadataKeyAlbumTitle = AVMetadataKey(rawValue: "TALB")
    /// The ID3 key for the attached picture frame.
    public static let id3MetadataKeyAttachedPicture = AVMetadataKey(rawValue: "APIC")
    /// The ID3 key for the audio encryption frame.
    public static let id3MetadataKeyAudioEncryption = AVMetadataKey(rawValue: "AENC")
    /// The ID3 key for the audio seek point index frame.
    public static let id3MetadataKeyAudioSeekPointIndex = AVMetadataKey(rawValue: "ASPI")
    /// The ID3 key for the band frame.
    public static let id3MetadataKeyBand = AVMetadataKey(rawValue: "TPE2")
    /// The ID3 key for the beats per minute frame.
    public static let id3MetadataKeyBeatsPerMinute = AVMetadataKey(rawValue: "TBPM")
    /// The ID3 key for the comments frame.
    public static let id3MetadataKeyComments = AVMetadataKey(rawValue: "COMM")
    /// The ID3 key for the commercial frame.
    public static let id3MetadataKeyCommercial = AVMetadataKey(rawValue: "COMR")
    /// The ID3 key for the commercial information frame.
    public static let id3MetadataKeyCommercialInformation = AVMetadataKey(rawValue: "WCOM")
    /// The ID3 key for the composer frame.
    public static let id3MetadataKeyComposer = AVMetadataKey(rawValue: "TCOM")
    /// The ID3 key for the conductor frame.
    public static let id3MetadataKeyConductor = AVMetadataKey(rawValue: "TPE3")
    /// The ID3 key for the content group description frame.
    public static let id3MetadataKeyContentGroupDescription = AVMetadataKey(rawValue: "TIT1")
    /// The ID3 key for the content type frame.
    public static let id3MetadataKeyContentType = AVMetadataKey(rawValue: "TCON")
    /// The ID3 key for the copyright frame.
    public static let id3MetadataKeyCopyright = AVMetadataKey(rawValue: "TCOP")
    /// The ID3 key for the copyright information frame.
    public static let id3MetadataKeyCopyrightInformation = AVMetadataKey(rawValue: "WCOP")
    /// The ID3 key for the date frame.
    public static let id3MetadataKeyDate = AVMetadataKey(rawValue: "TDAT")
    /// The ID3 key for the encoded by frame.
    public static let id3MetadataKeyEncodedBy = AVMetadataKey(rawValue: "TENC")
    /// The ID3 key for the encoded with frame.
    public static let id3MetadataKeyEncodedWith = AVMetadataKey(rawValue: "TSSE")
    /// The ID3 key for the encoding time frame.
    public static let id3MetadataKeyEncodingTime = AVMetadataKey(rawValue: "TDEN")
    /// The ID3 key for the encryption frame.
    public static let id3MetadataKeyEncryption = AVMetadataKey(rawValue: "ENCR")
    /// The ID3 key for the equalization frame.
    public static let id3MetadataKeyEqualization = AVMetadataKey(rawValue: "EQUA")
    /// The ID3 key for the equalization2 frame.
    public static let id3MetadataKeyEqualization2 = AVMetadataKey(rawValue: "EQU2")
    /// The ID3 key for the event timing codes frame.
    public static let id3MetadataKeyEventTimingCodes = AVMetadataKey(rawValue: "ETCO")
    /// The ID3 key for the file owner frame.
    public static let id3MetadataKeyFileOwner = AVMetadataKey(rawValue: "TOWN")
    /// The ID3 key for the file type frame.
    public static let id3MetadataKeyFileType = AVMetadataKey(rawValue: "TFLT")
    /// The ID3 key for the general encapsulated object frame.
    public static let id3MetadataKeyGeneralEncapsulatedObject = AVMetadataKey(rawValue: "GEOB")
    /// The ID3 key for the group identifier frame.
    public static let id3MetadataKeyGroupIdentifier = AVMetadataKey(rawValue: "GRID")
    /// The ID3 key for the initial key frame.
    public static let id3MetadataKeyInitialKey = AVMetadataKey(rawValue: "TKEY")
    /// The ID3 key for the international standard recording code frame.
    public static let id3MetadataKeyInternationalStandardRecordingCode = AVMetadataKey(rawValue: "TSRC")
    /// The ID3 key for the internet radio station name frame.
    public static let id3MetadataKeyInternetRadioStationName = AVMetadataKey(rawValue: "TRSN")
    /// The ID3 key for the internet radio station owner frame.
    public static let id3MetadataKeyInternetRadioStationOwner = AVMetadataKey(rawValue: "TRSO")
    /// The ID3 key for the involved people list v23 frame.
    public static let id3MetadataKeyInvolvedPeopleList_v23 = AVMetadataKey(rawValue: "IPLS")
    /// The ID3 key for the involved people list v24 frame.
    public static let id3MetadataKeyInvolvedPeopleList_v24 = AVMetadataKey(rawValue: "TIPL")
    /// The ID3 key for the language frame.
    public static let id3MetadataKeyLanguage = AVMetadataKey(rawValue: "TLAN")
    /// The ID3 key for the lead performer frame.
    public static let id3MetadataKeyLeadPerformer = AVMetadataKey(rawValue: "TPE1")
    /// The ID3 key for the length frame.
    public static let id3MetadataKeyLength = AVMetadataKey(rawValue: "TLEN")
    /// The ID3 key for the link frame.
    public static let id3MetadataKeyLink = AVMetadataKey(rawValue: "LINK")
    /// The ID3 key for the lyricist frame.
    public static let id3MetadataKeyLyricist = AVMetadataKey(rawValue: "TEXT")
    /// The ID3 key for the mpeg location lookup table frame.
    public static let id3MetadataKeyMPEGLocationLookupTable = AVMetadataKey(rawValue: "MLLT")
    /// The ID3 key for the media type frame.
    public static let id3MetadataKeyMediaType = AVMetadataKey(rawValue: "TMED")
    /// The ID3 key for the modified by frame.
    public static let id3MetadataKeyModifiedBy = AVMetadataKey(rawValue: "TPE4")
    /// The ID3 key for the mood frame.
    public static let id3MetadataKeyMood = AVMetadataKey(rawValue: "TMOO")
    /// The ID3 key for the music cd identifier frame.
    public static let id3MetadataKeyMusicCDIdentifier = AVMetadataKey(rawValue: "MCDI")
    /// The ID3 key for the musician credits list frame.
    public static let id3MetadataKeyMusicianCreditsList = AVMetadataKey(rawValue: "TMCL")
    /// The ID3 key for the official artist webpage frame.
    public static let id3MetadataKeyOfficialArtistWebpage = AVMetadataKey(rawValue: "WOAR")
    /// The ID3 key for the official audio file webpage frame.
    public static let id3MetadataKeyOfficialAudioFileWebpage = AVMetadataKey(rawValue: "WOAF")
    /// The ID3 key for the official audio source webpage frame.
    public static let id3MetadataKeyOfficialAudioSourceWebpage = AVMetadataKey(rawValue: "WOAS")
    /// The ID3 key for the official internet radio station homepage frame.
    public static let id3MetadataKeyOfficialInternetRadioStationHomepage = AVMetadataKey(rawValue: "WORS")
    /// The ID3 key for the official publisher webpage frame.
    public static let id3MetadataKeyOfficialPublisherWebpage = AVMetadataKey(rawValue: "WPUB")
    /// The ID3 key for the original album title frame.
    public static let id3MetadataKeyOriginalAlbumTitle = AVMetadataKey(rawValue: "TOAL")
    /// The ID3 key for the original artist frame.
    public static let id3MetadataKeyOriginalArtist = AVMetadataKey(rawValue: "TOPE")
    /// The ID3 key for the original filename frame.
    public static let id3MetadataKeyOriginalFilename = AVMetadataKey(rawValue: "TOFN")
    /// The ID3 key for the original lyricist frame.
    public static let id3MetadataKeyOriginalLyricist = AVMetadataKey(rawValue: "TOLY")
    /// The ID3 key for the original release time frame.
    public static let id3MetadataKeyOriginalReleaseTime = AVMetadataKey(rawValue: "TDOR")
    /// The ID3 key for the original release year frame.
    public static let id3MetadataKeyOriginalReleaseYear = AVMetadataKey(rawValue: "TORY")
    /// The ID3 key for the ownership frame.
    public static let id3MetadataKeyOwnership = AVMetadataKey(rawValue: "OWNE")
    /// The ID3 key for the part of a set frame.
    public static let id3MetadataKeyPartOfASet = AVMetadataKey(rawValue: "TPOS")
    /// The ID3 key for the payment frame.
    public static let id3MetadataKeyPayment = AVMetadataKey(rawValue: "WPAY")
    /// The ID3 key for the performer sort order frame.
    public static let id3MetadataKeyPerformerSortOrder = AVMetadataKey(rawValue: "TSOP")
    /// The ID3 key for the play counter frame.
    public static let id3MetadataKeyPlayCounter = AVMetadataKey(rawValue: "PCNT")
    /// The ID3 key for the playlist delay frame.
    public static let id3MetadataKeyPlaylistDelay = AVMetadataKey(rawValue: "TDLY")
    /// The ID3 key for the popularimeter frame.
    public static let id3MetadataKeyPopularimeter = AVMetadataKey(rawValue: "POPM")
    /// The ID3 key for the position synchronization frame.
    public static let id3MetadataKeyPositionSynchronization = AVMetadataKey(rawValue: "POSS")
    /// The ID3 key for the private frame.
    public static let id3MetadataKeyPrivate = AVMetadataKey(rawValue: "PRIV")
    /// The ID3 key for the produced notice frame.
    public static let id3MetadataKeyProducedNotice = AVMetadataKey(rawValue: "TPRO")
    /// The ID3 key for the publisher frame.
    public static let id3MetadataKeyPublisher = AVMetadataKey(rawValue: "TPUB")
    /// The ID3 key for the recommended buffer size frame.
    public static let id3MetadataKeyRecommendedBufferSize = AVMetadataKey(rawValue: "RBUF")
    /// The ID3 key for the recording dates frame.
    public static let id3MetadataKeyRecordingDates = AVMetadataKey(rawValue: "TRDA")
    /// The ID3 key for the recording time frame.
    public static let id3MetadataKeyRecordingTime = AVMetadataKey(rawValue: "TDRC")
    /// The ID3 key for the relative volume adjustment frame.
    public static let id3MetadataKeyRelativeVolumeAdjustment = AVMetadataKey(rawValue: "RVAD")
    /// The ID3 key for the relative volume adjustment2 frame.
    public static let id3MetadataKeyRelativeVolumeAdjustment2 = AVMetadataKey(rawValue: "RVA2")
    /// The ID3 key for the release time frame.
    public static let id3MetadataKeyReleaseTime = AVMetadataKey(rawValue: "TDRL")
    /// The ID3 key for the reverb frame.
    public static let id3MetadataKeyReverb = AVMetadataKey(rawValue: "RVRB")
    /// The ID3 key for the seek frame.
    public static let id3MetadataKeySeek = AVMetadataKey(rawValue: "SEEK")
    /// The ID3 key for the set subtitle frame.
    public static let id3MetadataKeySetSubtitle = AVMetadataKey(rawValue: "TSST")
    /// The ID3 key for the signature frame.
    public static let id3MetadataKeySignature = AVMetadataKey(rawValue: "SIGN")
    /// The ID3 key for the size frame.
    public static let id3MetadataKeySize = AVMetadataKey(rawValue: "TSIZ")
    /// The ID3 key for the sub title frame.
    public static let id3MetadataKeySubTitle = AVMetadataKey(rawValue: "TIT3")
    /// The ID3 key for the synchronized lyric frame.
    public static let id3MetadataKeySynchronizedLyric = AVMetadataKey(rawValue: "SYLT")
    /// The ID3 key for the synchronized tempo codes frame.
    public static let id3MetadataKeySynchronizedTempoCodes = AVMetadataKey(rawValue: "SYTC")
    /// The ID3 key for the tagging time frame.
    public static let id3MetadataKeyTaggingTime = AVMetadataKey(rawValue: "TDTG")
    /// The ID3 key for the terms of use frame.
    public static let id3MetadataKeyTermsOfUse = AVMetadataKey(rawValue: "USER")
    /// The ID3 key for the time frame.
    public static let id3MetadataKeyTime = AVMetadataKey(rawValue: "TIME")
    /// The ID3 key for the title description frame.
    public static let id3MetadataKeyTitleDescription = AVMetadataKey(rawValue: "TIT2")
    /// The ID3 key for the title sort order frame.
    public static let id3MetadataKeyTitleSortOrder = AVMetadataKey(rawValue: "TSOT")
    /// The ID3 key for the track number frame.
    public static let id3MetadataKeyTrackNumber = AVMetadataKey(rawValue: "TRCK")
    /// The ID3 key for the unique file identifier frame.
    public static let id3MetadataKeyUniqueFileIdentifier = AVMetadataKey(rawValue: "UFID")
    /// The ID3 key for the unsynchronized lyric frame.
    public static let id3MetadataKeyUnsynchronizedLyric = AVMetadataKey(rawValue: "USLT")
    /// The ID3 key for the user text frame.
    public static let id3MetadataKeyUserText = AVMetadataKey(rawValue: "TXXX")
    /// The ID3 key for the user url frame.
    public static let id3MetadataKeyUserURL = AVMetadataKey(rawValue: "WXXX")
    /// The ID3 key for the year frame.
    public static let id3MetadataKeyYear = AVMetadataKey(rawValue: "TYER")
}
