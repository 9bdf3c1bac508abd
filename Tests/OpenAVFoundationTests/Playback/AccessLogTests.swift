import Foundation
import CaptureDevices
@testable import OpenAVFoundation
import Testing
import TestSupport

extension PlaybackTests {
    /// The access log of a file played from 0.5 s with a pause in the middle, its video taken
    /// by an output that asks for a picture only every 120 ms (a third of the 25 fps): the time
    /// watched leaves the pause out, and every decoded picture from the start on is either
    /// given to the output or counted as dropped (ffprobe counts the pictures).
    @Test func theAccessLogTellsTheTimeWatchedAndThePicturesDropped() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let url = try Self.clip(audioCodec: "aac")
        let item = AVPlayerItem(url: url)
        let output = AVPlayerItemVideoOutput(pixelBufferAttributes: nil)
        item.add(output)
        let player = PulseAudioDiscovery.$server.withValue(daemon.server) { AVPlayer(playerItem: item) }
        let entries = NotificationCounter(.AVPlayerItemNewAccessLogEntry, object: item)
        let ended = NotificationCounter(AVPlayerItem.didPlayToEndTimeNotification, object: item)
        #expect(await player.seek(to: CMTime(value: 1, timescale: 2), toleranceBefore: .zero, toleranceAfter: .zero))
        #expect(item.accessLog() == nil, "a log before playing")
        var given = Set<CMTime>()
        func take() {
            var shown = CMTime.invalid
            if output.copyPixelBuffer(forItemTime: player.currentTime(), itemTimeForDisplay: &shown) != nil { given.insert(shown) }
        }
        let began = Date()
        player.play()
        for _ in 0..<5 {
            take()
            try await Task.sleep(for: .milliseconds(120))  // the output's pace, a duration: a picture every 120 ms
        }
        // The period under way began where the seek landed.
        let first = try #require(item.accessLog()?.events.first)
        #expect(first.playbackStartOffset == 0.5 && first.durationWatched > 0, "\(first.playbackStartOffset) \(first.durationWatched)")
        player.pause()
        try await Task.sleep(for: .milliseconds(500))  // the pause, a duration: the time watched must leave it out
        let pausedAt = player.currentTime().seconds
        player.play()
        while ended.posted == 0 && Date().timeIntervalSince(began) < 10 {
            take()
            try await Task.sleep(for: .milliseconds(120))  // the output's pace, a duration: a picture every 120 ms
        }
        #expect(ended.posted == 1)

        let log = try #require(item.accessLog())
        let event = try #require(log.events.first)
        #expect(log.events.count == 1 && entries.posted == 1)
        #expect(event.uri == url.absoluteString && event.playbackType == "FILE" && event.playbackSessionID != nil)
        // The last uninterrupted period began where the pause left off.
        #expect(abs(event.playbackStartOffset - pausedAt) < 0.001, "started at \(event.playbackStartOffset) s, paused at \(pausedAt) s")
        let startDate = try #require(event.playbackStartDate)
        #expect(startDate >= began.addingTimeInterval(-0.05) && startDate < began.addingTimeInterval(1))
        // 1.5 s of media played, the 0.5 s pause left out.
        #expect(abs(event.durationWatched - 1.5) < 0.15, "watched \(event.durationWatched) s")
        #expect(event.numberOfStalls == 0)
        // The pictures from the one shown at 0.5 s to the end, by ffprobe: each given or
        // dropped, but the few decoded after the last look, which are neither.
        let times = try String(decoding: Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "frame=pts_time",
                                                                   "-of", "csv=p=0", url.path]), as: UTF8.self)
            .split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", "))) }
        // The first is the picture shown at 0.5 s: the last one at or before it.
        let firstShown = try #require(times.last { $0 <= 0.5 })
        let played = times.filter { $0 >= firstShown }.count
        let accounted = given.count + event.numberOfDroppedVideoFrames
        #expect(given.count > 5 && event.numberOfDroppedVideoFrames > played / 2, "\(given.count) given, \(event.numberOfDroppedVideoFrames) dropped")
        #expect(accounted <= played && accounted >= played - 4, "\(given.count) given + \(event.numberOfDroppedVideoFrames) dropped of \(played)")
        // The stated bit rate: the tracks' own, as ffprobe reads them.
        let streams = try #require(try Fixtures.probe(url)["streams"] as? [[String: Any]])
        let rates = streams.compactMap { ($0["bit_rate"] as? String).flatMap(Double.init) }.reduce(0, +)
        #expect(abs(event.indicatedBitrate - rates) < rates * 0.05, "\(event.indicatedBitrate) against ffprobe's \(rates)")
        // The same in the Extended Log File Format.
        let text = String(decoding: try #require(log.extendedLogData()), as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(lines.first == "#Version: 1.0" && lines.contains { $0.hasPrefix("#Fields: date time s-uri") })
        let fields = try #require(lines.last).split(separator: " ")
        #expect(fields.count == 10 && fields[2] == url.absoluteString && fields[8] == "\(event.numberOfDroppedVideoFrames)")
        #expect(log.extendedLogDataStringEncoding == String.Encoding.utf8.rawValue)
    }
}
