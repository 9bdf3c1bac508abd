import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// A player item's error log, for an item the test web server refuses (HTTP 404).
@Suite(.timeLimit(.minutes(10))) struct ErrorLogTests {
    @Test func aFailedItemLogsTheServersAnswer() async throws {
        let clip = try Fixtures.h264AAC()
        let server = try MediaHTTPServer(root: clip.deletingLastPathComponent())
        let url = server.url("missing.mp4")
        let item = AVPlayerItem(url: url)
        let posted = PlaybackTests.NotificationCounter(.AVPlayerItemNewErrorLogEntry, object: item)
        let player = AVPlayer(playerItem: item)
        player.isMuted = true
        #expect(await item.knownStatus() == .failed)
        await posted.wait(seconds: 5)
        #expect(posted.posted == 1)
        let log = try #require(item.errorLog())
        try #require(log.events.count == 1)
        let event = log.events[0]
        // The server's 404, as CoreMedia reports it.
        #expect(event.errorStatusCode == -12938 && event.errorDomain == "CoreMediaErrorDomain")
        #expect(event.errorComment?.contains("HTTP 404") == true, "\(String(describing: event.errorComment))")
        #expect(event.uri == url.absoluteString && event.serverAddress == url.host)
        #expect(event.playbackSessionID != nil && event.date != nil)
        let text = String(decoding: try #require(log.extendedLogData()), as: UTF8.self)
        #expect(text.contains("#Fields: date time s-uri s-ip cs-guid status domain comment\n"), "\(text)")
        #expect(text.contains(" -12938 CoreMediaErrorDomain \"HTTP 404"), "\(text)")
    }

    @Test func anItemThatPlaysHasNoErrorLog() async throws {
        let item = AVPlayerItem(url: try Fixtures.h264AAC())
        let player = AVPlayer(playerItem: item)
        player.isMuted = true
        #expect(await item.knownStatus() == .readyToPlay)
        #expect(item.errorLog() == nil)
    }
}
