import Testing
import OpenAVFoundation

// Apple's declarations of the asset classes (AVAsset, AVURLAsset, AVAssetTrack, the loadable
// properties, the media types and file types, the metadata items, keys and identifiers), of
// AVAssetReader and its outputs, and of AVAssetImageGenerator, spelled as Apple's Swift SDK
// spells them. Each typed reference breaks the build when a name, a label, an optionality, an
// `async` or a `throws` drifts from Apple's. Nothing here reads media.

/// Loads values the way Apple-platform code does (compiled, never run): one property, several
/// at once, a track's and a metadata item's, and a status without loading.
private func loadsAsAppleCodeDoes(_ asset: AVURLAsset, _ track: AVAssetTrack, _ item: AVMetadataItem) async throws {
    let duration: CMTime = try await asset.load(.duration)
    let (tracks, metadata): ([AVAssetTrack], [AVMetadataItem]) = try await asset.load(.tracks, .metadata)
    let (size, transform, rate): (CGSize, CGAffineTransform, Float) = try await track.load(.naturalSize, .preferredTransform, .nominalFrameRate)
    let title: String? = try await item.load(.stringValue)
    let status: AVAsyncProperty<AVURLAsset, CMTime>.Status = asset.status(of: .duration)
    let item = AVPlayerItem(asset: asset, automaticallyLoadedAssetKeys: [.duration, .tracks, .isPlayable])
    _ = (duration, tracks, metadata, size, transform, rate, title, status, item)
}

/// Whether a type adopts `AVAsynchronousKeyValueLoading`, checked by the compiler.
private func adoptsKeyValueLoading<T: AVAsynchronousKeyValueLoading>(_ type: T.Type) {}

@Suite(.timeLimit(.minutes(10))) struct AssetsAppleDeclarationTests {
    // https://developer.apple.com/documentation/avfoundation/avasset
    @Test func asset() {
        let _: (URL) -> AVAsset = AVAsset.init(url:)
        let _: KeyPath<AVAsset, CMTime> = \AVAsset.duration
        let _: KeyPath<AVAsset, [AVAssetTrack]> = \AVAsset.tracks
        let _: (AVAsset) -> (AVMediaType) -> [AVAssetTrack] = AVAsset.tracks(withMediaType:)
        let _: (AVAsset) -> (CMPersistentTrackID) -> AVAssetTrack? = AVAsset.track(withTrackID:)
        let _: (AVAsset) -> (AVMediaCharacteristic) -> [AVAssetTrack] = AVAsset.tracks(withMediaCharacteristic:)
        let _: (AVAsset) -> (AVMediaType) async throws -> [AVAssetTrack] = AVAsset.loadTracks(withMediaType:)
        let _: (AVAsset) -> (CMPersistentTrackID) async throws -> AVAssetTrack? = AVAsset.loadTrack(withTrackID:)
        let _: (AVAsset) -> (AVMediaCharacteristic) async throws -> [AVAssetTrack] = AVAsset.loadTracks(withMediaCharacteristic:)
        let _: (AVAsset) -> (AVMediaType, @escaping @Sendable ([AVAssetTrack]?, (any Error)?) -> Void) -> Void =
            AVAsset.loadTracks(withMediaType:completionHandler:)
        let _: (AVAsset) -> (CMPersistentTrackID, @escaping @Sendable (AVAssetTrack?, (any Error)?) -> Void) -> Void =
            AVAsset.loadTrack(withTrackID:completionHandler:)
        let _: (AVAsset) -> (AVMediaCharacteristic, @escaping @Sendable ([AVAssetTrack]?, (any Error)?) -> Void) -> Void =
            AVAsset.loadTracks(withMediaCharacteristic:completionHandler:)
        let _: (AVAsset) -> () -> CMPersistentTrackID = AVAsset.unusedTrackID
        let _: (AVAsset) -> () async throws -> CMPersistentTrackID = AVAsset.findUnusedTrackID
        let _: (AVAsset) -> (@escaping @Sendable (CMPersistentTrackID, (any Error)?) -> Void) -> Void =
            AVAsset.findUnusedTrackID(completionHandler:)
        let _: KeyPath<AVAsset, Bool> = \AVAsset.isPlayable
        let _: KeyPath<AVAsset, Bool> = \AVAsset.isReadable
        let _: KeyPath<AVAsset, Bool> = \AVAsset.isExportable
        let _: KeyPath<AVAsset, Bool> = \AVAsset.isComposable
        let _: KeyPath<AVAsset, Bool> = \AVAsset.hasProtectedContent
        let _: KeyPath<AVAsset, Bool> = \AVAsset.providesPreciseDurationAndTiming
        let _: KeyPath<AVAsset, Float> = \AVAsset.preferredRate
        let _: KeyPath<AVAsset, Float> = \AVAsset.preferredVolume
        let _: KeyPath<AVAsset, CGAffineTransform> = \AVAsset.preferredTransform
        let _: KeyPath<AVAsset, [AVMetadataItem]> = \AVAsset.metadata
        let _: KeyPath<AVAsset, [AVMetadataItem]> = \AVAsset.commonMetadata
        let _: KeyPath<AVAsset, AVMetadataItem?> = \AVAsset.creationDate
        let _: KeyPath<AVAsset, String?> = \AVAsset.lyrics
        let _: KeyPath<AVAsset, [AVMetadataFormat]> = \AVAsset.availableMetadataFormats
        let _: (AVAsset) -> (AVMetadataFormat) -> [AVMetadataItem] = AVAsset.metadata(forFormat:)
        let _: (AVAsset) -> (AVMetadataFormat) async throws -> [AVMetadataItem] = AVAsset.loadMetadata(for:)
        let _: (AVAsset) -> (AVMetadataFormat, @escaping @Sendable ([AVMetadataItem]?, (any Error)?) -> Void) -> Void =
            AVAsset.loadMetadata(for:completionHandler:)
        let _: (AVAsset) -> () -> Void = AVAsset.cancelLoading
        let _: (AVAsset) -> (String, NSErrorPointer) -> AVKeyValueStatus = AVAsset.statusOfValue(forKey:error:)
        let _: (AVAsset) -> ([String], (@Sendable () -> Void)?) -> Void = AVAsset.loadValuesAsynchronously(forKeys:completionHandler:)
        adoptsKeyValueLoading(AVAsset.self)
        adoptsKeyValueLoading(AVURLAsset.self)
    }

    // https://developer.apple.com/documentation/avfoundation/avpartialasyncproperty (AVAsset)
    @Test func assetLoadableProperties() {
        let _: AVAsyncProperty<AVAsset, CMTime> = .duration
        let _: AVAsyncProperty<AVAsset, [AVAssetTrack]> = .tracks
        let _: AVAsyncProperty<AVAsset, Bool> = .isPlayable
        let _: AVAsyncProperty<AVAsset, Bool> = .isReadable
        let _: AVAsyncProperty<AVAsset, Bool> = .isExportable
        let _: AVAsyncProperty<AVAsset, Bool> = .isComposable
        let _: AVAsyncProperty<AVAsset, Bool> = .hasProtectedContent
        let _: AVAsyncProperty<AVAsset, Bool> = .providesPreciseDurationAndTiming
        let _: AVAsyncProperty<AVAsset, Float> = .preferredRate
        let _: AVAsyncProperty<AVAsset, Float> = .preferredVolume
        let _: AVAsyncProperty<AVAsset, CGAffineTransform> = .preferredTransform
        let _: AVAsyncProperty<AVAsset, [AVMetadataItem]> = .metadata
        let _: AVAsyncProperty<AVAsset, [AVMetadataItem]> = .commonMetadata
        let _: AVAsyncProperty<AVAsset, AVMetadataItem?> = .creationDate
        let _: AVAsyncProperty<AVAsset, String?> = .lyrics
        let _: AVAsyncProperty<AVAsset, [AVMetadataFormat]> = .availableMetadataFormats
        // Apple declares them on the partial property, so they name its values too.
        let _: AVAsyncProperty<AVURLAsset, CMTime> = AVPartialAsyncProperty<AVURLAsset>.duration
        let keys: [AVPartialAsyncProperty<AVAsset>] = [.duration, .tracks, .isPlayable, .preferredTransform]
        let _: [AVAnyAsyncProperty] = keys
        #expect(keys.map(\.description) == ["duration", "tracks", "playable", "preferredTransform"])
        let _: (AVURLAsset, AVAssetTrack, AVMetadataItem) async throws -> Void = loadsAsAppleCodeDoes
    }

    // https://developer.apple.com/documentation/avfoundation/avasyncproperty/status
    @Test func loadingStatus() {
        let statuses: [AVAsyncProperty<AVAsset, CMTime>.Status] = [
            .notYetLoaded, .loading, .loaded(.zero), .failed(NSError(domain: "AVFoundationErrorDomain", code: -11800)),
        ]
        #expect(statuses[2] == .loaded(.zero) && statuses[0] != statuses[1])
        let _: [AVKeyValueStatus] = [.unknown, .loading, .loaded, .failed, .cancelled]
        #expect(AVKeyValueStatus.unknown.rawValue == 0 && AVKeyValueStatus.loading.rawValue == 1)
        #expect(AVKeyValueStatus.loaded.rawValue == 2 && AVKeyValueStatus.failed.rawValue == 3 && AVKeyValueStatus.cancelled.rawValue == 4)
        // A fresh asset has loaded nothing; an unknown key is a failure with a reason.
        let asset = AVURLAsset(url: URL(fileURLWithPath: "/nonexistent.mov"))
        #expect(asset.statusOfValue(forKey: "duration", error: nil) == .unknown)
        var error: NSError?
        #expect(asset.statusOfValue(forKey: "noSuchKey", error: &error) == .failed && error != nil)
        if case .notYetLoaded = asset.status(of: .duration) {} else { Issue.record("a fresh asset has loaded its duration") }
    }

    // https://developer.apple.com/documentation/avfoundation/avurlasset
    @Test func urlAsset() {
        let _: (URL, [String: Any]?) -> AVURLAsset = AVURLAsset.init(url:options:)
        let _: KeyPath<AVURLAsset, URL> = \AVURLAsset.url
        let _: () -> [AVFileType] = AVURLAsset.audiovisualTypes
        let _: () -> [String] = AVURLAsset.audiovisualMIMETypes
        let _: (String) -> Bool = AVURLAsset.isPlayableExtendedMIMEType
        let _: String = AVURLAssetPreferPreciseDurationAndTimingKey
        let _: String = AVURLAssetHTTPUserAgentKey
        let url = URL(fileURLWithPath: "/nonexistent.mov")
        let asset = AVURLAsset(url: url, options: [AVURLAssetPreferPreciseDurationAndTimingKey: true])
        #expect(asset.url == url && AVURLAsset(url: url).url == url)
        #expect(AVURLAsset.audiovisualTypes().contains(.mov) && AVURLAsset.audiovisualMIMETypes().contains("video/mp4"))
        #expect(AVURLAsset.isPlayableExtendedMIMEType("video/mp4; codecs=\"avc1.42E01E\""))
        #expect(!AVURLAsset.isPlayableExtendedMIMEType("application/pdf"))
        // Not declared by Apple's SDK, but the string its framework honours: code passes the literal.
        #expect(AVURLAssetHTTPHeaderFieldsKey == "AVURLAssetHTTPHeaderFieldsKey")
    }

    // https://developer.apple.com/documentation/avfoundation/avassettrack
    @Test func assetTrack() {
        let _: KeyPath<AVAssetTrack, AVAsset?> = \AVAssetTrack.asset
        let _: KeyPath<AVAssetTrack, CMPersistentTrackID> = \AVAssetTrack.trackID
        let _: KeyPath<AVAssetTrack, AVMediaType> = \AVAssetTrack.mediaType
        let _: KeyPath<AVAssetTrack, [Any]> = \AVAssetTrack.formatDescriptions
        let _: KeyPath<AVAssetTrack, Bool> = \AVAssetTrack.isPlayable
        let _: KeyPath<AVAssetTrack, Bool> = \AVAssetTrack.isDecodable
        let _: KeyPath<AVAssetTrack, Bool> = \AVAssetTrack.isEnabled
        let _: KeyPath<AVAssetTrack, Bool> = \AVAssetTrack.isSelfContained
        let _: (AVAssetTrack) -> (AVMediaCharacteristic) -> Bool = AVAssetTrack.hasMediaCharacteristic(_:)
        let _: KeyPath<AVAssetTrack, CMTimeRange> = \AVAssetTrack.timeRange
        let _: KeyPath<AVAssetTrack, CMTimeScale> = \AVAssetTrack.naturalTimeScale
        let _: KeyPath<AVAssetTrack, Float> = \AVAssetTrack.estimatedDataRate
        let _: KeyPath<AVAssetTrack, String?> = \AVAssetTrack.languageCode
        let _: KeyPath<AVAssetTrack, String?> = \AVAssetTrack.extendedLanguageTag
        let _: KeyPath<AVAssetTrack, CGSize> = \AVAssetTrack.naturalSize
        let _: KeyPath<AVAssetTrack, CGAffineTransform> = \AVAssetTrack.preferredTransform
        let _: KeyPath<AVAssetTrack, Float> = \AVAssetTrack.preferredVolume
        let _: KeyPath<AVAssetTrack, Float> = \AVAssetTrack.nominalFrameRate
        let _: KeyPath<AVAssetTrack, CMTime> = \AVAssetTrack.minFrameDuration
        let _: KeyPath<AVAssetTrack, Bool> = \AVAssetTrack.requiresFrameReordering
        let _: KeyPath<AVAssetTrack, [AVAssetTrackSegment]> = \AVAssetTrack.segments
        let _: (AVAssetTrack) -> (CMTime) -> AVAssetTrackSegment? = AVAssetTrack.segment(forTrackTime:)
        let _: (AVAssetTrack) -> (CMTime) async throws -> AVAssetTrackSegment? = AVAssetTrack.loadSegment(forTrackTime:)
        let _: (AVAssetTrack) -> (CMTime, @escaping @Sendable (AVAssetTrackSegment?, (any Error)?) -> Void) -> Void =
            AVAssetTrack.loadSegment(forTrackTime:completionHandler:)
        let _: KeyPath<AVAssetTrack, [AVMetadataItem]> = \AVAssetTrack.metadata
        let _: KeyPath<AVAssetTrack, [AVMetadataItem]> = \AVAssetTrack.commonMetadata
        let _: KeyPath<AVAssetTrack, [AVMetadataFormat]> = \AVAssetTrack.availableMetadataFormats
        let _: (AVAssetTrack) -> (AVMetadataFormat) -> [AVMetadataItem] = AVAssetTrack.metadata(forFormat:)
        let _: (AVAssetTrack) -> (AVMetadataFormat) async throws -> [AVMetadataItem] = AVAssetTrack.loadMetadata(for:)
        let _: (AVAssetTrack) -> (AVMetadataFormat, @escaping @Sendable ([AVMetadataItem]?, (any Error)?) -> Void) -> Void =
            AVAssetTrack.loadMetadata(for:completionHandler:)
        let _: (AVAssetTrack) -> (String, NSErrorPointer) -> AVKeyValueStatus = AVAssetTrack.statusOfValue(forKey:error:)
        let _: (AVAssetTrack) -> ([String], (@Sendable () -> Void)?) -> Void = AVAssetTrack.loadValuesAsynchronously(forKeys:completionHandler:)
        adoptsKeyValueLoading(AVAssetTrack.self)
        // https://developer.apple.com/documentation/avfoundation/avassettracksegment
        let _: KeyPath<AVAssetTrackSegment, CMTimeMapping> = \AVAssetTrackSegment.timeMapping
        let _: KeyPath<AVAssetTrackSegment, Bool> = \AVAssetTrackSegment.isEmpty
    }

    // https://developer.apple.com/documentation/avfoundation/avassettrack-async-properties
    @Test func trackLoadableProperties() {
        let _: AVAsyncProperty<AVAssetTrack, [CMFormatDescription]> = .formatDescriptions
        let _: AVAsyncProperty<AVAssetTrack, Bool> = .isPlayable
        let _: AVAsyncProperty<AVAssetTrack, Bool> = .isDecodable
        let _: AVAsyncProperty<AVAssetTrack, Bool> = .isEnabled
        let _: AVAsyncProperty<AVAssetTrack, Bool> = .isSelfContained
        let _: AVAsyncProperty<AVAssetTrack, Bool> = .requiresFrameReordering
        let _: AVAsyncProperty<AVAssetTrack, CMTimeRange> = .timeRange
        let _: AVAsyncProperty<AVAssetTrack, CMTimeScale> = .naturalTimeScale
        let _: AVAsyncProperty<AVAssetTrack, Float> = .estimatedDataRate
        let _: AVAsyncProperty<AVAssetTrack, Float> = .nominalFrameRate
        let _: AVAsyncProperty<AVAssetTrack, Float> = .preferredVolume
        let _: AVAsyncProperty<AVAssetTrack, String?> = .languageCode
        let _: AVAsyncProperty<AVAssetTrack, String?> = .extendedLanguageTag
        let _: AVAsyncProperty<AVAssetTrack, CGSize> = .naturalSize
        let _: AVAsyncProperty<AVAssetTrack, CGAffineTransform> = .preferredTransform
        let _: AVAsyncProperty<AVAssetTrack, CMTime> = .minFrameDuration
        let _: AVAsyncProperty<AVAssetTrack, [AVMediaCharacteristic]> = .mediaCharacteristics
        let _: AVAsyncProperty<AVAssetTrack, [AVAssetTrackSegment]> = .segments
        let _: AVAsyncProperty<AVAssetTrack, [AVMetadataItem]> = .metadata
        let _: AVAsyncProperty<AVAssetTrack, [AVMetadataItem]> = .commonMetadata
        let _: AVAsyncProperty<AVAssetTrack, [AVMetadataFormat]> = .availableMetadataFormats
        let _: AVAsyncProperty<AVAssetTrack, CGSize> = AVPartialAsyncProperty<AVAssetTrack>.naturalSize
    }

    // https://developer.apple.com/documentation/avfoundation/avmediatype
    @Test func mediaTypes() {
        let _: [AVMediaType] = [
            .video, .audio, .text, .closedCaption, .subtitle, .timecode, .metadata, .muxed, .metadataObject, .depthData,
            .haptic, .auxiliaryPicture,
        ]
        let _: (String) -> AVMediaType = AVMediaType.init(rawValue:)
        let _: (String) -> AVMediaType = AVMediaType.init(_:)
        #expect(AVMediaType.metadataObject.rawValue == "mobj")
    }

    // https://developer.apple.com/documentation/avfoundation/avfiletype
    @Test func fileTypes() {
        let _: [AVFileType] = [
            .mov, .mp4, .m4v, .m4a, .mobile3GPP, .mobile3GPP2, .caf, .wav, .aiff, .aifc, .amr, .mp3, .au, .ac3, .eac3,
            .jpg, .dng, .heic, .avci, .heif, .tif, .appleiTT, .SCC, .AHAP, .dcm,
        ]
        let _: (String) -> AVFileType = AVFileType.init(rawValue:)
        let _: (String) -> AVFileType = AVFileType.init(_:)
        // Apple's pages give these two values.
        #expect(AVFileType.AHAP.rawValue == "public.haptics-content")
        #expect(AVFileType.dcm.rawValue == "org.nema.dicom")
    }

    // https://developer.apple.com/documentation/avfoundation/avmediacharacteristic
    @Test func mediaCharacteristics() {
        let _: [AVMediaCharacteristic] = [
            .visual, .audible, .legible, .frameBased, .usesWideGamutColorSpace, .containsHDRVideo, .containsAlphaChannel,
            .isMainProgramContent, .isAuxiliaryContent, .isOriginalContent, .containsOnlyForcedSubtitles,
            .transcribesSpokenDialogForAccessibility, .describesMusicAndSoundForAccessibility, .easyToRead,
            .describesVideoForAccessibility, .languageTranslation, .dubbedTranslation, .voiceOverTranslation,
        ]
        let _: (String) -> AVMediaCharacteristic = AVMediaCharacteristic.init(rawValue:)
        let _: (String) -> AVMediaCharacteristic = AVMediaCharacteristic.init(_:)
    }

    // https://developer.apple.com/documentation/avfoundation/avmetadataformat and avmetadatakeyspace
    @Test func metadataFormatsKeySpacesAndExtraAttributes() {
        let _: [AVMetadataFormat] = [
            .quickTimeUserData, .isoUserData, .quickTimeMetadata, .iTunesMetadata, .id3Metadata, .hlsMetadata, .unknown,
        ]
        let _: (String) -> AVMetadataFormat = AVMetadataFormat.init(rawValue:)
        let _: [AVMetadataKeySpace] = [
            .common, .quickTimeUserData, .isoUserData, .quickTimeMetadata, .iTunes, .id3, .icy, .audioFile, .hlsDateRange,
        ]
        let _: (String) -> AVMetadataKeySpace = AVMetadataKeySpace.init(rawValue:)
        let _: (String) -> AVMetadataKeySpace = AVMetadataKeySpace.init(_:)
        let _: [AVMetadataExtraAttributeKey] = [.valueURI, .baseURI, .info]
        let _: (String) -> AVMetadataExtraAttributeKey = AVMetadataExtraAttributeKey.init(rawValue:)
        let _: (String) -> AVMetadataExtraAttributeKey = AVMetadataExtraAttributeKey.init(_:)
    }

    // https://developer.apple.com/documentation/avfoundation/avmetadataidentifier
    @Test func metadataIdentifiers() {
        let _: [AVMetadataIdentifier] = [
            .commonIdentifierTitle, .commonIdentifierCreator, .commonIdentifierSubject,
            .commonIdentifierDescription, .commonIdentifierPublisher, .commonIdentifierContributor,
            .commonIdentifierCreationDate, .commonIdentifierLastModifiedDate, .commonIdentifierType,
            .commonIdentifierFormat, .commonIdentifierAssetIdentifier, .commonIdentifierSource,
            .commonIdentifierLanguage, .commonIdentifierRelation, .commonIdentifierLocation,
            .commonIdentifierCopyrights, .commonIdentifierAlbumName, .commonIdentifierAuthor,
            .commonIdentifierArtist, .commonIdentifierArtwork, .commonIdentifierMake, .commonIdentifierModel,
            .commonIdentifierSoftware, .commonIdentifierAccessibilityDescription,
            .identifier3GPUserDataAlbumAndTrack, .identifier3GPUserDataAuthor,
            .identifier3GPUserDataCollection, .identifier3GPUserDataCopyright,
            .identifier3GPUserDataDescription, .identifier3GPUserDataGenre, .identifier3GPUserDataKeywordList,
            .identifier3GPUserDataLocation, .identifier3GPUserDataMediaClassification,
            .identifier3GPUserDataMediaRating, .identifier3GPUserDataPerformer,
            .identifier3GPUserDataRecordingYear, .identifier3GPUserDataThumbnail, .identifier3GPUserDataTitle,
            .identifier3GPUserDataUserRating, .isoUserDataAccessibilityDescription, .isoUserDataCopyright,
            .isoUserDataDate, .isoUserDataTaggedCharacteristic, .icyMetadataStreamTitle,
            .icyMetadataStreamURL, .quickTimeUserDataAccessibilityDescription, .quickTimeUserDataAlbum,
            .quickTimeUserDataArranger, .quickTimeUserDataArtist, .quickTimeUserDataAuthor,
            .quickTimeUserDataChapter, .quickTimeUserDataComment, .quickTimeUserDataComposer,
            .quickTimeUserDataCopyright, .quickTimeUserDataCreationDate, .quickTimeUserDataCredits,
            .quickTimeUserDataDescription, .quickTimeUserDataDirector, .quickTimeUserDataDisclaimer,
            .quickTimeUserDataEncodedBy, .quickTimeUserDataFullName, .quickTimeUserDataGenre,
            .quickTimeUserDataHostComputer, .quickTimeUserDataInformation, .quickTimeUserDataKeywords,
            .quickTimeUserDataLocationISO6709, .quickTimeUserDataMake, .quickTimeUserDataModel,
            .quickTimeUserDataOriginalArtist, .quickTimeUserDataOriginalFormat,
            .quickTimeUserDataOriginalSource, .quickTimeUserDataPerformers, .quickTimeUserDataPhonogramRights,
            .quickTimeUserDataProducer, .quickTimeUserDataProduct, .quickTimeUserDataPublisher,
            .quickTimeUserDataSoftware, .quickTimeUserDataSpecialPlaybackRequirements,
            .quickTimeUserDataTaggedCharacteristic, .quickTimeUserDataTrack, .quickTimeUserDataTrackName,
            .quickTimeUserDataURLLink, .quickTimeUserDataWarning, .quickTimeUserDataWriter,
            .iTunesMetadataAccountKind, .iTunesMetadataAcknowledgement, .iTunesMetadataAlbum,
            .iTunesMetadataAlbumArtist, .iTunesMetadataAppleID, .iTunesMetadataArranger,
            .iTunesMetadataArtDirector, .iTunesMetadataArtist, .iTunesMetadataArtistID, .iTunesMetadataAuthor,
            .iTunesMetadataBeatsPerMin, .iTunesMetadataComposer, .iTunesMetadataConductor,
            .iTunesMetadataContentRating, .iTunesMetadataCopyright, .iTunesMetadataCoverArt,
            .iTunesMetadataCredits, .iTunesMetadataDescription, .iTunesMetadataDirector,
            .iTunesMetadataDiscCompilation, .iTunesMetadataDiscNumber, .iTunesMetadataEQ,
            .iTunesMetadataEncodedBy, .iTunesMetadataEncodingTool, .iTunesMetadataExecProducer,
            .iTunesMetadataGenreID, .iTunesMetadataGrouping, .iTunesMetadataLinerNotes, .iTunesMetadataLyrics,
            .iTunesMetadataOnlineExtras, .iTunesMetadataOriginalArtist, .iTunesMetadataPerformer,
            .iTunesMetadataPhonogramRights, .iTunesMetadataPlaylistID, .iTunesMetadataPredefinedGenre,
            .iTunesMetadataProducer, .iTunesMetadataPublisher, .iTunesMetadataRecordCompany,
            .iTunesMetadataReleaseDate, .iTunesMetadataSoloist, .iTunesMetadataSongID,
            .iTunesMetadataSongName, .iTunesMetadataSoundEngineer, .iTunesMetadataThanks,
            .iTunesMetadataTrackNumber, .iTunesMetadataTrackSubTitle, .iTunesMetadataUserComment,
            .iTunesMetadataUserGenre, .quickTimeMetadataAccessibilityDescription, .quickTimeMetadataAlbum,
            .quickTimeMetadataArranger, .quickTimeMetadataArtist, .quickTimeMetadataArtwork,
            .quickTimeMetadataAuthor, .quickTimeMetadataCameraFrameReadoutTime,
            .quickTimeMetadataCameraIdentifier, .quickTimeMetadataCollectionUser, .quickTimeMetadataComment,
            .quickTimeMetadataComposer, .quickTimeMetadataContentIdentifier, .quickTimeMetadataCopyright,
            .quickTimeMetadataCreationDate, .quickTimeMetadataCredits, .quickTimeMetadataDescription,
            .quickTimeMetadataDirectionFacing, .quickTimeMetadataDirectionMotion, .quickTimeMetadataDirector,
            .quickTimeMetadataDisplayName, .quickTimeMetadataEncodedBy, .quickTimeMetadataGenre,
            .quickTimeMetadataInformation, .quickTimeMetadataIsMontage, .quickTimeMetadataKeywords,
            .quickTimeMetadataLocationBody, .quickTimeMetadataLocationDate, .quickTimeMetadataLocationISO6709,
            .quickTimeMetadataLocationName, .quickTimeMetadataLocationNote, .quickTimeMetadataLocationRole,
            .quickTimeMetadataMake, .quickTimeMetadataModel, .quickTimeMetadataOriginalArtist,
            .quickTimeMetadataPerformer, .quickTimeMetadataPhonogramRights, .quickTimeMetadataProducer,
            .quickTimeMetadataPublisher, .quickTimeMetadataRatingUser, .quickTimeMetadataSoftware,
            .quickTimeMetadataTitle, .quickTimeMetadataYear, .quickTimeMetadataiXML,
            .quickTimeMetadataAutoLivePhoto, .quickTimeMetadataDetectedCatBody,
            .quickTimeMetadataDetectedDogBody, .quickTimeMetadataDetectedFace,
            .quickTimeMetadataDetectedHumanBody, .quickTimeMetadataDetectedSalientObject,
            .quickTimeMetadataLivePhotoVitalityScore, .quickTimeMetadataLivePhotoVitalityScoringVersion,
            .quickTimeMetadataLocationHorizontalAccuracyInMeters, .quickTimeMetadataPreferredAffineTransform,
            .quickTimeMetadataSpatialOverCaptureQualityScore,
            .quickTimeMetadataSpatialOverCaptureQualityScoringVersion, .quickTimeMetadataVideoOrientation,
            .id3MetadataAlbumSortOrder, .id3MetadataAlbumTitle, .id3MetadataAttachedPicture,
            .id3MetadataAudioEncryption, .id3MetadataAudioSeekPointIndex, .id3MetadataBand,
            .id3MetadataBeatsPerMinute, .id3MetadataComments, .id3MetadataCommercial,
            .id3MetadataCommercialInformation, .id3MetadataComposer, .id3MetadataConductor,
            .id3MetadataContentGroupDescription, .id3MetadataContentType, .id3MetadataCopyright,
            .id3MetadataCopyrightInformation, .id3MetadataDate, .id3MetadataEncodedBy,
            .id3MetadataEncodedWith, .id3MetadataEncodingTime, .id3MetadataEncryption,
            .id3MetadataEqualization, .id3MetadataEqualization2, .id3MetadataEventTimingCodes,
            .id3MetadataFileOwner, .id3MetadataFileType, .id3MetadataGeneralEncapsulatedObject,
            .id3MetadataGroupIdentifier, .id3MetadataInitialKey,
            .id3MetadataInternationalStandardRecordingCode, .id3MetadataInternetRadioStationName,
            .id3MetadataInternetRadioStationOwner, .id3MetadataInvolvedPeopleList_v23,
            .id3MetadataInvolvedPeopleList_v24, .id3MetadataLanguage, .id3MetadataLeadPerformer,
            .id3MetadataLength, .id3MetadataLink, .id3MetadataLyricist, .id3MetadataMPEGLocationLookupTable,
            .id3MetadataMediaType, .id3MetadataModifiedBy, .id3MetadataMood, .id3MetadataMusicCDIdentifier,
            .id3MetadataMusicianCreditsList, .id3MetadataOfficialArtistWebpage,
            .id3MetadataOfficialAudioFileWebpage, .id3MetadataOfficialAudioSourceWebpage,
            .id3MetadataOfficialInternetRadioStationHomepage, .id3MetadataOfficialPublisherWebpage,
            .id3MetadataOriginalAlbumTitle, .id3MetadataOriginalArtist, .id3MetadataOriginalFilename,
            .id3MetadataOriginalLyricist, .id3MetadataOriginalReleaseTime, .id3MetadataOriginalReleaseYear,
            .id3MetadataOwnership, .id3MetadataPartOfASet, .id3MetadataPayment,
            .id3MetadataPerformerSortOrder, .id3MetadataPlayCounter, .id3MetadataPlaylistDelay,
            .id3MetadataPopularimeter, .id3MetadataPositionSynchronization, .id3MetadataPrivate,
            .id3MetadataProducedNotice, .id3MetadataPublisher, .id3MetadataRecommendedBufferSize,
            .id3MetadataRecordingDates, .id3MetadataRecordingTime, .id3MetadataRelativeVolumeAdjustment,
            .id3MetadataRelativeVolumeAdjustment2, .id3MetadataReleaseTime, .id3MetadataReverb,
            .id3MetadataSeek, .id3MetadataSetSubtitle, .id3MetadataSignature, .id3MetadataSize,
            .id3MetadataSubTitle, .id3MetadataSynchronizedLyric, .id3MetadataSynchronizedTempoCodes,
            .id3MetadataTaggingTime, .id3MetadataTermsOfUse, .id3MetadataTime, .id3MetadataTitleDescription,
            .id3MetadataTitleSortOrder, .id3MetadataTrackNumber, .id3MetadataUniqueFileIdentifier,
            .id3MetadataUnsynchronizedLyric, .id3MetadataUserText, .id3MetadataUserURL, .id3MetadataYear,
        ]
        let _: (String) -> AVMetadataIdentifier = AVMetadataIdentifier.init(rawValue:)
        let _: (String) -> AVMetadataIdentifier = AVMetadataIdentifier.init(_:)
        // "<key space>/<key>", the common key space spelled "common" and key bytes percent-escaped.
        #expect(AVMetadataIdentifier.commonIdentifierTitle.rawValue == "common/title")
        #expect(AVMetadataIdentifier.quickTimeUserDataFullName.rawValue == "udta/%A9nam")
    }

    // https://developer.apple.com/documentation/avfoundation/avmetadatakey
    @Test func metadataKeys() {
        let _: [AVMetadataKey] = [
            .commonKeyTitle, .commonKeyCreator, .commonKeySubject, .commonKeyDescription, .commonKeyPublisher,
            .commonKeyContributor, .commonKeyCreationDate, .commonKeyLastModifiedDate, .commonKeyType,
            .commonKeyFormat, .commonKeyIdentifier, .commonKeySource, .commonKeyLanguage, .commonKeyRelation,
            .commonKeyLocation, .commonKeyCopyrights, .commonKeyAlbumName, .commonKeyAuthor, .commonKeyArtist,
            .commonKeyArtwork, .commonKeyMake, .commonKeyModel, .commonKeySoftware,
            .commonKeyAccessibilityDescription, .metadata3GPUserDataKeyAlbumAndTrack,
            .metadata3GPUserDataKeyAuthor, .metadata3GPUserDataKeyCollection,
            .metadata3GPUserDataKeyCopyright, .metadata3GPUserDataKeyDescription,
            .metadata3GPUserDataKeyGenre, .metadata3GPUserDataKeyKeywordList, .metadata3GPUserDataKeyLocation,
            .metadata3GPUserDataKeyMediaClassification, .metadata3GPUserDataKeyMediaRating,
            .metadata3GPUserDataKeyPerformer, .metadata3GPUserDataKeyRecordingYear,
            .metadata3GPUserDataKeyThumbnail, .metadata3GPUserDataKeyTitle, .metadata3GPUserDataKeyUserRating,
            .isoUserDataKeyAccessibilityDescription, .isoUserDataKeyCopyright, .isoUserDataKeyDate,
            .isoUserDataKeyTaggedCharacteristic, .icyMetadataKeyStreamTitle, .icyMetadataKeyStreamURL,
            .quickTimeUserDataKeyAccessibilityDescription, .quickTimeUserDataKeyAlbum,
            .quickTimeUserDataKeyArranger, .quickTimeUserDataKeyArtist, .quickTimeUserDataKeyAuthor,
            .quickTimeUserDataKeyChapter, .quickTimeUserDataKeyComment, .quickTimeUserDataKeyComposer,
            .quickTimeUserDataKeyCopyright, .quickTimeUserDataKeyCreationDate, .quickTimeUserDataKeyCredits,
            .quickTimeUserDataKeyDescription, .quickTimeUserDataKeyDirector, .quickTimeUserDataKeyDisclaimer,
            .quickTimeUserDataKeyEncodedBy, .quickTimeUserDataKeyFullName, .quickTimeUserDataKeyGenre,
            .quickTimeUserDataKeyHostComputer, .quickTimeUserDataKeyInformation,
            .quickTimeUserDataKeyKeywords, .quickTimeUserDataKeyLocationISO6709, .quickTimeUserDataKeyMake,
            .quickTimeUserDataKeyModel, .quickTimeUserDataKeyOriginalArtist,
            .quickTimeUserDataKeyOriginalFormat, .quickTimeUserDataKeyOriginalSource,
            .quickTimeUserDataKeyPerformers, .quickTimeUserDataKeyPhonogramRights,
            .quickTimeUserDataKeyProducer, .quickTimeUserDataKeyProduct, .quickTimeUserDataKeyPublisher,
            .quickTimeUserDataKeySoftware, .quickTimeUserDataKeySpecialPlaybackRequirements,
            .quickTimeUserDataKeyTaggedCharacteristic, .quickTimeUserDataKeyTrack,
            .quickTimeUserDataKeyTrackName, .quickTimeUserDataKeyURLLink, .quickTimeUserDataKeyWarning,
            .quickTimeUserDataKeyWriter, .iTunesMetadataKeyAccountKind, .iTunesMetadataKeyAcknowledgement,
            .iTunesMetadataKeyAlbum, .iTunesMetadataKeyAlbumArtist, .iTunesMetadataKeyAppleID,
            .iTunesMetadataKeyArranger, .iTunesMetadataKeyArtDirector, .iTunesMetadataKeyArtist,
            .iTunesMetadataKeyArtistID, .iTunesMetadataKeyAuthor, .iTunesMetadataKeyBeatsPerMin,
            .iTunesMetadataKeyComposer, .iTunesMetadataKeyConductor, .iTunesMetadataKeyContentRating,
            .iTunesMetadataKeyCopyright, .iTunesMetadataKeyCoverArt, .iTunesMetadataKeyCredits,
            .iTunesMetadataKeyDescription, .iTunesMetadataKeyDirector, .iTunesMetadataKeyDiscCompilation,
            .iTunesMetadataKeyDiscNumber, .iTunesMetadataKeyEQ, .iTunesMetadataKeyEncodedBy,
            .iTunesMetadataKeyEncodingTool, .iTunesMetadataKeyExecProducer, .iTunesMetadataKeyGenreID,
            .iTunesMetadataKeyGrouping, .iTunesMetadataKeyLinerNotes, .iTunesMetadataKeyLyrics,
            .iTunesMetadataKeyOnlineExtras, .iTunesMetadataKeyOriginalArtist, .iTunesMetadataKeyPerformer,
            .iTunesMetadataKeyPhonogramRights, .iTunesMetadataKeyPlaylistID,
            .iTunesMetadataKeyPredefinedGenre, .iTunesMetadataKeyProducer, .iTunesMetadataKeyPublisher,
            .iTunesMetadataKeyRecordCompany, .iTunesMetadataKeyReleaseDate, .iTunesMetadataKeySoloist,
            .iTunesMetadataKeySongID, .iTunesMetadataKeySongName, .iTunesMetadataKeySoundEngineer,
            .iTunesMetadataKeyThanks, .iTunesMetadataKeyTrackNumber, .iTunesMetadataKeyTrackSubTitle,
            .iTunesMetadataKeyUserComment, .iTunesMetadataKeyUserGenre,
            .quickTimeMetadataKeyAccessibilityDescription, .quickTimeMetadataKeyAlbum,
            .quickTimeMetadataKeyArranger, .quickTimeMetadataKeyArtist, .quickTimeMetadataKeyArtwork,
            .quickTimeMetadataKeyAuthor, .quickTimeMetadataKeyCameraFrameReadoutTime,
            .quickTimeMetadataKeyCameraIdentifier, .quickTimeMetadataKeyCollectionUser,
            .quickTimeMetadataKeyComment, .quickTimeMetadataKeyComposer,
            .quickTimeMetadataKeyContentIdentifier, .quickTimeMetadataKeyCopyright,
            .quickTimeMetadataKeyCreationDate, .quickTimeMetadataKeyCredits, .quickTimeMetadataKeyDescription,
            .quickTimeMetadataKeyDirectionFacing, .quickTimeMetadataKeyDirectionMotion,
            .quickTimeMetadataKeyDirector, .quickTimeMetadataKeyDisplayName, .quickTimeMetadataKeyEncodedBy,
            .quickTimeMetadataKeyGenre, .quickTimeMetadataKeyInformation, .quickTimeMetadataKeyIsMontage,
            .quickTimeMetadataKeyKeywords, .quickTimeMetadataKeyLocationBody,
            .quickTimeMetadataKeyLocationDate, .quickTimeMetadataKeyLocationISO6709,
            .quickTimeMetadataKeyLocationName, .quickTimeMetadataKeyLocationNote,
            .quickTimeMetadataKeyLocationRole, .quickTimeMetadataKeyMake, .quickTimeMetadataKeyModel,
            .quickTimeMetadataKeyOriginalArtist, .quickTimeMetadataKeyPerformer,
            .quickTimeMetadataKeyPhonogramRights, .quickTimeMetadataKeyProducer,
            .quickTimeMetadataKeyPublisher, .quickTimeMetadataKeyRatingUser, .quickTimeMetadataKeySoftware,
            .quickTimeMetadataKeyTitle, .quickTimeMetadataKeyYear, .quickTimeMetadataKeyiXML,
            .id3MetadataKeyAlbumSortOrder, .id3MetadataKeyAlbumTitle, .id3MetadataKeyAttachedPicture,
            .id3MetadataKeyAudioEncryption, .id3MetadataKeyAudioSeekPointIndex, .id3MetadataKeyBand,
            .id3MetadataKeyBeatsPerMinute, .id3MetadataKeyComments, .id3MetadataKeyCommercial,
            .id3MetadataKeyCommercialInformation, .id3MetadataKeyComposer, .id3MetadataKeyConductor,
            .id3MetadataKeyContentGroupDescription, .id3MetadataKeyContentType, .id3MetadataKeyCopyright,
            .id3MetadataKeyCopyrightInformation, .id3MetadataKeyDate, .id3MetadataKeyEncodedBy,
            .id3MetadataKeyEncodedWith, .id3MetadataKeyEncodingTime, .id3MetadataKeyEncryption,
            .id3MetadataKeyEqualization, .id3MetadataKeyEqualization2, .id3MetadataKeyEventTimingCodes,
            .id3MetadataKeyFileOwner, .id3MetadataKeyFileType, .id3MetadataKeyGeneralEncapsulatedObject,
            .id3MetadataKeyGroupIdentifier, .id3MetadataKeyInitialKey,
            .id3MetadataKeyInternationalStandardRecordingCode, .id3MetadataKeyInternetRadioStationName,
            .id3MetadataKeyInternetRadioStationOwner, .id3MetadataKeyInvolvedPeopleList_v23,
            .id3MetadataKeyInvolvedPeopleList_v24, .id3MetadataKeyLanguage, .id3MetadataKeyLeadPerformer,
            .id3MetadataKeyLength, .id3MetadataKeyLink, .id3MetadataKeyLyricist,
            .id3MetadataKeyMPEGLocationLookupTable, .id3MetadataKeyMediaType, .id3MetadataKeyModifiedBy,
            .id3MetadataKeyMood, .id3MetadataKeyMusicCDIdentifier, .id3MetadataKeyMusicianCreditsList,
            .id3MetadataKeyOfficialArtistWebpage, .id3MetadataKeyOfficialAudioFileWebpage,
            .id3MetadataKeyOfficialAudioSourceWebpage, .id3MetadataKeyOfficialInternetRadioStationHomepage,
            .id3MetadataKeyOfficialPublisherWebpage, .id3MetadataKeyOriginalAlbumTitle,
            .id3MetadataKeyOriginalArtist, .id3MetadataKeyOriginalFilename, .id3MetadataKeyOriginalLyricist,
            .id3MetadataKeyOriginalReleaseTime, .id3MetadataKeyOriginalReleaseYear, .id3MetadataKeyOwnership,
            .id3MetadataKeyPartOfASet, .id3MetadataKeyPayment, .id3MetadataKeyPerformerSortOrder,
            .id3MetadataKeyPlayCounter, .id3MetadataKeyPlaylistDelay, .id3MetadataKeyPopularimeter,
            .id3MetadataKeyPositionSynchronization, .id3MetadataKeyPrivate, .id3MetadataKeyProducedNotice,
            .id3MetadataKeyPublisher, .id3MetadataKeyRecommendedBufferSize, .id3MetadataKeyRecordingDates,
            .id3MetadataKeyRecordingTime, .id3MetadataKeyRelativeVolumeAdjustment,
            .id3MetadataKeyRelativeVolumeAdjustment2, .id3MetadataKeyReleaseTime, .id3MetadataKeyReverb,
            .id3MetadataKeySeek, .id3MetadataKeySetSubtitle, .id3MetadataKeySignature, .id3MetadataKeySize,
            .id3MetadataKeySubTitle, .id3MetadataKeySynchronizedLyric, .id3MetadataKeySynchronizedTempoCodes,
            .id3MetadataKeyTaggingTime, .id3MetadataKeyTermsOfUse, .id3MetadataKeyTime,
            .id3MetadataKeyTitleDescription, .id3MetadataKeyTitleSortOrder, .id3MetadataKeyTrackNumber,
            .id3MetadataKeyUniqueFileIdentifier, .id3MetadataKeyUnsynchronizedLyric, .id3MetadataKeyUserText,
            .id3MetadataKeyUserURL, .id3MetadataKeyYear,
        ]
        let _: (String) -> AVMetadataKey = AVMetadataKey.init(rawValue:)
        let _: (String) -> AVMetadataKey = AVMetadataKey.init(_:)
        // Four-character keys that start with "©" use U+00A9, as Apple's do.
        #expect(AVMetadataKey.iTunesMetadataKeySongName.rawValue == "\u{A9}nam")
    }

    // https://developer.apple.com/documentation/avfoundation/avmetadataitem
    @Test func metadataItem() async throws {
        let _: KeyPath<AVMetadataItem, AVMetadataIdentifier?> = \AVMetadataItem.identifier
        let _: KeyPath<AVMetadataItem, AVMetadataKeySpace?> = \AVMetadataItem.keySpace
        let _: KeyPath<AVMetadataItem, (any NSCopying & NSObjectProtocol)?> = \AVMetadataItem.key
        let _: KeyPath<AVMetadataItem, AVMetadataKey?> = \AVMetadataItem.commonKey
        let _: KeyPath<AVMetadataItem, (any NSCopying & NSObjectProtocol)?> = \AVMetadataItem.value
        let _: KeyPath<AVMetadataItem, String?> = \AVMetadataItem.stringValue
        let _: KeyPath<AVMetadataItem, NSNumber?> = \AVMetadataItem.numberValue
        let _: KeyPath<AVMetadataItem, Date?> = \AVMetadataItem.dateValue
        let _: KeyPath<AVMetadataItem, Data?> = \AVMetadataItem.dataValue
        let _: KeyPath<AVMetadataItem, String?> = \AVMetadataItem.dataType
        let _: KeyPath<AVMetadataItem, [AVMetadataExtraAttributeKey: Any]?> = \AVMetadataItem.extraAttributes
        let _: KeyPath<AVMetadataItem, Locale?> = \AVMetadataItem.locale
        let _: KeyPath<AVMetadataItem, String?> = \AVMetadataItem.extendedLanguageTag
        let _: KeyPath<AVMetadataItem, CMTime> = \AVMetadataItem.time
        let _: KeyPath<AVMetadataItem, CMTime> = \AVMetadataItem.duration
        let _: KeyPath<AVMetadataItem, Date?> = \AVMetadataItem.startDate
        let _: (Any, AVMetadataKeySpace) -> AVMetadataIdentifier? = AVMetadataItem.identifier(forKey:keySpace:)
        let _: (AVMetadataIdentifier) -> Any? = AVMetadataItem.key(forIdentifier:)
        let _: (AVMetadataIdentifier) -> AVMetadataKeySpace? = AVMetadataItem.keySpace(forIdentifier:)
        let _: ([AVMetadataItem], AVMetadataIdentifier) -> [AVMetadataItem] = AVMetadataItem.metadataItems(from:filteredByIdentifier:)
        let _: ([AVMetadataItem], [String]) -> [AVMetadataItem] =
            AVMetadataItem.metadataItems(from:filteredAndSortedAccordingToPreferredLanguages:)
        let _: ([AVMetadataItem], Any?, AVMetadataKeySpace?) -> [AVMetadataItem] = AVMetadataItem.metadataItems(from:withKey:keySpace:)
        let _: ([AVMetadataItem], Locale) -> [AVMetadataItem] = AVMetadataItem.metadataItems(from:with:)
        let _: (AVMetadataItem) -> (String, NSErrorPointer) -> AVKeyValueStatus = AVMetadataItem.statusOfValue(forKey:error:)
        let _: (AVMetadataItem) -> ([String], (@Sendable () -> Void)?) -> Void = AVMetadataItem.loadValuesAsynchronously(forKeys:completionHandler:)
        adoptsKeyValueLoading(AVMetadataItem.self)
        let _: AVAsyncProperty<AVMetadataItem, (any NSCopying & NSObjectProtocol)?> = .value
        let _: AVAsyncProperty<AVMetadataItem, String?> = .stringValue
        let _: AVAsyncProperty<AVMetadataItem, NSNumber?> = .numberValue
        let _: AVAsyncProperty<AVMetadataItem, Date?> = .dateValue
        let _: AVAsyncProperty<AVMetadataItem, Data?> = .dataValue
        let _: AVAsyncProperty<AVMetadataItem, [AVMetadataExtraAttributeKey: Any]?> = .extraAttributes

        // https://developer.apple.com/documentation/avfoundation/avmutablemetadataitem
        let _: () -> AVMutableMetadataItem = AVMutableMetadataItem.init
        let _: ReferenceWritableKeyPath<AVMutableMetadataItem, AVMetadataIdentifier?> = \AVMutableMetadataItem.identifier
        let _: ReferenceWritableKeyPath<AVMutableMetadataItem, AVMetadataKeySpace?> = \AVMutableMetadataItem.keySpace
        let _: ReferenceWritableKeyPath<AVMutableMetadataItem, (any NSCopying & NSObjectProtocol)?> = \AVMutableMetadataItem.key
        let _: ReferenceWritableKeyPath<AVMutableMetadataItem, (any NSCopying & NSObjectProtocol)?> = \AVMutableMetadataItem.value
        let _: ReferenceWritableKeyPath<AVMutableMetadataItem, String?> = \AVMutableMetadataItem.dataType
        let _: ReferenceWritableKeyPath<AVMutableMetadataItem, [AVMetadataExtraAttributeKey: Any]?> = \AVMutableMetadataItem.extraAttributes
        let _: ReferenceWritableKeyPath<AVMutableMetadataItem, Locale?> = \AVMutableMetadataItem.locale
        let _: ReferenceWritableKeyPath<AVMutableMetadataItem, String?> = \AVMutableMetadataItem.extendedLanguageTag
        let _: ReferenceWritableKeyPath<AVMutableMetadataItem, CMTime> = \AVMutableMetadataItem.time
        let _: ReferenceWritableKeyPath<AVMutableMetadataItem, CMTime> = \AVMutableMetadataItem.duration
        let _: ReferenceWritableKeyPath<AVMutableMetadataItem, Date?> = \AVMutableMetadataItem.startDate

        // An item's value loads at once, as the guide's `try await item.load(.stringValue)` expects.
        let item = AVMutableMetadataItem()
        item.identifier = .commonIdentifierTitle
        item.value = "A title" as NSString
        #expect(item.keySpace == .common && item.commonKey == .commonKeyTitle)
        #expect(try await item.load(.stringValue) == "A title")
        let (number, data) = try await item.load(.numberValue, .dataValue)
        #expect(number == nil && data == nil)
        #expect(item.statusOfValue(forKey: "stringValue", error: nil) == .loaded)
    }

    // https://developer.apple.com/documentation/avfoundation/avtimedmetadatagroup
    @Test func timedMetadataGroups() {
        let _: ([AVMetadataItem], CMTimeRange) -> AVTimedMetadataGroup = AVTimedMetadataGroup.init(items:timeRange:)
        let _: (CMSampleBuffer) -> AVTimedMetadataGroup? = AVTimedMetadataGroup.init(sampleBuffer:)
        let _: KeyPath<AVTimedMetadataGroup, CMTimeRange> = \AVTimedMetadataGroup.timeRange
        let _: KeyPath<AVMetadataGroup, [AVMetadataItem]> = \AVMetadataGroup.items
        let _: KeyPath<AVMetadataGroup, String?> = \AVMetadataGroup.classifyingLabel
        let _: KeyPath<AVMetadataGroup, String?> = \AVMetadataGroup.uniqueID
        let _: () -> AVMutableTimedMetadataGroup = AVMutableTimedMetadataGroup.init
        let _: ReferenceWritableKeyPath<AVMutableTimedMetadataGroup, [AVMetadataItem]> = \AVMutableTimedMetadataGroup.items
        let _: ReferenceWritableKeyPath<AVMutableTimedMetadataGroup, CMTimeRange> = \AVMutableTimedMetadataGroup.timeRange
    }

    // https://developer.apple.com/documentation/avfoundation/avassetreader
    @Test func assetReader() {
        let _: (AVAsset) throws -> AVAssetReader = AVAssetReader.init(asset:)
        let _: KeyPath<AVAssetReader, AVAsset> = \AVAssetReader.asset
        let _: KeyPath<AVAssetReader, AVAssetReader.Status> = \AVAssetReader.status
        let _: KeyPath<AVAssetReader, (any Error)?> = \AVAssetReader.error
        let _: ReferenceWritableKeyPath<AVAssetReader, CMTimeRange> = \AVAssetReader.timeRange
        let _: KeyPath<AVAssetReader, [AVAssetReaderOutput]> = \AVAssetReader.outputs
        let _: (AVAssetReader) -> (AVAssetReaderOutput) -> Bool = AVAssetReader.canAdd(_:)
        let _: (AVAssetReader) -> (AVAssetReaderOutput) -> Void = AVAssetReader.add(_:)
        let _: (AVAssetReader) -> () -> Bool = AVAssetReader.startReading
        let _: (AVAssetReader) -> () -> Void = AVAssetReader.cancelReading
        let _: [AVAssetReader.Status] = [.unknown, .reading, .completed, .failed, .cancelled]
        #expect(AVAssetReader.Status.unknown.rawValue == 0 && AVAssetReader.Status.reading.rawValue == 1)
        #expect(AVAssetReader.Status.completed.rawValue == 2 && AVAssetReader.Status.failed.rawValue == 3)
        #expect(AVAssetReader.Status.cancelled.rawValue == 4)
    }

    // https://developer.apple.com/documentation/avfoundation/avassetreaderoutput and its subclasses
    @Test func assetReaderOutputs() {
        let _: KeyPath<AVAssetReaderOutput, AVMediaType> = \AVAssetReaderOutput.mediaType
        let _: ReferenceWritableKeyPath<AVAssetReaderOutput, Bool> = \AVAssetReaderOutput.alwaysCopiesSampleData
        let _: ReferenceWritableKeyPath<AVAssetReaderOutput, Bool> = \AVAssetReaderOutput.supportsRandomAccess
        let _: (AVAssetReaderOutput) -> () -> CMSampleBuffer? = AVAssetReaderOutput.copyNextSampleBuffer
        let _: (AVAssetReaderOutput) -> ([NSValue]) -> Void = AVAssetReaderOutput.reset(forReadingTimeRanges:)
        let _: (AVAssetReaderOutput) -> () -> Void = AVAssetReaderOutput.markConfigurationAsFinal

        let _: (AVAssetTrack, [String: Any]?) -> AVAssetReaderTrackOutput = AVAssetReaderTrackOutput.init(track:outputSettings:)
        let _: KeyPath<AVAssetReaderTrackOutput, AVAssetTrack> = \AVAssetReaderTrackOutput.track
        let _: KeyPath<AVAssetReaderTrackOutput, [String: Any]?> = \AVAssetReaderTrackOutput.outputSettings
        let _: ReferenceWritableKeyPath<AVAssetReaderTrackOutput, AVAudioTimePitchAlgorithm> = \AVAssetReaderTrackOutput.audioTimePitchAlgorithm

        let _: ([AVAssetTrack], [String: Any]?) -> AVAssetReaderAudioMixOutput = AVAssetReaderAudioMixOutput.init(audioTracks:audioSettings:)
        let _: KeyPath<AVAssetReaderAudioMixOutput, [AVAssetTrack]> = \AVAssetReaderAudioMixOutput.audioTracks
        let _: KeyPath<AVAssetReaderAudioMixOutput, [String: Any]?> = \AVAssetReaderAudioMixOutput.audioSettings
        let _: ReferenceWritableKeyPath<AVAssetReaderAudioMixOutput, AVAudioMix?> = \AVAssetReaderAudioMixOutput.audioMix
        let _: ReferenceWritableKeyPath<AVAssetReaderAudioMixOutput, AVAudioTimePitchAlgorithm> = \AVAssetReaderAudioMixOutput.audioTimePitchAlgorithm

        let _: ([AVAssetTrack], [String: Any]?) -> AVAssetReaderVideoCompositionOutput =
            AVAssetReaderVideoCompositionOutput.init(videoTracks:videoSettings:)
        let _: KeyPath<AVAssetReaderVideoCompositionOutput, [AVAssetTrack]> = \AVAssetReaderVideoCompositionOutput.videoTracks
        let _: KeyPath<AVAssetReaderVideoCompositionOutput, [String: Any]?> = \AVAssetReaderVideoCompositionOutput.videoSettings
        let _: ReferenceWritableKeyPath<AVAssetReaderVideoCompositionOutput, AVVideoComposition?> = \AVAssetReaderVideoCompositionOutput.videoComposition
        let _: KeyPath<AVAssetReaderVideoCompositionOutput, (any AVVideoCompositing)?> = \AVAssetReaderVideoCompositionOutput.customVideoCompositor

        // https://developer.apple.com/documentation/avfoundation/avassetreaderoutputmetadataadaptor
        let _: (AVAssetReaderTrackOutput) -> AVAssetReaderOutputMetadataAdaptor = AVAssetReaderOutputMetadataAdaptor.init(assetReaderTrackOutput:)
        let _: KeyPath<AVAssetReaderOutputMetadataAdaptor, AVAssetReaderTrackOutput> = \AVAssetReaderOutputMetadataAdaptor.assetReaderTrackOutput
        let _: (AVAssetReaderOutputMetadataAdaptor) -> () -> AVTimedMetadataGroup? = AVAssetReaderOutputMetadataAdaptor.nextTimedMetadataGroup
    }

    // https://developer.apple.com/documentation/avfoundation/avassetimagegenerator
    @Test func imageGenerator() throws {
        let _: (AVAsset) -> AVAssetImageGenerator = AVAssetImageGenerator.init(asset:)
        let _: KeyPath<AVAssetImageGenerator, AVAsset> = \AVAssetImageGenerator.asset
        let _: ReferenceWritableKeyPath<AVAssetImageGenerator, Bool> = \AVAssetImageGenerator.appliesPreferredTrackTransform
        let _: ReferenceWritableKeyPath<AVAssetImageGenerator, CGSize> = \AVAssetImageGenerator.maximumSize
        let _: ReferenceWritableKeyPath<AVAssetImageGenerator, AVAssetImageGenerator.ApertureMode?> = \AVAssetImageGenerator.apertureMode
        let _: ReferenceWritableKeyPath<AVAssetImageGenerator, CMTime> = \AVAssetImageGenerator.requestedTimeToleranceBefore
        let _: ReferenceWritableKeyPath<AVAssetImageGenerator, CMTime> = \AVAssetImageGenerator.requestedTimeToleranceAfter
        let _: ReferenceWritableKeyPath<AVAssetImageGenerator, AVVideoComposition?> = \AVAssetImageGenerator.videoComposition
        let _: KeyPath<AVAssetImageGenerator, (any AVVideoCompositing)?> = \AVAssetImageGenerator.customVideoCompositor
        let _: (AVAssetImageGenerator) -> (CMTime, UnsafeMutablePointer<CMTime>?) throws -> CGImage = AVAssetImageGenerator.copyCGImage(at:actualTime:)
        let _: (AVAssetImageGenerator) -> (CMTime) async throws -> (image: CGImage, actualTime: CMTime) = AVAssetImageGenerator.image(at:)
        let _: (AVAssetImageGenerator) -> (CMTime, @escaping @Sendable (CGImage?, CMTime, (any Error)?) -> Void) -> Void =
            AVAssetImageGenerator.generateCGImageAsynchronously(for:completionHandler:)
        let _: (AVAssetImageGenerator) -> ([NSValue], @escaping AVAssetImageGeneratorCompletionHandler) -> Void =
            AVAssetImageGenerator.generateCGImagesAsynchronously(forTimes:completionHandler:)
        let _: (AVAssetImageGenerator) -> () -> Void = AVAssetImageGenerator.cancelAllCGImageGeneration
        let _: (AVAssetImageGenerator) -> ([CMTime]) -> AVAssetImageGenerator.Images = AVAssetImageGenerator.images(for:)
        let _: AVAssetImageGeneratorCompletionHandler = { (_: CMTime, _: CGImage?, _: CMTime, _: AVAssetImageGenerator.Result, _: (any Error)?) in }
        let _: [AVAssetImageGenerator.Result] = [.succeeded, .failed, .cancelled]
        #expect(AVAssetImageGenerator.Result.succeeded.rawValue == 0 && AVAssetImageGenerator.Result.failed.rawValue == 1)
        #expect(AVAssetImageGenerator.Result.cancelled.rawValue == 2)
        let _: [AVAssetImageGenerator.ApertureMode] = [.cleanAperture, .productionAperture, .encodedPixels]
        let _: (String) -> AVAssetImageGenerator.ApertureMode = AVAssetImageGenerator.ApertureMode.init(rawValue:)
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: URL(fileURLWithPath: "/nonexistent.mov")))
        #expect(generator.apertureMode == .cleanAperture && generator.customVideoCompositor == nil)

        // https://developer.apple.com/documentation/avfoundation/avassetimagegenerator/images/element
        let _: (CMTime, CGImage, CMTime) -> AVAssetImageGenerator.Images.Element =
            AVAssetImageGenerator.Images.Element.success(requestedTime:image:actualTime:)
        let _: (CMTime, any Error) -> AVAssetImageGenerator.Images.Element = AVAssetImageGenerator.Images.Element.failure(requestedTime:error:)
        let failure = AVAssetImageGenerator.Images.Element.failure(requestedTime: CMTime(value: 1, timescale: 1),
                                                                   error: NSError(domain: "AVFoundationErrorDomain", code: -11832))
        #expect(failure.requestedTime == CMTime(value: 1, timescale: 1))
        #expect(throws: NSError.self) { _ = try failure.image }
        #expect(throws: NSError.self) { _ = try failure.actualTime }
    }

    // ImageIO's image destination and property keys, which Apple code uses to save thumbnails.
    @Test func imageDestination() {
        let _: (CFURL, CFString, Int, CFDictionary?) -> CGImageDestination? = CGImageDestinationCreateWithURL
        let _: (CFMutableData, CFString, Int, CFDictionary?) -> CGImageDestination? = CGImageDestinationCreateWithData
        let _: (CGImageDestination, CGImage, CFDictionary?) -> Void = CGImageDestinationAddImage
        let _: (CGImageDestination) -> Bool = CGImageDestinationFinalize
        let _: [CFString] = [
            kCGImageDestinationLossyCompressionQuality, kCGImagePropertyOrientation, kCGImagePropertyExifPixelXDimension,
            kCGImagePropertyExifPixelYDimension, kCGImagePropertyExifDateTimeOriginal, kCGImagePropertyTIFFDictionary,
            kCGImagePropertyTIFFMake, kCGImagePropertyTIFFModel, kCGImagePropertyTIFFSoftware, kCGImagePropertyTIFFDateTime,
            kCGImagePropertyTIFFOrientation,
        ]
        #expect(kCGImagePropertyOrientation == "Orientation" && kCGImagePropertyTIFFDictionary == "{TIFF}")
    }

    // avfoundation/avmediaselectiongroup, avmediaselectionoption, avmediaselection, avmutablemediaselection,
    // avasset/mediaselectiongroup(formediacharacteristic:), avasset/chaptermetadatagroups(withtitlelocale:containingitemswithcommonkeys:)
    @Test func mediaSelectionAndChapters() {
        let _: KeyPath<AVAsset, [AVMediaCharacteristic]> = \AVAsset.availableMediaCharacteristicsWithMediaSelectionOptions
        let _: (AVAsset) -> (AVMediaCharacteristic) -> AVMediaSelectionGroup? = AVAsset.mediaSelectionGroup(forMediaCharacteristic:)
        let _: (AVAsset) -> (AVMediaCharacteristic) async throws -> AVMediaSelectionGroup? = AVAsset.loadMediaSelectionGroup(for:)
        let _: (AVAsset) -> (AVMediaCharacteristic, @escaping @Sendable (AVMediaSelectionGroup?, (any Error)?) -> Void) -> Void
            = AVAsset.loadMediaSelectionGroup(for:completionHandler:)
        let _: KeyPath<AVAsset, AVMediaSelection> = \AVAsset.preferredMediaSelection
        let _: AVAsyncProperty<AVAsset, [AVMediaCharacteristic]> = .availableMediaCharacteristicsWithMediaSelectionOptions
        let _: AVAsyncProperty<AVAsset, AVMediaSelection> = .preferredMediaSelection
        let _: AVAsyncProperty<AVAsset, [Locale]> = .availableChapterLocales
        let _: KeyPath<AVAsset, [Locale]> = \AVAsset.availableChapterLocales
        let _: KeyPath<AVAssetTrack, [AVAssetTrack.AssociationType]> = \AVAssetTrack.availableTrackAssociationTypes
        let _: (AVAssetTrack) -> (AVAssetTrack.AssociationType) -> [AVAssetTrack] = AVAssetTrack.associatedTracks(ofType:)
        let _: (AVAssetTrack) -> (AVAssetTrack.AssociationType) async throws -> [AVAssetTrack] = AVAssetTrack.loadAssociatedTracks(ofType:)
        let _: AVAsyncProperty<AVAssetTrack, [AVAssetTrack.AssociationType]> = .availableTrackAssociationTypes
        let _: (AVAsset) -> (Locale, [AVMetadataKey]?) -> [AVTimedMetadataGroup] = AVAsset.chapterMetadataGroups(withTitleLocale:containingItemsWithCommonKeys:)
        let _: (AVAsset) -> ([String]) -> [AVTimedMetadataGroup] = AVAsset.chapterMetadataGroups(bestMatchingPreferredLanguages:)
        let _: (AVAsset) -> (Locale, [AVMetadataKey]) async throws -> [AVTimedMetadataGroup]
            = AVAsset.loadChapterMetadataGroups(withTitleLocale:containingItemsWithCommonKeys:)
        let _: (AVAsset) -> ([String]) async throws -> [AVTimedMetadataGroup] = AVAsset.loadChapterMetadataGroups(bestMatchingPreferredLanguages:)
        let _: KeyPath<AVMediaSelectionGroup, [AVMediaSelectionOption]> = \AVMediaSelectionGroup.options
        let _: KeyPath<AVMediaSelectionGroup, AVMediaSelectionOption?> = \AVMediaSelectionGroup.defaultOption
        let _: KeyPath<AVMediaSelectionGroup, Bool> = \AVMediaSelectionGroup.allowsEmptySelection
        let _: (AVMediaSelectionGroup) -> (Any) -> AVMediaSelectionOption? = AVMediaSelectionGroup.mediaSelectionOption(withPropertyList:)
        let _: ([AVMediaSelectionOption]) -> [AVMediaSelectionOption] = AVMediaSelectionGroup.playableMediaSelectionOptions(from:)
        let _: ([AVMediaSelectionOption], [String]) -> [AVMediaSelectionOption]
            = AVMediaSelectionGroup.mediaSelectionOptions(from:filteredAndSortedAccordingToPreferredLanguages:)
        let _: ([AVMediaSelectionOption], Locale) -> [AVMediaSelectionOption] = AVMediaSelectionGroup.mediaSelectionOptions(from:with:)
        let _: ([AVMediaSelectionOption], [AVMediaCharacteristic]) -> [AVMediaSelectionOption]
            = AVMediaSelectionGroup.mediaSelectionOptions(from:withMediaCharacteristics:)
        let _: ([AVMediaSelectionOption], [AVMediaCharacteristic]) -> [AVMediaSelectionOption]
            = AVMediaSelectionGroup.mediaSelectionOptions(from:withoutMediaCharacteristics:)
        let _: KeyPath<AVMediaSelectionOption, AVMediaType> = \AVMediaSelectionOption.mediaType
        let _: KeyPath<AVMediaSelectionOption, [NSNumber]> = \AVMediaSelectionOption.mediaSubTypes
        let _: KeyPath<AVMediaSelectionOption, Bool> = \AVMediaSelectionOption.isPlayable
        let _: KeyPath<AVMediaSelectionOption, String?> = \AVMediaSelectionOption.extendedLanguageTag
        let _: KeyPath<AVMediaSelectionOption, Locale?> = \AVMediaSelectionOption.locale
        let _: KeyPath<AVMediaSelectionOption, [AVMetadataItem]> = \AVMediaSelectionOption.commonMetadata
        let _: KeyPath<AVMediaSelectionOption, [String]> = \AVMediaSelectionOption.availableMetadataFormats
        let _: KeyPath<AVMediaSelectionOption, String> = \AVMediaSelectionOption.displayName
        let _: (AVMediaSelectionOption) -> (AVMediaCharacteristic) -> Bool = AVMediaSelectionOption.hasMediaCharacteristic
        let _: (AVMediaSelectionOption) -> (String) -> [AVMetadataItem] = AVMediaSelectionOption.metadata(forFormat:)
        let _: (AVMediaSelectionOption) -> (AVMediaSelectionGroup) -> AVMediaSelectionOption? = AVMediaSelectionOption.associatedMediaSelectionOption(in:)
        let _: (AVMediaSelectionOption) -> () -> Any = AVMediaSelectionOption.propertyList
        let _: (AVMediaSelectionOption) -> (Locale) -> String = AVMediaSelectionOption.displayName(with:)
        let _: KeyPath<AVMediaSelection, AVAsset?> = \AVMediaSelection.asset
        let _: (AVMediaSelection) -> (AVMediaSelectionGroup) -> AVMediaSelectionOption? = AVMediaSelection.selectedMediaOption(in:)
        let _: (AVMediaSelection) -> (AVMediaSelectionGroup) -> Bool = AVMediaSelection.mediaSelectionCriteriaCanBeAppliedAutomatically(to:)
        let _: (AVMutableMediaSelection) -> (AVMediaSelectionOption?, AVMediaSelectionGroup) -> Void = AVMutableMediaSelection.select(_:in:)
    }

    // https://developer.apple.com/documentation/avfoundation/avassetresourceloader
    @Test func resourceLoader() {
        let _: KeyPath<AVURLAsset, AVAssetResourceLoader> = \AVURLAsset.resourceLoader
        let _: KeyPath<AVAssetResourceLoader, (any AVAssetResourceLoaderDelegate)?> = \AVAssetResourceLoader.delegate
        let _: KeyPath<AVAssetResourceLoader, DispatchQueue?> = \AVAssetResourceLoader.delegateQueue
        let _: (AVAssetResourceLoader) -> ((any AVAssetResourceLoaderDelegate)?, DispatchQueue?) -> Void = AVAssetResourceLoader.setDelegate(_:queue:)
        let _: KeyPath<AVAssetResourceLoadingRequest, URLRequest> = \AVAssetResourceLoadingRequest.request
        let _: KeyPath<AVAssetResourceLoadingRequest, Bool> = \AVAssetResourceLoadingRequest.isFinished
        let _: KeyPath<AVAssetResourceLoadingRequest, Bool> = \AVAssetResourceLoadingRequest.isCancelled
        let _: KeyPath<AVAssetResourceLoadingRequest, AVAssetResourceLoadingContentInformationRequest?>
            = \AVAssetResourceLoadingRequest.contentInformationRequest
        let _: KeyPath<AVAssetResourceLoadingRequest, AVAssetResourceLoadingDataRequest?> = \AVAssetResourceLoadingRequest.dataRequest
        let _: ReferenceWritableKeyPath<AVAssetResourceLoadingRequest, URLResponse?> = \AVAssetResourceLoadingRequest.response
        let _: ReferenceWritableKeyPath<AVAssetResourceLoadingRequest, URLRequest?> = \AVAssetResourceLoadingRequest.redirect
        let _: (AVAssetResourceLoadingRequest) -> () -> Void = AVAssetResourceLoadingRequest.finishLoading
        let _: (AVAssetResourceLoadingRequest) -> ((any Error)?) -> Void = AVAssetResourceLoadingRequest.finishLoading(with:)
        let _: ReferenceWritableKeyPath<AVAssetResourceLoadingContentInformationRequest, String?>
            = \AVAssetResourceLoadingContentInformationRequest.contentType
        let _: KeyPath<AVAssetResourceLoadingContentInformationRequest, [String]?> = \AVAssetResourceLoadingContentInformationRequest.allowedContentTypes
        let _: ReferenceWritableKeyPath<AVAssetResourceLoadingContentInformationRequest, Int64>
            = \AVAssetResourceLoadingContentInformationRequest.contentLength
        let _: ReferenceWritableKeyPath<AVAssetResourceLoadingContentInformationRequest, Bool>
            = \AVAssetResourceLoadingContentInformationRequest.isByteRangeAccessSupported
        let _: ReferenceWritableKeyPath<AVAssetResourceLoadingContentInformationRequest, Date?>
            = \AVAssetResourceLoadingContentInformationRequest.renewalDate
        let _: ReferenceWritableKeyPath<AVAssetResourceLoadingContentInformationRequest, Bool>
            = \AVAssetResourceLoadingContentInformationRequest.isEntireLengthAvailableOnDemand
        let _: KeyPath<AVAssetResourceLoadingDataRequest, Int64> = \AVAssetResourceLoadingDataRequest.requestedOffset
        let _: KeyPath<AVAssetResourceLoadingDataRequest, Int> = \AVAssetResourceLoadingDataRequest.requestedLength
        let _: KeyPath<AVAssetResourceLoadingDataRequest, Bool> = \AVAssetResourceLoadingDataRequest.requestsAllDataToEndOfResource
        let _: KeyPath<AVAssetResourceLoadingDataRequest, Int64> = \AVAssetResourceLoadingDataRequest.currentOffset
        let _: (AVAssetResourceLoadingDataRequest) -> (Data) -> Void = AVAssetResourceLoadingDataRequest.respond(with:)
    }
}
