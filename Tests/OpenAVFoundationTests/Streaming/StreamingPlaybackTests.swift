import CaptureDevices
import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Playing from the tests' HTTP server: HTTP Live Streams to their end, a server that fails.
/// Real time: the name puts it in the test script's real-time phase.
@Suite(.serialized, .timeLimit(.minutes(10))) struct StreamingPlaybackTests {
    static func server() throws -> MediaHTTPServer { try StreamingFixtures.server.get() }

    /// Plays `item` on `daemon`'s sink, pulling its pictures as a display would, until it ends,
    /// fails or 20 s pass: the player, how long it took, the display times of the pictures
    /// shown, and whether the item played to its end (without a failure).
    static func playToEnd(_ item: AVPlayerItem, on daemon: PulseAudioDaemon) async throws
        -> (player: AVPlayer, took: Duration, shown: [CMTime], ended: Bool) {
        let output = AVPlayerItemVideoOutput(pixelBufferAttributes: nil)
        item.add(output)
        let player = PulseAudioDiscovery.$server.withValue(daemon.server) { AVPlayer(playerItem: item) }
        let ended = PlaybackTests.NotificationCounter(AVPlayerItem.didPlayToEndTimeNotification, object: item)
        let failed = PlaybackTests.NotificationCounter(AVPlayerItem.failedToPlayToEndTimeNotification, object: item)
        let clock = ContinuousClock()
        player.play()
        let start = clock.now
        var shown: [CMTime] = []
        while ended.posted == 0 && failed.posted == 0 && clock.now - start < .seconds(20) {
            let time = output.itemTime(forHostTime: CACurrentMediaTime())
            if output.hasNewPixelBuffer(forItemTime: time) {
                var display = CMTime.invalid
                if output.copyPixelBuffer(forItemTime: time, itemTimeForDisplay: &display) != nil { shown.append(display) }
            }
            try await Task.sleep(for: .milliseconds(5))  // the display's refresh, a duration: it looks every 5 ms
        }
        return (player, clock.now - start, shown, ended.posted == 1 && failed.posted == 0)
    }

    @Test(arguments: ["mpegts", "fmp4"])
    func anHTTPLiveStreamPlaysToItsEndInRealTime(segmentType: String) async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let item = AVPlayerItem(url: try Self.server().url(try StreamingFixtures.hls(segmentType: segmentType)))
        let (player, took, shown, ended) = try await Self.playToEnd(item, on: daemon)
        #expect(ended, "\(String(describing: item.error))")
        #expect(item.status == .readyToPlay)
        #expect(abs(item.duration.seconds - 6) < 0.05)
        #expect(abs(player.currentTime().seconds - item.duration.seconds) < 0.05)
        // 6 s of media played in about 6 s of wall time, most of its 180 pictures shown.
        #expect(took > .milliseconds(5500) && took < .seconds(9), "\(took)")
        #expect(shown.count > 150, "\(shown.count) pictures shown")
        #expect(shown.first.map { $0.seconds < 0.1 } == true, "\(String(describing: shown.first))")
    }

    @Test func aMissingStreamFailsTheItemWithTheServersAnswer() async throws {
        let item = AVPlayerItem(url: try Self.server().url("no-such-stream/master.m3u8"))
        let player = AVPlayer(playerItem: item)
        player.isMuted = true
        #expect(await item.knownStatus() == .failed)
        let error = try #require(item.error as? AVError)
        #expect(item.status == .failed && error.code == .contentIsUnavailable)
        #expect((error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == -12938)
    }

    @Test func aServerThatHangsUpMidStreamFailsToPlayToTheEnd() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let item = AVPlayerItem(url: try Self.server().url("cut/" + (try StreamingFixtures.progressive(indexFirst: true))))
        item.add(AVPlayerItemVideoOutput(pixelBufferAttributes: nil))
        let player = PulseAudioDiscovery.$server.withValue(daemon.server) { AVPlayer(playerItem: item) }
        let failed = PlaybackTests.NotificationCounter(AVPlayerItem.failedToPlayToEndTimeNotification, object: item)
        let ended = PlaybackTests.NotificationCounter(AVPlayerItem.didPlayToEndTimeNotification, object: item)
        player.play()
        await failed.wait(seconds: 15)
        #expect(failed.posted == 1 && ended.posted == 0)
        // The server sent the first half of the file: playback stopped within it.
        #expect(player.currentTime().seconds < 3.5)
        let error = try #require(item.error as? AVError)
        #expect(error.code == .noLongerPlayable)
        #expect((error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == URLError.networkConnectionLost.rawValue)
    }

    @Test func aServerSlowerThanTheMediaStallsPlaybackWhichGoesOnWhenDataArrives() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        // 104 kB for 6 s: 17 kB/s to keep up; the server sends 8 kB/s.
        let item = AVPlayerItem(url: try Self.server().url("slow/8000/" + (try StreamingFixtures.progressive(indexFirst: true))))
        let player = PulseAudioDiscovery.$server.withValue(daemon.server) { AVPlayer(playerItem: item) }
        let statuses = PlaybackTests.ResultList<(AVPlayer.TimeControlStatus, AVPlayer.WaitingReason?, Bool)>()
        let loaded = PlaybackTests.ResultList<(Double, Double)>()
        let observation = player.observe(\.timeControlStatus, options: [.new]) { player, _ in
            statuses.add((player.timeControlStatus, player.reasonForWaitingToPlay, item.isPlaybackLikelyToKeepUp))
            if player.timeControlStatus == .waitingToPlayAtSpecifiedRate, let range = item.loadedTimeRanges.first?.timeRangeValue {
                loaded.add((range.end.seconds, player.currentTime().seconds))
            }
        }
        defer { observation.invalidate() }
        let stalled = PlaybackTests.NotificationCounter(AVPlayerItem.playbackStalledNotification, object: item)
        let ended = PlaybackTests.NotificationCounter(AVPlayerItem.didPlayToEndTimeNotification, object: item)
        let clock = ContinuousClock()
        let start = clock.now
        player.play()
        await ended.wait(seconds: 45)
        #expect(ended.posted == 1, "\(statuses.values)")
        #expect(stalled.posted >= 1)
        // The access log counts them.
        #expect(item.accessLog()?.events.last?.numberOfStalls == stalled.posted)
        // Playing, then waiting to minimize stalls (not likely to keep up), then playing again.
        let values = statuses.values
        let firstPlaying = try #require(values.firstIndex { $0.0 == .playing }, "\(values)")
        let stall = try #require(values[firstPlaying...].firstIndex { $0.0 == .waitingToPlayAtSpecifiedRate }, "\(values)")
        #expect(values[stall].1 == .toMinimizeStalls && values[stall].2 == false)
        #expect(values[stall...].contains { $0.0 == .playing }, "\(values)")
        // Stalled, what is at hand ends about where playback stands, short of the end.
        let stallLoads = loaded.values.filter { $0.1 > 0.5 }
        #expect(!stallLoads.isEmpty && stallLoads.allSatisfy { $0.0 < 5.9 && $0.0 >= $0.1 - 0.05 && $0.0 < $0.1 + 1.5 }, "\(loaded.values)")
        // The media arrives no faster than 8 kB/s: it cannot have played in 6 s.
        #expect(clock.now - start > .seconds(10))
        #expect(abs(player.currentTime().seconds - item.duration.seconds) < 0.05)
    }

    @Test func anHTTPLiveStreamGoesDownAVariantWhenItsSegmentsComeTooSlowly() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        // The first variant's (320x240) second segment, v0_001, comes at 2 kB/s, far below its
        // bit rate; everything else at once.
        let item = AVPlayerItem(url: try Self.server().url("throttle/v0_001/2000/" + (try StreamingFixtures.hls(segmentType: "fmp4"))))
        let output = AVPlayerItemVideoOutput(pixelBufferAttributes: nil)
        item.add(output)
        let player = PulseAudioDiscovery.$server.withValue(daemon.server) { AVPlayer(playerItem: item) }
        let stalled = PlaybackTests.NotificationCounter(AVPlayerItem.playbackStalledNotification, object: item)
        let ended = PlaybackTests.NotificationCounter(AVPlayerItem.didPlayToEndTimeNotification, object: item)
        #expect(await item.knownStatus() == .readyToPlay)
        // The highest variant first.
        #expect(item.presentationSize == CGSize(width: 320, height: 240))
        player.play()
        var sizes: [Int] = []
        let clock = ContinuousClock()
        let start = clock.now
        while ended.posted == 0 && clock.now - start < .seconds(30) {
            let time = output.itemTime(forHostTime: CACurrentMediaTime())
            if output.hasNewPixelBuffer(forItemTime: time), let picture = output.copyPixelBuffer(forItemTime: time, itemTimeForDisplay: nil) {
                if sizes.last != CVPixelBufferGetWidth(picture) { sizes.append(CVPixelBufferGetWidth(picture)) }
            }
            try await Task.sleep(for: .milliseconds(5))  // the display's refresh, a duration: it looks every 5 ms
        }
        #expect(ended.posted == 1, "\(String(describing: item.error))")
        #expect(stalled.posted >= 1)
        // It stalled in the first variant, went on in the second to the end.
        #expect(item.presentationSize == CGSize(width: 160, height: 120))
        #expect(sizes.last == 160, "\(sizes)")
        #expect(item.tracks.filter(\.isEnabled).compactMap(\.assetTrack?.trackID) == [3, 4])
        // The access log: an event per variant played, with the bit rate the playlist states.
        let events = item.accessLog()?.events ?? []
        #expect(events.map(\.indicatedBitrate) == [730_400, 235_400], "\(events.map(\.indicatedBitrate))")
        #expect((events.first?.numberOfStalls ?? 0) >= 1 && events.allSatisfy { $0.playbackType == "VOD" })
    }

    @Test func aPeakBitRateChoosesTheVariantBelowIt() async throws {
        let item = AVPlayerItem(url: try Self.server().url(try StreamingFixtures.hls(segmentType: "mpegts")))
        // The variants state 730 400 and 235 400 b/s.
        item.preferredPeakBitRate = 500_000
        let player = AVPlayer(playerItem: item)
        player.isMuted = true
        #expect(await item.knownStatus() == .readyToPlay)
        #expect(item.presentationSize == CGSize(width: 160, height: 120))
        let small = AVPlayerItem(url: try Self.server().url(try StreamingFixtures.hls(segmentType: "mpegts")))
        small.preferredMaximumResolution = CGSize(width: 200, height: 200)
        let other = AVPlayer(playerItem: small)
        other.isMuted = true
        #expect(await small.knownStatus() == .readyToPlay)
        #expect(small.presentationSize == CGSize(width: 160, height: 120))
    }

    @Test func aLivePlaylistThatGetsNoNewSegmentEndsInsteadOfWaitingForever() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let url = try Self.server().url("live/" + (try StreamingFixtures.hls(segmentType: "fmp4")).replacingOccurrences(of: "master", with: "v0"))
        let item = AVPlayerItem(url: url)
        item.add(AVPlayerItemVideoOutput(pixelBufferAttributes: nil))
        let player = PulseAudioDiscovery.$server.withValue(daemon.server) { AVPlayer(playerItem: item) }
        let ended = PlaybackTests.NotificationCounter(AVPlayerItem.didPlayToEndTimeNotification, object: item)
        let failed = PlaybackTests.NotificationCounter(AVPlayerItem.failedToPlayToEndTimeNotification, object: item)
        player.play()
        // The 6 s the playlist lists, then three reloads (one target duration, 2 s, apart)
        // without a new segment: the stream ends.
        await ended.wait(seconds: 30)
        #expect(ended.posted == 1 && failed.posted == 0)
        #expect(item.duration.isIndefinite)
        #expect(player.currentTime().seconds > 5.5)
    }

    /// An asset whose bytes a resource loader delegate serves from memory plays as the file
    /// does: to its end, in real time, its pictures shown.
    @Test func anAssetServedByAResourceLoaderDelegatePlaysToItsEnd() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let (asset, delegate) = try AVAssetResourceLoaderTests.asset(try AVAssetResourceLoaderTests.file(), .byteRanges(piece: 64 * 1024))
        defer { withExtendedLifetime(delegate) {} }
        let item = AVPlayerItem(asset: asset)
        let (player, took, shown, ended) = try await Self.playToEnd(item, on: daemon)
        #expect(ended, "\(String(describing: item.error))")
        #expect(abs(player.currentTime().seconds - 6) < 0.05)
        #expect(took > .milliseconds(5500) && took < .seconds(9), "\(took)")
        #expect(shown.count > 150, "\(shown.count) pictures shown")
    }

    /// An item let go while its delegate has not answered: the delegate is told the request
    /// was cancelled.
    @Test func replacingAnItemMidLoadCancelsItsResourceRequest() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let threshold: Int64 = 2 << 20
        let (asset, delegate) = try AVAssetResourceLoaderTests.asset(try AVAssetResourceLoaderTests.largeFile(), .stallsFrom(offset: threshold))
        let item = AVPlayerItem(asset: asset)
        let player = PulseAudioDiscovery.$server.withValue(daemon.server) { AVPlayer(playerItem: item) }
        player.play()
        #expect(await waitUntil(timeout: 60) { done in delegate.whenStalled(done); return nil },
                "no read reached the stalled range: \(delegate.requests), \(item.status.rawValue) \(String(describing: item.error)) \(player.currentTime().seconds)")
        player.replaceCurrentItem(with: nil)
        #expect(await waitUntil(timeout: 30) { done in delegate.whenCancelled(done); return nil }, "the delegate was told of no cancellation")
        #expect(delegate.cancellations.first.map { $0.offset >= threshold } == true, "\(delegate.cancellations)")
    }
}
