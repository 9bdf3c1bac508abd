import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

@Suite("AVMetadataItem", .timeLimit(.minutes(10)))
struct AVMetadataItemTests {
    // MARK: Raw values

    @Test("key spaces, formats and keys carry Apple's strings")
    func rawValues() {
        #expect(AVMetadataKeySpace.common.rawValue == "comn")
        #expect(AVMetadataKeySpace.quickTimeUserData.rawValue == "udta")
        #expect(AVMetadataKeySpace.isoUserData.rawValue == "uiso")
        #expect(AVMetadataKeySpace.quickTimeMetadata.rawValue == "mdta")
        #expect(AVMetadataKeySpace.iTunes.rawValue == "itsk")
        #expect(AVMetadataKeySpace.id3.rawValue == "org.id3")
        #expect(AVMetadataKeySpace.icy.rawValue == "icy")
        #expect(AVMetadataFormat.quickTimeUserData.rawValue == "com.apple.quicktime.udta")
        #expect(AVMetadataFormat.isoUserData.rawValue == "org.mp4ra")
        #expect(AVMetadataFormat.quickTimeMetadata.rawValue == "com.apple.quicktime.mdta")
        #expect(AVMetadataFormat.iTunesMetadata.rawValue == "com.apple.itunes")
        #expect(AVMetadataFormat.id3Metadata.rawValue == "org.id3")
        #expect(AVMetadataKey.commonKeyTitle.rawValue == "title")
        #expect(AVMetadataKey.commonKeyAlbumName.rawValue == "albumName")
        #expect(AVMetadataKey.commonKeyCreationDate.rawValue == "creationDate")
        #expect(AVMetadataKey.commonKeyLastModifiedDate.rawValue == "lastModifiedDate")
        #expect(AVMetadataKey.commonKeyCopyrights.rawValue == "copyrights")
        #expect(AVMetadataKey.commonKeyAccessibilityDescription.rawValue == "accessibilityDescription")
        #expect(AVMetadataKey.quickTimeMetadataKeyTitle.rawValue == "com.apple.quicktime.title")
        #expect(AVMetadataKey.quickTimeMetadataKeyCreationDate.rawValue == "com.apple.quicktime.creationdate")
        #expect(AVMetadataKey.quickTimeMetadataKeyLocationISO6709.rawValue == "com.apple.quicktime.location.ISO6709")
        #expect(AVMetadataKey.quickTimeUserDataKeyFullName.rawValue == "\u{A9}nam")
        #expect(AVMetadataKey.iTunesMetadataKeySongName.rawValue == "©nam")
        #expect(AVMetadataKey.iTunesMetadataKeyArtist.rawValue == "©ART")
        #expect(AVMetadataKey.iTunesMetadataKeyAlbumArtist.rawValue == "aART")
        #expect(AVMetadataKey.iTunesMetadataKeyCoverArt.rawValue == "covr")
        #expect(AVMetadataKey.id3MetadataKeyTitleDescription.rawValue == "TIT2")
        #expect(AVMetadataKey.metadata3GPUserDataKeyAlbumAndTrack.rawValue == "albm")
        #expect(AVMetadataKey.icyMetadataKeyStreamURL.rawValue == "StreamUrl")
        #expect(AVMetadataIdentifier.commonIdentifierTitle.rawValue == "common/title")
        #expect(AVMetadataIdentifier.commonIdentifierAssetIdentifier.rawValue == "common/identifier")
        #expect(AVMetadataIdentifier.quickTimeMetadataTitle.rawValue == "mdta/com.apple.quicktime.title")
        #expect(AVMetadataIdentifier.quickTimeMetadataLocationISO6709.rawValue == "mdta/com.apple.quicktime.location.ISO6709")
        #expect(AVMetadataIdentifier.quickTimeUserDataFullName.rawValue == "udta/%A9nam")
        #expect(AVMetadataIdentifier.iTunesMetadataSongName.rawValue == "itsk/%A9nam")
        #expect(AVMetadataIdentifier.id3MetadataAlbumTitle.rawValue == "id3/TALB")
        #expect(AVMetadataIdentifier.identifier3GPUserDataTitle.rawValue == "uiso/titl")
        #expect(AVMetadataExtraAttributeKey.valueURI.rawValue == "URL")
    }

    // MARK: Identifiers

    /// Every (identifier, key, key space) triple this module declares, from its generated tables.
    static let declaredTriples: [(AVMetadataIdentifier, AVMetadataKey, AVMetadataKeySpace)] = [
        (.commonIdentifierTitle, .commonKeyTitle, .common),
        (.commonIdentifierCreationDate, .commonKeyCreationDate, .common),
        (.commonIdentifierAssetIdentifier, .commonKeyIdentifier, .common),
        (.quickTimeUserDataFullName, .quickTimeUserDataKeyFullName, .quickTimeUserData),
        (.quickTimeUserDataLocationISO6709, .quickTimeUserDataKeyLocationISO6709, .quickTimeUserData),
        (.quickTimeUserDataTrackName, .quickTimeUserDataKeyTrackName, .quickTimeUserData),
        (.quickTimeMetadataTitle, .quickTimeMetadataKeyTitle, .quickTimeMetadata),
        (.quickTimeMetadataCreationDate, .quickTimeMetadataKeyCreationDate, .quickTimeMetadata),
        (.quickTimeMetadataiXML, .quickTimeMetadataKeyiXML, .quickTimeMetadata),
        (.iTunesMetadataSongName, .iTunesMetadataKeySongName, .iTunes),
        (.iTunesMetadataAlbumArtist, .iTunesMetadataKeyAlbumArtist, .iTunes),
        (.iTunesMetadataReleaseDate, .iTunesMetadataKeyReleaseDate, .iTunes),
        (.id3MetadataTitleDescription, .id3MetadataKeyTitleDescription, .id3),
        (.isoUserDataCopyright, .isoUserDataKeyCopyright, .isoUserData),
        (.identifier3GPUserDataLocation, .metadata3GPUserDataKeyLocation, .isoUserData),
        (.icyMetadataStreamTitle, .icyMetadataKeyStreamTitle, .icy),
    ]

    @Test("identifier(forKey:keySpace:), key(forIdentifier:) and keySpace(forIdentifier:) agree with Apple's constants")
    func identifierRoundTrip() {
        for (identifier, key, keySpace) in Self.declaredTriples {
            #expect(AVMetadataItem.identifier(forKey: key.rawValue, keySpace: keySpace) == identifier)
            #expect(AVMetadataItem.identifier(forKey: key, keySpace: keySpace) == identifier)
            #expect(AVMetadataItem.identifier(forKey: key.rawValue as NSString, keySpace: keySpace) == identifier)
            #expect((AVMetadataItem.key(forIdentifier: identifier) as? NSString).map(String.init) == key.rawValue)
            #expect(AVMetadataItem.keySpace(forIdentifier: identifier) == keySpace)
        }
    }

    @Test("four-character codes in an NSNumber make the same identifier as the string")
    func numericKey() {
        let code: UInt32 = 0xA9_6E_61_6D  // '©nam' in MacRoman/Latin-1 bytes
        #expect(AVMetadataItem.identifier(forKey: NSNumber(value: code), keySpace: .quickTimeUserData) == .quickTimeUserDataFullName)
    }

    @Test("keys that need escaping round-trip through identifiers")
    func escapedKeysRoundTrip() {
        for key in ["a/b", "100%", "na\u{EF}ve", "\u{1F3AC}clip", "com.example.key with space"] {
            let identifier = AVMetadataItem.identifier(forKey: key, keySpace: .quickTimeMetadata)
            #expect(identifier != nil)
            #expect(identifier.map { $0.rawValue.dropFirst(5).contains("/") } == false)
            #expect(identifier.flatMap { AVMetadataItem.key(forIdentifier: $0) as? NSString }.map(String.init) == key)
        }
        #expect(AVMetadataItem.keySpace(forIdentifier: AVMetadataIdentifier("no-slash")) == nil)
        #expect(AVMetadataItem.key(forIdentifier: AVMetadataIdentifier("udta/")) == nil)
    }

    // MARK: Items and filtering

    @Test("an item derives identifier and commonKey from key and key space")
    func itemProperties() {
        let item = AVMetadataItem(keySpace: .quickTimeUserData, key: "©nam", value: "Hello" as NSString)
        #expect(item.identifier == .quickTimeUserDataFullName)
        #expect(item.commonKey == .commonKeyTitle)
        #expect(item.stringValue == "Hello")
        #expect(item.numberValue == nil)
        #expect(item.dataType == "com.apple.metadata.datatype.UTF-8")
        #expect(!item.time.isValid)
        #expect(!item.duration.isValid)
        let comment = AVMetadataItem(keySpace: .quickTimeUserData, key: "©cmt", value: "x" as NSString)
        #expect(comment.commonKey == nil)
    }

    @Test("metadataItems(from:filteredByIdentifier:) keeps only matching items in order")
    func filterByIdentifier() {
        let items = [
            AVMetadataItem(keySpace: .iTunes, key: "©nam", value: "A" as NSString),
            AVMetadataItem(keySpace: .iTunes, key: "©ART", value: "B" as NSString),
            AVMetadataItem(keySpace: .iTunes, key: "©nam", value: "C" as NSString),
            AVMetadataItem(keySpace: .quickTimeUserData, key: "©nam", value: "D" as NSString),
        ]
        let titles = AVMetadataItem.metadataItems(from: items, filteredByIdentifier: .iTunesMetadataSongName)
        #expect(titles.map(\.stringValue) == ["A", "C"])
        #expect(AVMetadataItem.metadataItems(from: items, filteredByIdentifier: .commonIdentifierTitle).isEmpty)
        let byKey = AVMetadataItem.metadataItems(from: items, withKey: AVMetadataKey.iTunesMetadataKeySongName, keySpace: nil)
        #expect(byKey.map(\.stringValue) == ["A", "C", "D"])
        let byKeySpace = AVMetadataItem.metadataItems(from: items, withKey: nil, keySpace: .quickTimeUserData)
        #expect(byKeySpace.map(\.stringValue) == ["D"])
    }

    @Test("language filters match tags, prefixes, and preference order")
    func languageFilters() {
        func item(_ value: String, _ tag: String?) -> AVMetadataItem {
            AVMetadataItem(keySpace: .quickTimeMetadata, key: "com.apple.quicktime.title", value: value as NSString, extendedLanguageTag: tag)
        }
        let items = [item("English", "en-US"), item("French", "fr"), item("None", nil), item("German", "de")]
        let sorted = AVMetadataItem.metadataItems(from: items, filteredAndSortedAccordingToPreferredLanguages: ["fr", "en"])
        #expect(sorted.map(\.stringValue) == ["French", "English"])
        let french = AVMetadataItem.metadataItems(from: items, with: Locale(identifier: "fr"))
        #expect(french.map(\.stringValue) == ["French"])
    }

    @Test("the mutable item keeps identifier, key and key space consistent")
    func mutableItem() {
        let item = AVMutableMetadataItem()
        item.identifier = .quickTimeMetadataLocationISO6709
        #expect(item.keySpace == .quickTimeMetadata)
        #expect((item.key as? NSString).map(String.init) == "com.apple.quicktime.location.ISO6709")
        #expect(item.commonKey == .commonKeyLocation)
        item.keySpace = .quickTimeUserData
        item.key = "©nam" as NSString
        #expect(item.identifier == .quickTimeUserDataFullName)
        item.value = "+48.8577+002.2950/" as NSString
        #expect(item.dataType == "com.apple.metadata.datatype.UTF-8")
        item.extendedLanguageTag = "en"
        #expect(item.locale?.identifier == "en")
        item.time = CMTime(value: 3, timescale: 1)
        item.duration = CMTime(value: 1, timescale: 2)
        #expect(item.time == CMTime(value: 3, timescale: 1))
        item.extraAttributes = [.info: "x"]
        #expect(item.extraAttributes?[.info] as? String == "x")

        let frozen = item.copy() as? AVMetadataItem
        #expect(frozen != nil && !(frozen is AVMutableMetadataItem))
        item.value = "changed" as NSString
        #expect(frozen?.stringValue == "+48.8577+002.2950/")
        let mutable = frozen?.mutableCopy() as? AVMutableMetadataItem
        #expect(mutable?.identifier == .quickTimeUserDataFullName)
    }

    // MARK: Dates

    @Test("dateValue parses ISO 8601, FFmpeg and QuickTime date strings", arguments: [
        ("2024-05-01T12:00:00Z", 1_714_564_800.0),
        ("2024-05-01T12:00:00.000000Z", 1_714_564_800.0),
        ("2024-05-01T12:00:00.250000Z", 1_714_564_800.25),
        ("2024-05-01T12:00:00+0200", 1_714_557_600.0),
        ("2024-05-01T12:00:00+02:00", 1_714_557_600.0),
        ("2024-05-01T12:00:00-0530", 1_714_584_600.0),
        ("2024-05-01T12:00:00", 1_714_564_800.0),
        ("2024-05-01 12:00:00Z", 1_714_564_800.0),
        ("2024-05-01", 1_714_521_600.0),
    ])
    func dateParsing(text: String, seconds: Double) {
        let item = AVMetadataItem(keySpace: .common, key: "creationDate", value: text as NSString)
        #expect(item.dateValue?.timeIntervalSince1970 == seconds)
    }

    @Test("dateValue rejects what is not a date", arguments: ["2024", "yesterday", "2024-13-01", "2024-02-30", "2024-05-01T25:00:00Z", ""])
    func dateRejects(text: String) {
        #expect(AVMetadataItem(keySpace: .common, key: "creationDate", value: text as NSString).dateValue == nil)
    }

    @Test("value coercions: numbers, dates and data")
    func coercions() {
        let number = AVMetadataItem(keySpace: .iTunes, key: "tmpo", value: NSNumber(value: 120))
        #expect(number.stringValue == "120")
        #expect(number.numberValue?.intValue == 120)
        #expect(AVMetadataItem(keySpace: .iTunes, key: "tmpo", value: "98.5" as NSString).numberValue?.doubleValue == 98.5)
        let date = AVMetadataItem(keySpace: .common, key: "creationDate", value: NSDate(timeIntervalSince1970: 1_714_564_800))
        #expect(date.stringValue == "2024-05-01T12:00:00Z")
        let bytes = Data([1, 2, 3])
        let data = AVMetadataItem(keySpace: .iTunes, key: "covr", value: bytes as NSData)
        #expect(data.dataValue == bytes)
        #expect(data.dataType == "com.apple.metadata.datatype.raw-data")
        #expect(data.stringValue == nil)
    }

    // MARK: FFmpeg tags

    /// `ffprobe -show_format -of json` for `ffmpeg -f lavfi -i testsrc2 -t 1 -metadata title=Hello
    /// -metadata artist=Someone -metadata creation_time=2024-05-01T12:00:00Z -metadata
    /// location=+48.8577+002.2950/ out.mov` with FFmpeg 5.1.
    static let movTags: [(key: String, value: String)] = [
        ("major_brand", "qt  "), ("minor_version", "512"), ("compatible_brands", "qt  "),
        ("creation_time", "2024-05-01T12:00:00.000000Z"), ("artist", "Someone"), ("title", "Hello"),
        ("encoder", "Lavf59.27.100"), ("location", "+48.8577+002.2950/"),
    ]

    /// The same command writing out.mp4 with FFmpeg 5.1.
    static let mp4Tags: [(key: String, value: String)] = [
        ("major_brand", "isom"), ("minor_version", "512"), ("compatible_brands", "isomiso2avc1mp41"),
        ("creation_time", "2024-05-01T12:00:00.000000Z"), ("title", "Hello"), ("artist", "Someone"),
        ("encoder", "Lavf59.27.100"), ("location-eng", "+48.8577+002.2950/"), ("location", "+48.8577+002.2950/"),
    ]

    @Test("QuickTime movie tags become QuickTime user data items and common items")
    func movTagsFactory() throws {
        let (metadata, common) = AVMetadataItem.metadata(fromFFmpegTags: Self.movTags, formatName: "mov,mp4,m4a,3gp,3g2,mj2")
        #expect(metadata.map(\.identifier) == [
            .quickTimeUserDataArtist, .quickTimeUserDataFullName, .quickTimeUserDataSoftware,
            .quickTimeUserDataLocationISO6709,
        ])
        #expect(metadata.map(\.stringValue) == ["Someone", "Hello", "Lavf59.27.100", "+48.8577+002.2950/"])
        #expect(metadata.allSatisfy { $0.dataType == "com.apple.metadata.datatype.UTF-8" })

        let title = try #require(AVMetadataItem.metadataItems(from: common, filteredByIdentifier: .commonIdentifierTitle).first)
        #expect(title.stringValue == "Hello")
        #expect(title.keySpace == .common)
        #expect(title.commonKey == .commonKeyTitle)
        let location = try #require(AVMetadataItem.metadataItems(from: common, filteredByIdentifier: .commonIdentifierLocation).first)
        #expect(location.stringValue == "+48.8577+002.2950/")
        let created = try #require(AVMetadataItem.metadataItems(from: common, filteredByIdentifier: .commonIdentifierCreationDate).first)
        #expect(created.dateValue == Date(timeIntervalSince1970: 1_714_564_800))
        #expect(AVMetadataItem.metadataItems(from: common, filteredByIdentifier: .commonIdentifierArtist).first?.stringValue == "Someone")
        #expect(AVMetadataItem.metadataItems(from: common, filteredByIdentifier: .commonIdentifierSoftware).first?.stringValue == "Lavf59.27.100")
        // Container bookkeeping is not metadata.
        let all = metadata + common
        #expect(!all.contains { ["qt  ", "512"].contains($0.stringValue ?? "") })
    }

    @Test("MPEG-4 tags become iTunes items; the language variant is merged")
    func mp4TagsFactory() throws {
        let (metadata, common) = AVMetadataItem.metadata(fromFFmpegTags: Self.mp4Tags, formatName: "mov,mp4,m4a,3gp,3g2,mj2")
        #expect(metadata.map(\.identifier) == [
            .iTunesMetadataSongName, .iTunesMetadataArtist, .iTunesMetadataEncodingTool, .quickTimeUserDataLocationISO6709,
        ])
        let location = try #require(metadata.last)
        #expect(location.extendedLanguageTag == "en")
        #expect(AVMetadataItem.metadataItems(from: common, filteredByIdentifier: .commonIdentifierTitle).map(\.stringValue) == ["Hello"])
        #expect(AVMetadataItem.metadataItems(from: common, filteredByIdentifier: .commonIdentifierLocation).first?.extendedLanguageTag == "en")
    }

    @Test("QuickTime metadata keys pass through as mdta items and win the common key")
    func mdtaTags() throws {
        let tags: [(key: String, value: String)] = [
            ("major_brand", "qt  "), ("com.apple.quicktime.location.ISO6709", "+48.8577+002.2950+035.000/"),
            ("title", "Hello"), ("com.apple.quicktime.make", "Apple"), ("creation_time", "2024-05-01T12:00:00Z"),
            ("com.apple.quicktime.creationdate", "2024-05-01T14:00:00+0200"), ("location", "+10.0000+010.0000/"),
        ]
        let (metadata, common) = AVMetadataItem.metadata(fromFFmpegTags: tags, formatName: "mov,mp4,m4a,3gp,3g2,mj2")
        #expect(AVMetadataItem.metadataItems(from: metadata, filteredByIdentifier: .quickTimeMetadataMake).first?.stringValue == "Apple")
        #expect(AVMetadataItem.metadataItems(from: common, filteredByIdentifier: .commonIdentifierMake).first?.stringValue == "Apple")
        #expect(AVMetadataItem.metadataItems(from: common, filteredByIdentifier: .commonIdentifierLocation).map(\.stringValue)
            == ["+48.8577+002.2950+035.000/"])
        let created = AVMetadataItem.metadataItems(from: common, filteredByIdentifier: .commonIdentifierCreationDate)
        #expect(created.count == 1)
        #expect(created.first?.stringValue == "2024-05-01T14:00:00+0200")
        #expect(created.first?.dateValue == Date(timeIntervalSince1970: 1_714_564_800))
    }

    @Test("MP3 tags become ID3 items; unknown containers get common items only")
    func otherFamilies() {
        let (id3, id3Common) = AVMetadataItem.metadata(
            fromFFmpegTags: [("title", "Song"), ("artist", "Band"), ("date", "2024-05-01"), ("encoder", "Lavf59.27.100")],
            formatName: "mp3")
        #expect(id3.map(\.identifier) == [
            .id3MetadataTitleDescription, .id3MetadataLeadPerformer, .id3MetadataRecordingTime, .id3MetadataEncodedWith,
        ])
        #expect(AVMetadataItem.metadataItems(from: id3Common, filteredByIdentifier: .commonIdentifierTitle).first?.stringValue == "Song")
        let (mkv, mkvCommon) = AVMetadataItem.metadata(fromFFmpegTags: [("title", "Clip"), ("ENCODER", "x")], formatName: "matroska,webm")
        #expect(mkv.map(\.identifier) == [.commonIdentifierTitle])
        #expect(mkvCommon.map(\.identifier) == [.commonIdentifierTitle])
    }

    @Test("tags that FFmpeg reads from a file it wrote map as in the literal fixtures")
    func realFileThroughFFprobe() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("AVMetadataItemTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (ext, firstIdentifier) in [("mov", AVMetadataIdentifier.quickTimeUserDataFullName), ("mp4", .iTunesMetadataSongName)] {
            let url = directory.appendingPathComponent("out.\(ext)")
            _ = try Fixtures.run("ffmpeg", [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=5", "-t", "1", "-metadata", "title=Hello",
                "-metadata", "artist=Someone", "-metadata", "creation_time=2024-05-01T12:00:00Z",
                "-metadata", "location=+48.8577+002.2950/", url.path,
            ])
            let json = String(decoding: try Fixtures.run("ffprobe", ["-v", "error", "-show_format", "-of", "json", url.path]), as: UTF8.self)
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            let format = try #require(object?["format"] as? [String: Any])
            let tagObject = try #require(format["tags"] as? [String: String])
            let formatName = try #require(format["format_name"] as? String)
            // JSON loses FFmpeg's order; order the pairs by key for a stable input.
            let tags = tagObject.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
            let (metadata, common) = AVMetadataItem.metadata(fromFFmpegTags: tags, formatName: formatName)
            #expect(AVMetadataItem.metadataItems(from: metadata, filteredByIdentifier: firstIdentifier).first?.stringValue == "Hello")
            #expect(AVMetadataItem.metadataItems(from: common, filteredByIdentifier: .commonIdentifierTitle).first?.stringValue == "Hello")
            #expect(AVMetadataItem.metadataItems(from: common, filteredByIdentifier: .commonIdentifierArtist).first?.stringValue == "Someone")
            #expect(AVMetadataItem.metadataItems(from: common, filteredByIdentifier: .commonIdentifierLocation).first?.stringValue
                == "+48.8577+002.2950/")
            #expect(AVMetadataItem.metadataItems(from: common, filteredByIdentifier: .commonIdentifierCreationDate).first?.dateValue
                == Date(timeIntervalSince1970: 1_714_564_800))
        }
    }
}
