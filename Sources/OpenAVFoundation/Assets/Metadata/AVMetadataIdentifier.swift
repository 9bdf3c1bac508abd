// The metadata identifiers of every key space AVFoundation names, with Apple's raw values.

/// An identifier that names a metadata item's key space and key together, such as "common/title".
/// Matches Apple: the raw value is "<key space>/<key>", where the common key space is spelled
/// "common", the ID3 key space "id3", and key bytes outside printable ASCII are percent-escaped ("udta/%A9nam").
public struct AVMetadataIdentifier: RawRepresentable, Hashable, Sendable {
    /// The identifier's string, for example "mdta/com.apple.quicktime.title".
    public let rawValue: String

    /// Creates a metadata identifier from its raw value.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a metadata identifier from its raw value.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The identifier for the common title.
    public static let commonIdentifierTitle = AVMetadataIdentifier(rawValue: "common/title")
    /// The identifier for the common creator.
    public static let commonIdentifierCreator = AVMetadataIdentifier(rawValue: "common/creator")
    /// The identifier for the common subject.
    public static let commonIdentifierSubject = AVMetadataIdentifier(rawValue: "common/subject")
    /// The identifier for the common description.
    public static let commonIdentifierDescription = AVMetadataIdentifier(rawValue: "common/description")
    /// The identifier for the common publisher.
    public static let commonIdentifierPublisher = AVMetadataIdentifier(rawValue: "common/publisher")
    /// The identifier for the common contributor.
    public static let commonIdentifierContributor = AVMetadataIdentifier(rawValue: "common/contributor")
    /// The identifier for the common creation date.
    public static let commonIdentifierCreationDate = AVMetadataIdentifier(rawValue: "common/creationDate")
    /// The identifier for the common last modified date.
    public static let commonIdentifierLastModifiedDate = AVMetadataIdentifier(rawValue: "common/lastModifiedDate")
    /// The identifier for the common type.
    public static let commonIdentifierType = AVMetadataIdentifier(rawValue: "common/type")
    /// The identifier for the common format.
    public static let commonIdentifierFormat = AVMetadataIdentifier(rawValue: "common/format")
    /// The identifier for the common identifier.
    public static let commonIdentifierAssetIdentifier = AVMetadataIdentifier(rawValue: "common/identifier")
    /// The identifier for the common source.
    public static let commonIdentifierSource = AVMetadataIdentifier(rawValue: "common/source")
    /// The identifier for the common language.
    public static let commonIdentifierLanguage = AVMetadataIdentifier(rawValue: "common/language")
    /// The identifier for the common relation.
    public static let commonIdentifierRelation = AVMetadataIdentifier(rawValue: "common/relation")
    /// The identifier for the common location.
    public static let commonIdentifierLocation = AVMetadataIdentifier(rawValue: "common/location")
    /// The identifier for the common copyrights.
    public static let commonIdentifierCopyrights = AVMetadataIdentifier(rawValue: "common/copyrights")
    /// The identifier for the common album name.
    public static let commonIdentifierAlbumName = AVMetadataIdentifier(rawValue: "common/albumName")
    /// The identifier for the common author.
    public static let commonIdentifierAuthor = AVMetadataIdentifier(rawValue: "common/author")
    /// The identifier for the common artist.
    public static let commonIdentifierArtist = AVMetadataIdentifier(rawValue: "common/artist")
    /// The identifier for the common artwork.
    public static let commonIdentifierArtwork = AVMetadataIdentifier(rawValue: "common/artwork")
    /// The identifier for the common make.
    public static let commonIdentifierMake = AVMetadataIdentifier(rawValue: "common/make")
    /// The identifier for the common model.
    public static let commonIdentifierModel = AVMetadataIdentifier(rawValue: "common/model")
    /// The identifier for the common software.
    public static let commonIdentifierSoftware = AVMetadataIdentifier(rawValue: "common/software")
    /// The identifier for the common accessibility description.
    public static let commonIdentifierAccessibilityDescription = AVMetadataIdentifier(rawValue: "common/accessibilityDescription")
    /// The 3GPP user data identifier for the album and track.
    public static let identifier3GPUserDataAlbumAndTrack = AVMetadataIdentifier(rawValue: "uiso/albm")
    /// The 3GPP user data identifier for the author.
    public static let identifier3GPUserDataAuthor = AVMetadataIdentifier(rawValue: "uiso/auth")
    /// The 3GPP user data identifier for the collection.
    public static let identifier3GPUserDataCollection = AVMetadataIdentifier(rawValue: "uiso/coll")
    /// The 3GPP user data identifier for the copyright.
    public static let identifier3GPUserDataCopyright = AVMetadataIdentifier(rawValue: "uiso/cprt")
    /// The 3GPP user data identifier for the description.
    public static let identifier3GPUserDataDescription = AVMetadataIdentifier(rawValue: "uiso/dscp")
    /// The 3GPP user data identifier for the genre.
    public static let identifier3GPUserDataGenre = AVMetadataIdentifier(rawValue: "uiso/gnre")
    /// The 3GPP user data identifier for the keyword list.
    public static let identifier3GPUserDataKeywordList = AVMetadataIdentifier(rawValue: "uiso/kywd")
    /// The 3GPP user data identifier for the location.
    public static let identifier3GPUserDataLocation = AVMetadataIdentifier(rawValue: "uiso/loci")
    /// The 3GPP user data identifier for the media classification.
    public static let identifier3GPUserDataMediaClassification = AVMetadataIdentifier(rawValue: "uiso/clsf")
    /// The 3GPP user data identifier for the media rating.
    public static let identifier3GPUserDataMediaRating = AVMetadataIdentifier(rawValue: "uiso/rtng")
    /// The 3GPP user data identifier for the performer.
    public static let identifier3GPUserDataPerformer = AVMetadataIdentifier(rawValue: "uiso/perf")
    /// The 3GPP user data identifier for the recording year.
    public static let identifier3GPUserDataRecordingYear = AVMetadataIdentifier(rawValue: "uiso/yrrc")
    /// The 3GPP user data identifier for the thumbnail.
    public static let identifier3GPUserDataThumbnail = AVMetadataIdentifier(rawValue: "uiso/thmb")
    /// The 3GPP user data identifier for the title.
    public static let identifier3GPUserDataTitle = AVMetadataIdentifier(rawValue: "uiso/titl")
    /// The 3GPP user data identifier for the user rating.
    public static let identifier3GPUserDataUserRating = AVMetadataIdentifier(rawValue: "uiso/urat")
    /// The ISO user data identifier for the accessibility description.
    public static let isoUserDataAccessibilityDescription = AVMetadataIdentifier(rawValue: "uiso/ades")
    /// The ISO user data identifier for the copyright.
    public static let isoUserDataCopyright = AVMetadataIdentifier(rawValue: "uiso/cprt")
    /// The ISO user data identifier for the date.
    public static let isoUserDataDate = AVMetadataIdentifier(rawValue: "uiso/date")
    /// The ISO user data identifier for the tagged characteristic.
    public static let isoUserDataTaggedCharacteristic = AVMetadataIdentifier(rawValue: "uiso/tagc")
    /// The Icy streaming metadata identifier for the stream title.
    public static let icyMetadataStreamTitle = AVMetadataIdentifier(rawValue: "icy/StreamTitle")
    /// The Icy streaming metadata identifier for the stream url.
    public static let icyMetadataStreamURL = AVMetadataIdentifier(rawValue: "icy/StreamUrl")
    /// The QuickTime user data identifier for the accessibility description.
    public static let quickTimeUserDataAccessibilityDescription = AVMetadataIdentifier(rawValue: "udta/%A9ade")
    /// The QuickTime user data identifier for the album.
    public static let quickTimeUserDataAlbum = AVMetadataIdentifier(rawValue: "udta/%A9alb")
    /// The QuickTime user data identifier for the arranger.
    public static let quickTimeUserDataArranger = AVMetadataIdentifier(rawValue: "udta/%A9arg")
    /// The QuickTime user data identifier for the artist.
    public static let quickTimeUserDataArtist = AVMetadataIdentifier(rawValue: "udta/%A9ART")
    /// The QuickTime user data identifier for the author.
    public static let quickTimeUserDataAuthor = AVMetadataIdentifier(rawValue: "udta/%A9aut")
    /// The QuickTime user data identifier for the chapter.
    public static let quickTimeUserDataChapter = AVMetadataIdentifier(rawValue: "udta/%A9chp")
    /// The QuickTime user data identifier for the comment.
    public static let quickTimeUserDataComment = AVMetadataIdentifier(rawValue: "udta/%A9cmt")
    /// The QuickTime user data identifier for the composer.
    public static let quickTimeUserDataComposer = AVMetadataIdentifier(rawValue: "udta/%A9com")
    /// The QuickTime user data identifier for the copyright.
    public static let quickTimeUserDataCopyright = AVMetadataIdentifier(rawValue: "udta/%A9cpy")
    /// The QuickTime user data identifier for the creation date.
    public static let quickTimeUserDataCreationDate = AVMetadataIdentifier(rawValue: "udta/%A9day")
    /// The QuickTime user data identifier for the credits.
    public static let quickTimeUserDataCredits = AVMetadataIdentifier(rawValue: "udta/%A9src")
    /// The QuickTime user data identifier for the description.
    public static let quickTimeUserDataDescription = AVMetadataIdentifier(rawValue: "udta/%A9des")
    /// The QuickTime user data identifier for the director.
    public static let quickTimeUserDataDirector = AVMetadataIdentifier(rawValue: "udta/%A9dir")
    /// The QuickTime user data identifier for the disclaimer.
    public static let quickTimeUserDataDisclaimer = AVMetadataIdentifier(rawValue: "udta/%A9dis")
    /// The QuickTime user data identifier for the encoded by.
    public static let quickTimeUserDataEncodedBy = AVMetadataIdentifier(rawValue: "udta/%A9enc")
    /// The QuickTime user data identifier for the full name.
    public static let quickTimeUserDataFullName = AVMetadataIdentifier(rawValue: "udta/%A9nam")
    /// The QuickTime user data identifier for the genre.
    public static let quickTimeUserDataGenre = AVMetadataIdentifier(rawValue: "udta/%A9gen")
    /// The QuickTime user data identifier for the host computer.
    public static let quickTimeUserDataHostComputer = AVMetadataIdentifier(rawValue: "udta/%A9hst")
    /// The QuickTime user data identifier for the information.
    public static let quickTimeUserDataInformation = AVMetadataIdentifier(rawValue: "udta/%A9inf")
    /// The QuickTime user data identifier for the keywords.
    public static let quickTimeUserDataKeywords = AVMetadataIdentifier(rawValue: "udta/%A9key")
    /// The QuickTime user data identifier for the location iso6709.
    public static let quickTimeUserDataLocationISO6709 = AVMetadataIdentifier(rawValue: "udta/%A9xyz")
    /// The QuickTime user data identifier for the make.
    public static let quickTimeUserDataMake = AVMetadataIdentifier(rawValue: "udta/%A9mak")
    /// The QuickTime user data identifier for the model.
    public static let quickTimeUserDataModel = AVMetadataIdentifier(rawValue: "udta/%A9mod")
    /// The QuickTime user data identifier for the original artist.
    public static let quickTimeUserDataOriginalArtist = AVMetadataIdentifier(rawValue: "udta/%A9ope")
    /// The QuickTime user data identifier for the original format.
    public static let quickTimeUserDataOriginalFormat = AVMetadataIdentifier(rawValue: "udta/%A9fmt")
    /// The QuickTime user data identifier for the original source.
    public static let quickTimeUserDataOriginalSource = AVMetadataIdentifier(rawValue: "udta/%A9src")
    /// The QuickTime user data identifier for the performers.
    public static let quickTimeUserDataPerformers = AVMetadataIdentifier(rawValue: "udta/%A9prf")
    /// The QuickTime user data identifier for the phonogram rights.
    public static let quickTimeUserDataPhonogramRights = AVMetadataIdentifier(rawValue: "udta/%A9phg")
    /// The QuickTime user data identifier for the producer.
    public static let quickTimeUserDataProducer = AVMetadataIdentifier(rawValue: "udta/%A9prd")
    /// The QuickTime user data identifier for the product.
    public static let quickTimeUserDataProduct = AVMetadataIdentifier(rawValue: "udta/%A9PRD")
    /// The QuickTime user data identifier for the publisher.
    public static let quickTimeUserDataPublisher = AVMetadataIdentifier(rawValue: "udta/%A9pub")
    /// The QuickTime user data identifier for the software.
    public static let quickTimeUserDataSoftware = AVMetadataIdentifier(rawValue: "udta/%A9swr")
    /// The QuickTime user data identifier for the special playback requirements.
    public static let quickTimeUserDataSpecialPlaybackRequirements = AVMetadataIdentifier(rawValue: "udta/%A9req")
    /// The QuickTime user data identifier for the tagged characteristic.
    public static let quickTimeUserDataTaggedCharacteristic = AVMetadataIdentifier(rawValue: "udta/tagc")
    /// The QuickTime user data identifier for the track.
    public static let quickTimeUserDataTrack = AVMetadataIdentifier(rawValue: "udta/%A9trk")
    /// The QuickTime user data identifier for the track name.
    public static let quickTimeUserDataTrackName = AVMetadataIdentifier(rawValue: "udta/tnam")
    /// The QuickTime user data identifier for the url link.
    public static let quickTimeUserDataURLLink = AVMetadataIdentifier(rawValue: "udta/%A9url")
    /// The QuickTime user data identifier for the warning.
    public static let quickTimeUserDataWarning = AVMetadataIdentifier(rawValue: "udta/%A9wrn")
    /// The QuickTime user data identifier for the writer.
    public static let quickTimeUserDataWriter = AVMetadataIdentifier(rawValue: "udta/%A9wrt")
    /// The iTunes metadata identifier for the account kind.
    public static let iTunesMetadataAccountKind = AVMetadataIdentifier(rawValue: "itsk/akID")
    /// The iTunes metadata identifier for the acknowledgement.
    public static let iTunesMetadataAcknowledgement = AVMetadataIdentifier(rawValue: "itsk/%A9cak")
    /// The iTunes metadata identifier for the album.
    public static let iTunesMetadataAlbum = AVMetadataIdentifier(rawValue: "itsk/%A9alb")
    /// The iTunes metadata identifier for the album artist.
    public static let iTunesMetadataAlbumArtist = AVMetadataIdentifier(rawValue: "itsk/aART")
    /// The iTunes metadata identifier for the apple id.
    public static let iTunesMetadataAppleID = AVMetadataIdentifier(rawValue: "itsk/apID")
    /// The iTunes metadata identifier for the arranger.
    public static let iTunesMetadataArranger = AVMetadataIdentifier(rawValue: "itsk/%A9arg")
    /// The iTunes metadata identifier for the art director.
    public static let iTunesMetadataArtDirector = AVMetadataIdentifier(rawValue: "itsk/%A9ard")
    /// The iTunes metadata identifier for the artist.
    public static let iTunesMetadataArtist = AVMetadataIdentifier(rawValue: "itsk/%A9ART")
    /// The iTunes metadata identifier for the artist id.
    public static let iTunesMetadataArtistID = AVMetadataIdentifier(rawValue: "itsk/atID")
    /// The iTunes metadata identifier for the author.
    public static let iTunesMetadataAuthor = AVMetadataIdentifier(rawValue: "itsk/%A9aut")
    /// The iTunes metadata identifier for the beats per min.
    public static let iTunesMetadataBeatsPerMin = AVMetadataIdentifier(rawValue: "itsk/tmpo")
    /// The iTunes metadata identifier for the composer.
    public static let iTunesMetadataComposer = AVMetadataIdentifier(rawValue: "itsk/%A9wrt")
    /// The iTunes metadata identifier for the conductor.
    public static let iTunesMetadataConductor = AVMetadataIdentifier(rawValue: "itsk/%A9con")
    /// The iTunes metadata identifier for the content rating.
    public static let iTunesMetadataContentRating = AVMetadataIdentifier(rawValue: "itsk/rtng")
    /// The iTunes metadata identifier for the copyright.
    public static let iTunesMetadataCopyright = AVMetadataIdentifier(rawValue: "itsk/cprt")
    /// The iTunes metadata identifier for the cover art.
    public static let iTunesMetadataCoverArt = AVMetadataIdentifier(rawValue: "itsk/covr")
    /// The iTunes metadata identifier for the credits.
    public static let iTunesMetadataCredits = AVMetadataIdentifier(rawValue: "itsk/%A9src")
    /// The iTunes metadata identifier for the description.
    public static let iTunesMetadataDescription = AVMetadataIdentifier(rawValue: "itsk/%A9des")
    /// The iTunes metadata identifier for the director.
    public static let iTunesMetadataDirector = AVMetadataIdentifier(rawValue: "itsk/%A9dir")
    /// The iTunes metadata identifier for the disc compilation.
    public static let iTunesMetadataDiscCompilation = AVMetadataIdentifier(rawValue: "itsk/cpil")
    /// The iTunes metadata identifier for the disc number.
    public static let iTunesMetadataDiscNumber = AVMetadataIdentifier(rawValue: "itsk/disk")
    /// The iTunes metadata identifier for the eq.
    public static let iTunesMetadataEQ = AVMetadataIdentifier(rawValue: "itsk/%A9equ")
    /// The iTunes metadata identifier for the encoded by.
    public static let iTunesMetadataEncodedBy = AVMetadataIdentifier(rawValue: "itsk/%A9enc")
    /// The iTunes metadata identifier for the encoding tool.
    public static let iTunesMetadataEncodingTool = AVMetadataIdentifier(rawValue: "itsk/%A9too")
    /// The iTunes metadata identifier for the exec producer.
    public static let iTunesMetadataExecProducer = AVMetadataIdentifier(rawValue: "itsk/%A9xpd")
    /// The iTunes metadata identifier for the genre id.
    public static let iTunesMetadataGenreID = AVMetadataIdentifier(rawValue: "itsk/geID")
    /// The iTunes metadata identifier for the grouping.
    public static let iTunesMetadataGrouping = AVMetadataIdentifier(rawValue: "itsk/grup")
    /// The iTunes metadata identifier for the liner notes.
    public static let iTunesMetadataLinerNotes = AVMetadataIdentifier(rawValue: "itsk/%A9lnt")
    /// The iTunes metadata identifier for the lyrics.
    public static let iTunesMetadataLyrics = AVMetadataIdentifier(rawValue: "itsk/%A9lyr")
    /// The iTunes metadata identifier for the online extras.
    public static let iTunesMetadataOnlineExtras = AVMetadataIdentifier(rawValue: "itsk/%A9url")
    /// The iTunes metadata identifier for the original artist.
    public static let iTunesMetadataOriginalArtist = AVMetadataIdentifier(rawValue: "itsk/%A9ope")
    /// The iTunes metadata identifier for the performer.
    public static let iTunesMetadataPerformer = AVMetadataIdentifier(rawValue: "itsk/%A9prf")
    /// The iTunes metadata identifier for the phonogram rights.
    public static let iTunesMetadataPhonogramRights = AVMetadataIdentifier(rawValue: "itsk/%A9phg")
    /// The iTunes metadata identifier for the playlist id.
    public static let iTunesMetadataPlaylistID = AVMetadataIdentifier(rawValue: "itsk/plID")
    /// The iTunes metadata identifier for the predefined genre.
    public static let iTunesMetadataPredefinedGenre = AVMetadataIdentifier(rawValue: "itsk/gnre")
    /// The iTunes metadata identifier for the producer.
    public static let iTunesMetadataProducer = AVMetadataIdentifier(rawValue: "itsk/%A9prd")
    /// The iTunes metadata identifier for the publisher.
    public static let iTunesMetadataPublisher = AVMetadataIdentifier(rawValue: "itsk/%A9pub")
    /// The iTunes metadata identifier for the record company.
    public static let iTunesMetadataRecordCompany = AVMetadataIdentifier(rawValue: "itsk/%A9mak")
    /// The iTunes metadata identifier for the release date.
    public static let iTunesMetadataReleaseDate = AVMetadataIdentifier(rawValue: "itsk/%A9day")
    /// The iTunes metadata identifier for the soloist.
    public static let iTunesMetadataSoloist = AVMetadataIdentifier(rawValue: "itsk/%A9sol")
    /// The iTunes metadata identifier for the song id.
    public static let iTunesMetadataSongID = AVMetadataIdentifier(rawValue: "itsk/cnID")
    /// The iTunes metadata identifier for the song name.
    public static let iTunesMetadataSongName = AVMetadataIdentifier(rawValue: "itsk/%A9nam")
    /// The iTunes metadata identifier for the sound engineer.
    public static let iTunesMetadataSoundEngineer = AVMetadataIdentifier(rawValue: "itsk/%A9sne")
    /// The iTunes metadata identifier for the thanks.
    public static let iTunesMetadataThanks = AVMetadataIdentifier(rawValue: "itsk/%A9thx")
    /// The iTunes metadata identifier for the track number.
    public static let iTunesMetadataTrackNumber = AVMetadataIdentifier(rawValue: "itsk/trkn")
    /// The iTunes metadata identifier for the track sub title.
    public static let iTunesMetadataTrackSubTitle = AVMetadataIdentifier(rawValue: "itsk/%A9st3")
    /// The iTunes metadata identifier for the user comment.
    public static let iTunesMetadataUserComment = AVMetadataIdentifier(rawValue: "itsk/%A9cmt")
    /// The iTunes metadata identifier for the user genre.
    public static let iTunesMetadataUserGenre = AVMetadataIdentifier(rawValue: "itsk/%A9gen")
    /// The QuickTime metadata identifier for the accessibility description.
    public static let quickTimeMetadataAccessibilityDescription = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.accessibility.description")
    /// The QuickTime metadata identifier for the album.
    public static let quickTimeMetadataAlbum = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.album")
    /// The QuickTime metadata identifier for the arranger.
    public static let quickTimeMetadataArranger = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.arranger")
    /// The QuickTime metadata identifier for the artist.
    public static let quickTimeMetadataArtist = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.artist")
    /// The QuickTime metadata identifier for the artwork.
    public static let quickTimeMetadataArtwork = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.artwork")
    /// The QuickTime metadata identifier for the author.
    public static let quickTimeMetadataAuthor = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.author")
    /// The QuickTime metadata identifier for the camera frame readout time.
    public static let quickTimeMetadataCameraFrameReadoutTime = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.camera.framereadouttimeinmicroseconds")
    /// The QuickTime metadata identifier for the camera identifier.
    public static let quickTimeMetadataCameraIdentifier = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.camera.identifier")
    /// The QuickTime metadata identifier for the collection user.
    public static let quickTimeMetadataCollectionUser = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.collection.user")
    /// The QuickTime metadata identifier for the comment.
    public static let quickTimeMetadataComment = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.comment")
    /// The QuickTime metadata identifier for the composer.
    public static let quickTimeMetadataComposer = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.composer")
    /// The QuickTime metadata identifier for the content identifier.
    public static let quickTimeMetadataContentIdentifier = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.content.identifier")
    /// The QuickTime metadata identifier for the copyright.
    public static let quickTimeMetadataCopyright = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.copyright")
    /// The QuickTime metadata identifier for the creation date.
    public static let quickTimeMetadataCreationDate = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.creationdate")
    /// The QuickTime metadata identifier for the credits.
    public static let quickTimeMetadataCredits = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.credits")
    /// The QuickTime metadata identifier for the description.
    public static let quickTimeMetadataDescription = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.description")
    /// The QuickTime metadata identifier for the direction facing.
    public static let quickTimeMetadataDirectionFacing = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.direction.facing")
    /// The QuickTime metadata identifier for the direction motion.
    public static let quickTimeMetadataDirectionMotion = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.direction.motion")
    /// The QuickTime metadata identifier for the director.
    public static let quickTimeMetadataDirector = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.director")
    /// The QuickTime metadata identifier for the display name.
    public static let quickTimeMetadataDisplayName = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.displayname")
    /// The QuickTime metadata identifier for the encoded by.
    public static let quickTimeMetadataEncodedBy = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.encodedby")
    /// The QuickTime metadata identifier for the genre.
    public static let quickTimeMetadataGenre = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.genre")
    /// The QuickTime metadata identifier for the information.
    public static let quickTimeMetadataInformation = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.information")
    /// The QuickTime metadata identifier for the is montage.
    public static let quickTimeMetadataIsMontage = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.is-montage")
    /// The QuickTime metadata identifier for the keywords.
    public static let quickTimeMetadataKeywords = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.keywords")
    /// The QuickTime metadata identifier for the location body.
    public static let quickTimeMetadataLocationBody = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.location.body")
    /// The QuickTime metadata identifier for the location date.
    public static let quickTimeMetadataLocationDate = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.location.date")
    /// The QuickTime metadata identifier for the location iso6709.
    public static let quickTimeMetadataLocationISO6709 = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.location.ISO6709")
    /// The QuickTime metadata identifier for the location name.
    public static let quickTimeMetadataLocationName = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.location.name")
    /// The QuickTime metadata identifier for the location note.
    public static let quickTimeMetadataLocationNote = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.location.note")
    /// The QuickTime metadata identifier for the location role.
    public static let quickTimeMetadataLocationRole = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.location.role")
    /// The QuickTime metadata identifier for the make.
    public static let quickTimeMetadataMake = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.make")
    /// The QuickTime metadata identifier for the model.
    public static let quickTimeMetadataModel = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.model")
    /// The QuickTime metadata identifier for the original artist.
    public static let quickTimeMetadataOriginalArtist = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.originalartist")
    /// The QuickTime metadata identifier for the performer.
    public static let quickTimeMetadataPerformer = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.performer")
    /// The QuickTime metadata identifier for the phonogram rights.
    public static let quickTimeMetadataPhonogramRights = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.phonogramrights")
    /// The QuickTime metadata identifier for the producer.
    public static let quickTimeMetadataProducer = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.producer")
    /// The QuickTime metadata identifier for the publisher.
    public static let quickTimeMetadataPublisher = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.publisher")
    /// The QuickTime metadata identifier for the rating user.
    public static let quickTimeMetadataRatingUser = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.rating.user")
    /// The QuickTime metadata identifier for the software.
    public static let quickTimeMetadataSoftware = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.software")
    /// The QuickTime metadata identifier for the title.
    public static let quickTimeMetadataTitle = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.title")
    /// The QuickTime metadata identifier for the year.
    public static let quickTimeMetadataYear = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.year")
    /// The QuickTime metadata identifier for iXML production metadata.
    public static let quickTimeMetadataiXML = AVMetadataIdentifier(rawValue: "mdta/info.ixml.xml")
    /// The QuickTime metadata identifier for the auto live photo.
    public static let quickTimeMetadataAutoLivePhoto = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.live-photo.auto")
    /// The QuickTime metadata identifier for the detected cat body.
    public static let quickTimeMetadataDetectedCatBody = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.detected-cat-body")
    /// The QuickTime metadata identifier for the detected dog body.
    public static let quickTimeMetadataDetectedDogBody = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.detected-dog-body")
    /// The QuickTime metadata identifier for the detected face.
    public static let quickTimeMetadataDetectedFace = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.detected-face")
    /// The QuickTime metadata identifier for the detected human body.
    public static let quickTimeMetadataDetectedHumanBody = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.detected-human-body")
    /// The QuickTime metadata identifier for the detected salient object.
    public static let quickTimeMetadataDetectedSalientObject = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.detected-salient-object")
    /// The QuickTime metadata identifier for the live photo vitality score.
    public static let quickTimeMetadataLivePhotoVitalityScore = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.live-photo.vitality-score")
    /// The QuickTime metadata identifier for the live photo vitality scoring version.
    public static let quickTimeMetadataLivePhotoVitalityScoringVersion = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.live-photo.vitality-scoring-version")
    /// The QuickTime metadata identifier for the location horizontal accuracy in meters.
    public static let quickTimeMetadataLocationHorizontalAccuracyInMeters = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.location.accuracy.horizontal")
    /// The QuickTime metadata identifier for the preferred affine transform.
    public static let quickTimeMetadataPreferredAffineTransform = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.preferred-affine-transform")
    /// The QuickTime metadata identifier for the spatial over capture quality score.
    public static let quickTimeMetadataSpatialOverCaptureQualityScore = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.spatial-overcapture.quality-score")
    /// The QuickTime metadata identifier for the spatial over capture quality scoring version.
    public static let quickTimeMetadataSpatialOverCaptureQualityScoringVersion = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.spatial-overcapture.quality-scoring-version")
    /// The QuickTime metadata identifier for the video orientation.
    public static let quickTimeMetadataVideoOrientation = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.video-orientation")
    /// The ID3 identifier for the album sort order frame.
    public static let id3MetadataAlbumSortOrder = AVMetadataIdentifier(rawValue: "id3/TSOA")
    /// The ID3 identifier for the album title frame.
    public static let id3MetadataAlbumTitle = AVMetadataIdentifier(rawValue: "id3/TALB")
    /// The ID3 identifier for the attached picture frame.
    public static let id3MetadataAttachedPicture = AVMetadataIdentifier(rawValue: "id3/APIC")
    /// The ID3 identifier for the audio encryption frame.
    public static let id3MetadataAudioEncryption = AVMetadataIdentifier(rawValue: "id3/AENC")
    /// The ID3 identifier for the audio seek point index frame.
    public static let id3MetadataAudioSeekPointIndex = AVMetadataIdentifier(rawValue: "id3/ASPI")
    /// The ID3 identifier for the band frame.
    public static let id3MetadataBand = AVMetadataIdentifier(rawValue: "id3/TPE2")
    /// The ID3 identifier for the beats per minute frame.
    public static let id3MetadataBeatsPerMinute = AVMetadataIdentifier(rawValue: "id3/TBPM")
    /// The ID3 identifier for the comments frame.
    public static let id3MetadataComments = AVMetadataIdentifier(rawValue: "id3/COMM")
    /// The ID3 identifier for the commercial frame.
    public static let id3MetadataCommercial = AVMetadataIdentifier(rawValue: "id3/COMR")
    /// The ID3 identifier for the commercial information frame.
    public static let id3MetadataCommercialInformation = AVMetadataIdentifier(rawValue: "id3/WCOM")
    /// The ID3 identifier for the composer frame.
    public static let id3MetadataComposer = AVMetadataIdentifier(rawValue: "id3/TCOM")
    /// The ID3 identifier for the conductor frame.
    public static let id3MetadataConductor = AVMetadataIdentifier(rawValue: "id3/TPE3")
    /// The ID3 identifier for the content group description frame.
    public static let id3MetadataContentGroupDescription = AVMetadataIdentifier(rawValue: "id3/TIT1")
    /// The ID3 identifier for the content type frame.
    public static let id3MetadataContentType = AVMetadataIdentifier(rawValue: "id3/TCON")
    /// The ID3 identifier for the copyright frame.
    public static let id3MetadataCopyright = AVMetadataIdentifier(rawValue: "id3/TCOP")
    /// The ID3 identifier for the copyright information frame.
    public static let id3MetadataCopyrightInformation = AVMetadataIdentifier(rawValue: "id3/WCOP")
    /// The ID3 identifier for the date frame.
    public static let id3MetadataDate = AVMetadataIdentifier(rawValue: "id3/TDAT")
    /// The ID3 identifier for the encoded by frame.
    public static let id3MetadataEncodedBy = AVMetadataIdentifier(rawValue: "id3/TENC")
    /// The ID3 identifier for the encoded with frame.
    public static let id3MetadataEncodedWith = AVMetadataIdentifier(rawValue: "id3/TSSE")
    /// The ID3 identifier for the encoding time frame.
    public static let id3MetadataEncodingTime = AVMetadataIdentifier(rawValue: "id3/TDEN")
    /// The ID3 identifier for the encryption frame.
    public static let id3MetadataEncryption = AVMetadataIdentifier(rawValue: "id3/ENCR")
    /// The ID3 identifier for the equalization frame.
    public static let id3MetadataEqualization = AVMetadataIdentifier(rawValue: "id3/EQUA")
    /// The ID3 identifier for the equalization2 frame.
    public static let id3MetadataEqualization2 = AVMetadataIdentifier(rawValue: "id3/EQU2")
    /// The ID3 identifier for the event timing codes frame.
    public static let id3MetadataEventTimingCodes = AVMetadataIdentifier(rawValue: "id3/ETCO")
    /// The ID3 identifier for the file owner frame.
    public static let id3MetadataFileOwner = AVMetadataIdentifier(rawValue: "id3/TOWN")
    /// The ID3 identifier for the file type frame.
    public static let id3MetadataFileType = AVMetadataIdentifier(rawValue: "id3/TFLT")
    /// The ID3 identifier for the general encapsulated object frame.
    public static let id3MetadataGeneralEncapsulatedObject = AVMetadataIdentifier(rawValue: "id3/GEOB")
    /// The ID3 identifier for the group identifier frame.
    public static let id3MetadataGroupIdentifier = AVMetadataIdentifier(rawValue: "id3/GRID")
    /// The ID3 identifier for the initial key frame.
    public static let id3MetadataInitialKey = AVMetadataIdentifier(rawValue: "id3/TKEY")
    /// The ID3 identifier for the international standard recording code frame.
    public static let id3MetadataInternationalStandardRecordingCode = AVMetadataIdentifier(rawValue: "id3/TSRC")
    /// The ID3 identifier for the internet radio station name frame.
    public static let id3MetadataInternetRadioStationName = AVMetadataIdentifier(rawValue: "id3/TRSN")
    /// The ID3 identifier for the internet radio station owner frame.
    public static let id3MetadataInternetRadioStationOwner = AVMetadataIdentifier(rawValue: "id3/TRSO")
    /// The ID3 identifier for the involved people list v23 frame.
    public static let id3MetadataInvolvedPeopleList_v23 = AVMetadataIdentifier(rawValue: "id3/IPLS")
    /// The ID3 identifier for the involved people list v24 frame.
    public static let id3MetadataInvolvedPeopleList_v24 = AVMetadataIdentifier(rawValue: "id3/TIPL")
    /// The ID3 identifier for the language frame.
    public static let id3MetadataLanguage = AVMetadataIdentifier(rawValue: "id3/TLAN")
    /// The ID3 identifier for the lead performer frame.
    public static let id3MetadataLeadPerformer = AVMetadataIdentifier(rawValue: "id3/TPE1")
    /// The ID3 identifier for the length frame.
    public static let id3MetadataLength = AVMetadataIdentifier(rawValue: "id3/TLEN")
    /// The ID3 identifier for the link frame.
    public static let id3MetadataLink = AVMetadataIdentifier(rawValue: "id3/LINK")
    /// The ID3 identifier for the lyricist frame.
    public static let id3MetadataLyricist = AVMetadataIdentifier(rawValue: "id3/TEXT")
    /// The ID3 identifier for the mpeg location lookup table frame.
    public static let id3MetadataMPEGLocationLookupTable = AVMetadataIdentifier(rawValue: "id3/MLLT")
    /// The ID3 identifier for the media type frame.
    public static let id3MetadataMediaType = AVMetadataIdentifier(rawValue: "id3/TMED")
    /// The ID3 identifier for the modified by frame.
    public static let id3MetadataModifiedBy = AVMetadataIdentifier(rawValue: "id3/TPE4")
    /// The ID3 identifier for the mood frame.
    public static let id3MetadataMood = AVMetadataIdentifier(rawValue: "id3/TMOO")
    /// The ID3 identifier for the music cd identifier frame.
    public static let id3MetadataMusicCDIdentifier = AVMetadataIdentifier(rawValue: "id3/MCDI")
    /// The ID3 identifier for the musician credits list frame.
    public static let id3MetadataMusicianCreditsList = AVMetadataIdentifier(rawValue: "id3/TMCL")
    /// The ID3 identifier for the official artist webpage frame.
    public static let id3MetadataOfficialArtistWebpage = AVMetadataIdentifier(rawValue: "id3/WOAR")
    /// The ID3 identifier for the official audio file webpage frame.
    public static let id3MetadataOfficialAudioFileWebpage = AVMetadataIdentifier(rawValue: "id3/WOAF")
    /// The ID3 identifier for the official audio source webpage frame.
    public static let id3MetadataOfficialAudioSourceWebpage = AVMetadataIdentifier(rawValue: "id3/WOAS")
    /// The ID3 identifier for the official internet radio station homepage frame.
    public static let id3MetadataOfficialInternetRadioStationHomepage = AVMetadataIdentifier(rawValue: "id3/WORS")
    /// The ID3 identifier for the official publisher webpage frame.
    public static let id3MetadataOfficialPublisherWebpage = AVMetadataIdentifier(rawValue: "id3/WPUB")
    /// The ID3 identifier for the original album title frame.
    public static let id3MetadataOriginalAlbumTitle = AVMetadataIdentifier(rawValue: "id3/TOAL")
    /// The ID3 identifier for the original artist frame.
    public static let id3MetadataOriginalArtist = AVMetadataIdentifier(rawValue: "id3/TOPE")
    /// The ID3 identifier for the original filename frame.
    public static let id3MetadataOriginalFilename = AVMetadataIdentifier(rawValue: "id3/TOFN")
    /// The ID3 identifier for the original lyricist frame.
    public static let id3MetadataOriginalLyricist = AVMetadataIdentifier(rawValue: "id3/TOLY")
    /// The ID3 identifier for the original release time frame.
    public static let id3MetadataOriginalReleaseTime = AVMetadataIdentifier(rawValue: "id3/TDOR")
    /// The ID3 identifier for the original release year frame.
    public static let id3MetadataOriginalReleaseYear = AVMetadataIdentifier(rawValue: "id3/TORY")
    /// The ID3 identifier for the ownership frame.
    public static let id3MetadataOwnership = AVMetadataIdentifier(rawValue: "id3/OWNE")
    /// The ID3 identifier for the part of a set frame.
    public static let id3MetadataPartOfASet = AVMetadataIdentifier(rawValue: "id3/TPOS")
    /// The ID3 identifier for the payment frame.
    public static let id3MetadataPayment = AVMetadataIdentifier(rawValue: "id3/WPAY")
    /// The ID3 identifier for the performer sort order frame.
    public static let id3MetadataPerformerSortOrder = AVMetadataIdentifier(rawValue: "id3/TSOP")
    /// The ID3 identifier for the play counter frame.
    public static let id3MetadataPlayCounter = AVMetadataIdentifier(rawValue: "id3/PCNT")
    /// The ID3 identifier for the playlist delay frame.
    public static let id3MetadataPlaylistDelay = AVMetadataIdentifier(rawValue: "id3/TDLY")
    /// The ID3 identifier for the popularimeter frame.
    public static let id3MetadataPopularimeter = AVMetadataIdentifier(rawValue: "id3/POPM")
    /// The ID3 identifier for the position synchronization frame.
    public static let id3MetadataPositionSynchronization = AVMetadataIdentifier(rawValue: "id3/POSS")
    /// The ID3 identifier for the private frame.
    public static let id3MetadataPrivate = AVMetadataIdentifier(rawValue: "id3/PRIV")
    /// The ID3 identifier for the produced notice frame.
    public static let id3MetadataProducedNotice = AVMetadataIdentifier(rawValue: "id3/TPRO")
    /// The ID3 identifier for the publisher frame.
    public static let id3MetadataPublisher = AVMetadataIdentifier(rawValue: "id3/TPUB")
    /// The ID3 identifier for the recommended buffer size frame.
    public static let id3MetadataRecommendedBufferSize = AVMetadataIdentifier(rawValue: "id3/RBUF")
    /// The ID3 identifier for the recording dates frame.
    public static let id3MetadataRecordingDates = AVMetadataIdentifier(rawValue: "id3/TRDA")
    /// The ID3 identifier for the recording time frame.
    public static let id3MetadataRecordingTime = AVMetadataIdentifier(rawValue: "id3/TDRC")
    /// The ID3 identifier for the relative volume adjustment frame.
    public static let id3MetadataRelativeVolumeAdjustment = AVMetadataIdentifier(rawValue: "id3/RVAD")
    /// The ID3 identifier for the relative volume adjustment2 frame.
    public static let id3MetadataRelativeVolumeAdjustment2 = AVMetadataIdentifier(rawValue: "id3/RVA2")
    /// The ID3 identifier for the release time frame.
    public static let id3MetadataReleaseTime = AVMetadataIdentifier(rawValue: "id3/TDRL")
    /// The ID3 identifier for the reverb frame.
    public static let id3MetadataReverb = AVMetadataIdentifier(rawValue: "id3/RVRB")
    /// The ID3 identifier for the seek frame.
    public static let id3MetadataSeek = AVMetadataIdentifier(rawValue: "id3/SEEK")
    /// The ID3 identifier for the set subtitle frame.
    public static let id3MetadataSetSubtitle = AVMetadataIdentifier(rawValue: "id3/TSST")
    /// The ID3 identifier for the signature frame.
    public static let id3MetadataSignature = AVMetadataIdentifier(rawValue: "id3/SIGN")
    /// The ID3 identifier for the size frame.
    public static let id3MetadataSize = AVMetadataIdentifier(rawValue: "id3/TSIZ")
    /// The ID3 identifier for the sub title frame.
    public static let id3MetadataSubTitle = AVMetadataIdentifier(rawValue: "id3/TIT3")
    /// The ID3 identifier for the synchronized lyric frame.
    public static let id3MetadataSynchronizedLyric = AVMetadataIdentifier(rawValue: "id3/SYLT")
    /// The ID3 identifier for the synchronized tempo codes frame.
    public static let id3MetadataSynchronizedTempoCodes = AVMetadataIdentifier(rawValue: "id3/SYTC")
    /// The ID3 identifier for the tagging time frame.
    public static let id3MetadataTaggingTime = AVMetadataIdentifier(rawValue: "id3/TDTG")
    /// The ID3 identifier for the terms of use frame.
    public static let id3MetadataTermsOfUse = AVMetadataIdentifier(rawValue: "id3/USER")
    /// The ID3 identifier for the time frame.
    public static let id3MetadataTime = AVMetadataIdentifier(rawValue: "id3/TIME")
    /// The ID3 identifier for the title description frame.
    public static let id3MetadataTitleDescription = AVMetadataIdentifier(rawValue: "id3/TIT2")
    /// The ID3 identifier for the title sort order frame.
    public static let id3MetadataTitleSortOrder = AVMetadataIdentifier(rawValue: "id3/TSOT")
    /// The ID3 identifier for the track number frame.
    public static let id3MetadataTrackNumber = AVMetadataIdentifier(rawValue: "id3/TRCK")
    /// The ID3 identifier for the unique file identifier frame.
    public static let id3MetadataUniqueFileIdentifier = AVMetadataIdentifier(rawValue: "id3/UFID")
    /// The ID3 identifier for the unsynchronized lyric frame.
    public static let id3MetadataUnsynchronizedLyric = AVMetadataIdentifier(rawValue: "id3/USLT")
    /// The ID3 identifier for the user text frame.
    public static let id3MetadataUserText = AVMetadataIdentifier(rawValue: "id3/TXXX")
    /// The ID3 identifier for the user url frame.
    public static let id3MetadataUserURL = AVMetadataIdentifier(rawValue: "id3/WXXX")
    /// The ID3 identifier for the year frame.
    public static let id3MetadataYear = AVMetadataIdentifier(rawValue: "id3/TYER")
}
