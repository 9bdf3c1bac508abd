import CaptureDevices
import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

extension StreamingPlaybackTests {
    /// An HTTP Live Stream's audio renditions (`EXT-X-MEDIA`, issue 35) are its audible
    /// selection group, named and ordered as the playlist says; choosing the second plays its
    /// sound and fetches only its segments.
    @Test func theAudioRenditionsOfAnHTTPLiveStreamAreItsAudibleOptions() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let url = try Self.server().url(try StreamingFixtures.hlsRenditions())
        let item = AVPlayerItem(url: url)
        let group = try #require(try await item.asset.loadMediaSelectionGroup(for: .audible))
        // The oracle: the playlist's EXT-X-MEDIA entries, as ffprobe reads them.
        let probed = (try StreamingFixtures.probe(url)["streams"] as? [[String: Any]] ?? [])
            .filter { $0["codec_type"] as? String == "audio" }
            .map { ($0["tags"] as? [String: Any]) ?? [:] }
        #expect(probed.map { $0["comment"] as? String } == ["English", "Français"])
        #expect(group.options.map(\.displayName) == ["English", "Français"])
        #expect(group.options.map(\.extendedLanguageTag) == probed.map { ($0["language"] as? String).flatMap(FFmpegTagFamily.languageTag(forISO639_2:)) })
        #expect(group.options.map(\.extendedLanguageTag) == ["en", "fr"])
        let french = try #require(group.options.last)
        item.select(french, in: group)
        #expect(item.currentMediaSelection.selectedMediaOption(in: group) == french)

        let recorder = try MonitorRecorder(daemon)
        let player = PulseAudioDiscovery.$server.withValue(daemon.server) { AVPlayer(playerItem: item) }
        let ended = PlaybackTests.NotificationCounter(AVPlayerItem.didPlayToEndTimeNotification, object: item)
        let before = try Self.server().transferred().paths
        player.play()
        await ended.wait(seconds: 20)
        #expect(ended.posted == 1, "\(String(describing: item.error))")
        _ = try await recorder.waitForMore(seconds: 0.3)
        let samples = recorder.stop()
        // The sound heard is the French rendition's 1500 Hz tone: count the left channel's
        // upward zero crossings over the loudest second.
        let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        let loud = try #require(left.indices.first { abs(left[$0]) > 0.05 })
        let second = left[(loud + 48_000)..<min(left.count, loud + 96_000)]
        let crossings = zip(second, second.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        #expect(abs(crossings - 1500) < 15, "\(crossings) Hz heard")
        // Only the chosen rendition's segments after the first were fetched while playing.
        let after = try Self.server().transferred().paths
        func fetched(_ prefix: String) -> Int {
            after.filter { $0.key.contains("hls-renditions/\(prefix)_") && !$0.key.hasSuffix("_000.ts") }
                .reduce(0) { $0 + $1.value - (before[$1.key] ?? 0) }
        }
        #expect(fetched("French") >= 2, "\(after.filter { $0.key.contains("hls-renditions") })")
        #expect(fetched("English") == 0, "\(after.filter { $0.key.contains("hls-renditions") })")
    }
}
