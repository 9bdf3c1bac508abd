import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Chapters read from files ffmpeg wrote (a QuickTime chapter track, MP4 Nero chapters,
/// Matroska chapters), compared with ffprobe's.
@Suite(.timeLimit(.minutes(5))) struct AVAssetChapterTests {
    /// Each chapter group's title and time range, in seconds.
    static func chapters(_ groups: [AVTimedMetadataGroup]) -> [(title: String, start: Double, end: Double)] {
        groups.map { ($0.items.first { $0.commonKey == .commonKeyTitle }?.stringValue ?? "", $0.timeRange.start.seconds, $0.timeRange.end.seconds) }
    }

    static func expectSame(_ ours: [(title: String, start: Double, end: Double)], _ reference: [(title: String, start: Double, end: Double)],
                           sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(ours.map(\.title) == reference.map(\.title), sourceLocation: sourceLocation)
        #expect(ours.count == reference.count && zip(ours, reference).allSatisfy { abs($0.start - $1.start) < 0.002 && abs($0.end - $1.end) < 0.002 },
                "ours \(ours), ffprobe \(reference)", sourceLocation: sourceLocation)
    }

    @Test(arguments: ["mp4", "mov", "mkv"]) func chaptersEqualFFprobes(fileExtension: String) async throws {
        let url = try ChapteredClip.make(fileExtension)
        let reference = try ChapteredClip.probe(url)
        try #require(reference.count == ChapteredClip.chapters.count)
        let asset = AVURLAsset(url: url)
        let locales = try await asset.load(.availableChapterLocales)
        #expect(locales.count == 1)
        let groups = try await asset.loadChapterMetadataGroups(bestMatchingPreferredLanguages: locales.map(\.identifier))
        Self.expectSame(Self.chapters(groups), reference)
        // The title items as chapter readers look for them.
        #expect(groups.allSatisfy { $0.items.first?.identifier == .commonIdentifierTitle && $0.items.first?.time == $0.timeRange.start })
        // The synchronous (deprecated) spellings give the same.
        Self.expectSame(Self.chapters(asset.chapterMetadataGroups(withTitleLocale: locales[0], containingItemsWithCommonKeys: nil)), reference)
    }

    @Test func chaptersOfAStatedLanguageMatchOnlyThatLanguage() async throws {
        // ffmpeg's QuickTime chapter track says English.
        let url = try ChapteredClip.make("mov")
        let asset = AVURLAsset(url: url)
        #expect(asset.availableChapterLocales.map { $0.language.languageCode?.identifier } == ["en"])
        #expect(try await asset.loadChapterMetadataGroups(withTitleLocale: Locale(identifier: "en_GB")).count == 3)
        #expect(try await asset.loadChapterMetadataGroups(withTitleLocale: Locale(identifier: "fr")).isEmpty)
        #expect(asset.chapterMetadataGroups(bestMatchingPreferredLanguages: ["de", "en-US"]).count == 3)
        #expect(asset.chapterMetadataGroups(bestMatchingPreferredLanguages: ["de"]).isEmpty)
    }

    /// A QuickTime chapter track is the audio and video tracks' chapter list, a text track.
    @Test func theChapterTrackIsTheOtherTracksChapterList() async throws {
        let asset = AVURLAsset(url: try ChapteredClip.make("mov"))
        let video = try #require(try await asset.loadTracks(withMediaType: .video).first)
        #expect(try await video.load(.availableTrackAssociationTypes) == [.chapterList])
        let chapters = try await video.loadAssociatedTracks(ofType: .chapterList)
        #expect(chapters.count == 1 && chapters.first?.mediaType == .text)
        #expect(chapters.first?.associatedTracks(ofType: .chapterList).isEmpty == true)
        // Matroska chapters have no track.
        let matroska = try #require(try await AVURLAsset(url: try ChapteredClip.make("mkv")).loadTracks(withMediaType: .video).first)
        #expect(matroska.availableTrackAssociationTypes.isEmpty)
    }

    @Test func aFileWithoutChaptersHasNone() async throws {
        let asset = AVURLAsset(url: try Fixtures.h264AAC())
        #expect(try await asset.load(.availableChapterLocales).isEmpty)
        #expect(try await asset.loadChapterMetadataGroups(bestMatchingPreferredLanguages: ["en"]).isEmpty)
    }
}
