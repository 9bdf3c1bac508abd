import CaptureDevices
import Foundation
import HostSystem
import Testing
@testable import OpenAVFoundation
import TestSupport

/// The player's timing on a sound server as users have it: a PulseAudio null sink with nothing
/// else attached, which (as PulseAudio does unless a client asks for less) renders up to 2 s
/// ahead while idle. The monitor recorder the other playback tests use asks the sink for 10 ms,
/// which lowers the latency for every stream; here it starts only after what it must not
/// influence was measured. Real time: these run in the test script's real-time phase.
@Suite(.serialized, .timeLimit(.minutes(2))) struct PlaybackTimingTests {
    /// A 5.3 s clip: 320x240 H.264 at 25 fps, and 48 kHz stereo pink noise (which lines up
    /// with itself at one offset only) in AAC.
    static func clip() throws -> URL {
        try Fixtures.make("timing-5.3.mp4", [
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25",
            "-f", "lavfi", "-i", "anoisesrc=color=pink:amplitude=0.4:seed=11:sample_rate=48000",
            "-t", "5.3", "-ac", "2", "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac",
        ])
    }

    /// The null sink's own latency, as `pactl` reports it, in seconds.
    static func sinkLatency(_ daemon: PulseAudioDaemon) throws -> Double {
        let listing = try daemon.pactl(["list", "sinks"])
        let line = try #require(listing.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("Latency:") })
        let microseconds = try #require(line.split(separator: " ").dropFirst().first.flatMap { Double($0) })
        return microseconds / 1e6
    }

    /// Waits until the idle sink is deep in one of its long blocks (more than 1 s rendered
    /// ahead), as a sink nobody has played to for a while may be when a user presses play. The
    /// sink's latency gives no notice when it changes: it is polled.
    static func waitForAnIdleSinkFarAhead(_ daemon: PulseAudioDaemon) async throws {
        let farAhead = try await pollUntil(timeout: 5) { try sinkLatency(daemon) >= 1 }
        #expect(farAhead, "the idle null sink did not render far ahead: the test proves nothing")
    }

    /// The guide's player, made ready and played at `rate`, as an app does.
    static func readyPlayer(_ url: URL, daemon: PulseAudioDaemon) async throws -> AVPlayer {
        let item = AVPlayerItem(url: url)
        let player = PulseAudioDiscovery.$server.withValue(daemon.server) { AVPlayer(playerItem: item) }
        try #require(await item.knownStatus() == .readyToPlay)
        return player
    }

    @Test(arguments: [Float(1), 2])
    func aClipEndsItsDurationAfterPlayOnASinkWithNothingElseAttached(rate: Float) async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let player = try await Self.readyPlayer(try Self.clip(), daemon: daemon)
        let ended = PlaybackTests.NotificationCounter(AVPlayerItem.didPlayToEndTimeNotification, object: player.currentItem)
        try await Self.waitForAnIdleSinkFarAhead(daemon)
        let started = HostClock.now
        player.rate = rate
        await ended.wait(seconds: 15)
        let elapsed = Double(HostClock.now - started) / 1e9
        #expect(ended.posted == 1)
        let expected = 5.3 / Double(rate)
        #expect(abs(elapsed - expected) <= 0.3, "the clip of \(expected) s at rate \(rate) ended \(elapsed) s after it was played")
    }

    /// Once playing, a recorder joins the sink's monitor; the item time the clock says at a
    /// host time is compared with the item time heard then (ffmpeg's decode found in what was
    /// recorded), and after `pause()` the sound must stop within 50 ms.
    @Test func theClockTellsWhatIsHeardAndPauseSilencesAtOnce() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let url = try Self.clip()
        let reference = try PlaybackTests.decodedSound(url)
        let player = try await Self.readyPlayer(url, daemon: daemon)
        try await Self.waitForAnIdleSinkFarAhead(daemon)
        // The first sound and the clock start together, at once: the clock reaches 1 s of the
        // item 1 s after play() (it stands still while the sound has not started). The host time
        // is read as the boundary time observer is told.
        let reachedHost = Locked<UInt64?>(nil)
        let started = HostClock.now
        let reached = await waitUntil(timeout: 5) { done in
            let boundary = player.addBoundaryTimeObserver(forTimes: [NSValue(time: CMTime(value: 1, timescale: 1))],
                                                          queue: DispatchQueue(label: "one second")) {
                reachedHost.wrappedValue = HostClock.now
                done()
            }
            player.play()
            return { player.removeTimeObserver(boundary) }
        }
        try #require(reached, "the clock did not reach 1 s of the item within 5 s")
        let oneSecond = Double(try #require(reachedHost.wrappedValue) - started) / 1e9
        #expect(abs(oneSecond - 1) < 0.15, "the clock reached 1 s of the item \(oneSecond) s after play()")

        let recorder = try MonitorRecorder(daemon)
        try #require(try await recorder.waitForMore(seconds: 0.3), "the monitor stopped recording")
        // A mark: the host time, the frames recorded by then, the player's time then.
        let markHost = HostClock.now
        let markFrames = recorder.recordedFrames
        let markItem = player.currentTime().seconds
        // Half a second of the item played past the mark, then paused.
        try #require(await player.reaches(markItem + 0.5))
        let pausedHost = HostClock.now
        player.pause()
        // Half a second of the sink recorded after the pause, to hear it silent.
        try #require(try await recorder.waitForMore(seconds: 0.5), "the monitor stopped recording")
        let recorded = recorder.stop()

        // The item time heard at the mark: where the recording around it lines up with the decode.
        let window = 4800
        let recordedStart = markFrames - window
        try #require(recordedStart >= 0 && (markFrames + window) * 2 <= recorded.count)
        let guess = Int(markItem * 48_000) - window
        var best = (offset: 0, score: -Double.infinity)
        for offset in max(0, guess - 9600)...(guess + 9600) where (offset + window) * 2 <= reference.count {
            var score = 0.0
            for index in 0..<window { score += Double(recorded[(recordedStart + index) * 2]) * Double(reference[(offset + index) * 2]) }
            if score > best.score { best = (offset, score) }
        }
        let heardAtMark = Double(best.offset + window) / 48_000
        // parec's own latency (10 ms asked) makes the recording trail the sink a little.
        #expect(abs(markItem - heardAtMark) < 0.04, "the clock said \(markItem) s while \(heardAtMark) s was heard")

        // The last sound heard, on the host clock (frames after the mark, from the mark's host time).
        let lastHeard = try #require((0..<(recorded.count / 2)).last { abs(recorded[$0 * 2]) > 1e-3 })
        let silencedHost = Double(markHost) / 1e9 + Double(lastHeard - markFrames) / 48_000
        let afterPause = silencedHost - Double(pausedHost) / 1e9
        #expect(afterPause < 0.05, "the sound went on \(afterPause) s after pause()")
        #expect(lastHeard < recorded.count / 2 - 4800, "the recording ends in sound: pause() did not silence it")
    }

    /// A rate change takes effect within 100 ms on a sink with nothing else attached: from
    /// 100 ms after the change on, the item's clock (which tells what is heard, see the test
    /// above) runs at the new rate, up to 2 and back down to 1.
    @Test func aRateChangeTakesEffectWithin100Milliseconds() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let player = try await Self.readyPlayer(try Self.clip(), daemon: daemon)
        try await Self.waitForAnIdleSinkFarAhead(daemon)
        player.play()
        try #require(await player.reaches(0.5, within: 5), "the clip did not reach 0.5 s")
        for rate in [Float(2), 1] {
            let changed = HostClock.now
            player.rate = rate
            // The clock's advance from 100 ms to 600 ms after the change, against the host's.
            func itemTime(at offset: UInt64) async throws -> (item: Double, host: UInt64) {
                let wake = changed + offset
                if HostClock.now < wake { try await Task.sleep(nanoseconds: wake - HostClock.now) }  // a time to look at, not a wait for an event
                return (player.currentTime().seconds, HostClock.now)
            }
            let first = try await itemTime(at: 100_000_000)
            let second = try await itemTime(at: 600_000_000)
            let measured = (second.item - first.item) / (Double(second.host - first.host) / 1e9)
            #expect(abs(measured - Double(rate)) < 0.1, "100 ms after the rate became \(rate) the clock ran at \(measured)")
        }
    }
}
