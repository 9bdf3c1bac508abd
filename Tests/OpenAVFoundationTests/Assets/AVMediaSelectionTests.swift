import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Selection groups of files with several audio languages and subtitles, made by ffmpeg, whose
/// languages and dispositions ffprobe reports.
@Suite(.timeLimit(.minutes(5))) struct AVMediaSelectionTests {
    /// A 2 s Matroska file: video; English (default) and French commentary audio; English SRT
    /// subtitles and forced French ASS subtitles.
    static func multilingual() throws -> URL {
        let srt = Fixtures.folder.appendingPathComponent("selection.srt")
        let ass = Fixtures.folder.appendingPathComponent("selection.ass")
        try Fixtures.lock.withLock {
            try "1\n00:00:00,500 --> 00:00:01,000\nHello\n\n".write(to: srt, atomically: true, encoding: .utf8)
            try """
            [Script Info]
            ScriptType: v4.00+

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
            Style: Default,Arial,20,&H00FFFFFF,&H00FFFFFF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,1

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: 0,0:00:01.00,0:00:01.50,Default,,0,0,0,,Bonjour

            """.write(to: ass, atomically: true, encoding: .utf8)
        }
        return try Fixtures.make("selection.mkv", [
            "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-f", "lavfi", "-i", "sine=frequency=440",
            "-f", "lavfi", "-i", "sine=frequency=880", "-i", srt.path, "-i", ass.path,
            "-map", "0", "-map", "1", "-map", "2", "-map", "3", "-map", "4", "-t", "2", "-c:v", "libx264", "-c:a", "aac",
            "-c:s:0", "srt", "-c:s:1", "ass",
            "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fre",
            "-metadata:s:s:0", "language=eng", "-metadata:s:s:1", "language=fre",
            "-disposition:a:0", "default", "-disposition:a:1", "comment", "-disposition:s:0", "0", "-disposition:s:1", "forced",
        ])
    }

    /// ffprobe's streams of one type: language, and the dispositions asked for.
    static func streams(_ url: URL, type: String) throws -> [(language: String?, isDefault: Bool, forced: Bool, comment: Bool)] {
        try ExportOracle.streams(url).filter { $0["codec_type"] as? String == type }.map { stream in
            let disposition = stream["disposition"] as? [String: Int] ?? [:]
            return ((stream["tags"] as? [String: String])?["language"], disposition["default"] == 1, disposition["forced"] == 1,
                    disposition["comment"] == 1)
        }
    }

    @Test func groupsFollowTheStreamsLanguagesAndDispositions() async throws {
        let url = try Self.multilingual()
        let asset = AVURLAsset(url: url)
        #expect(try await asset.load(.availableMediaCharacteristicsWithMediaSelectionOptions) == [.audible, .legible])

        let audio = try Self.streams(url, type: "audio")
        let audible = try #require(try await asset.loadMediaSelectionGroup(for: .audible))
        #expect(!audible.allowsEmptySelection)
        // ffprobe gives Matroska's ISO 639-2 codes (bibliographic "fre"); an option's locale is BCP 47.
        #expect(audio.map(\.language) == ["eng", "fre"])
        #expect(audible.options.map { $0.locale?.identifier } == ["en", "fr"])
        #expect(audible.defaultOption.flatMap { audible.options.firstIndex(of: $0) } == audio.firstIndex { $0.isDefault })
        #expect(audible.options.map { $0.hasMediaCharacteristic(.isAuxiliaryContent) } == audio.map(\.comment))
        #expect(audible.options.allSatisfy { $0.mediaType == .audio && $0.hasMediaCharacteristic(.audible) && $0.isPlayable })

        let subtitles = try Self.streams(url, type: "subtitle")
        let legible = try #require(asset.mediaSelectionGroup(forMediaCharacteristic: .legible))
        #expect(legible.allowsEmptySelection)
        #expect(legible.options.count == subtitles.count)
        #expect(legible.options.map { $0.hasMediaCharacteristic(.containsOnlyForcedSubtitles) } == subtitles.map(\.forced))
        #expect((legible.defaultOption == nil) == !subtitles.contains { $0.isDefault })
        #expect(legible.options.map { $0.displayName(with: Locale(identifier: "en")) } == ["English", "French Forced"])

        // Filtering as players do.
        let ordered = AVMediaSelectionGroup.mediaSelectionOptions(from: audible.options, filteredAndSortedAccordingToPreferredLanguages: ["fr-CA", "en"])
        #expect(ordered.map { $0.extendedLanguageTag } == ["fr", "en"])
        #expect(AVMediaSelectionGroup.mediaSelectionOptions(from: legible.options, withoutMediaCharacteristics: [.containsOnlyForcedSubtitles]).count == 1)
        #expect(AVMediaSelectionGroup.mediaSelectionOptions(from: legible.options, with: Locale(identifier: "fr_FR")).count == 1)
    }

    @Test func aSelectionRemembersWhatWasChosen() async throws {
        let asset = AVURLAsset(url: try Self.multilingual())
        let audible = try #require(try await asset.loadMediaSelectionGroup(for: .audible))
        let legible = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        let preferred = try await asset.load(.preferredMediaSelection)
        #expect(preferred.selectedMediaOption(in: audible) == audible.defaultOption)
        #expect(preferred.mediaSelectionCriteriaCanBeAppliedAutomatically(to: audible))
        let selection = try #require(preferred.mutableCopy() as? AVMutableMediaSelection)
        selection.select(audible.options[1], in: audible)
        selection.select(nil, in: legible)
        #expect(selection.selectedMediaOption(in: audible) == audible.options[1])
        #expect(selection.selectedMediaOption(in: legible) == nil)
        #expect(!selection.mediaSelectionCriteriaCanBeAppliedAutomatically(to: audible))
        #expect(preferred.selectedMediaOption(in: audible) == audible.defaultOption)
        // An option's property list names it again.
        #expect(audible.mediaSelectionOption(withPropertyList: audible.options[1].propertyList()) == audible.options[1])
        // Audio needs an option: nil chooses the default.
        selection.select(nil, in: audible)
        #expect(selection.selectedMediaOption(in: audible) == audible.defaultOption)
    }

    /// A player's criteria choose as the item becomes ready; an explicit choice stands.
    @Test func aPlayersCriteriaChooseTheAudio() async throws {
        let asset = AVURLAsset(url: try Self.multilingual())
        let audible = try #require(try await asset.loadMediaSelectionGroup(for: .audible))
        let french = try #require(audible.options.first { $0.extendedLanguageTag == "fr" })
        let player = AVPlayer()
        player.isMuted = true
        player.setMediaSelectionCriteria(AVPlayerMediaSelectionCriteria(preferredLanguages: ["de", "fr-FR"], preferredMediaCharacteristics: nil),
                                         forMediaCharacteristic: .audible)
        #expect(player.mediaSelectionCriteria(forMediaCharacteristic: .audible)?.preferredLanguages == ["de", "fr-FR"])
        let item = AVPlayerItem(asset: asset)
        player.replaceCurrentItem(with: item)
        #expect(await item.knownStatus() == .readyToPlay)
        #expect(item.currentMediaSelection.selectedMediaOption(in: audible) == french)
        #expect(item.tracks.filter { $0.isEnabled && $0.assetTrack?.mediaType == .audio }.map { $0.assetTrack?.trackID } == [french.track.trackID])
        // Without automatic criteria the default stands.
        let manual = AVPlayer()
        manual.isMuted = true
        manual.appliesMediaSelectionCriteriaAutomatically = false
        manual.setMediaSelectionCriteria(AVPlayerMediaSelectionCriteria(preferredLanguages: ["fr"], preferredMediaCharacteristics: nil),
                                         forMediaCharacteristic: .audible)
        let other = AVPlayerItem(asset: asset)
        manual.replaceCurrentItem(with: other)
        #expect(await other.knownStatus() == .readyToPlay)
        #expect(other.currentMediaSelection.selectedMediaOption(in: audible) == audible.defaultOption)
    }

    @Test func oneAudioTrackAndNoSubtitlesMakeNoGroups() async throws {
        let asset = AVURLAsset(url: try Fixtures.h264AAC())
        #expect(try await asset.load(.availableMediaCharacteristicsWithMediaSelectionOptions).isEmpty)
        #expect(try await asset.loadMediaSelectionGroup(for: .audible) == nil)
    }
}
