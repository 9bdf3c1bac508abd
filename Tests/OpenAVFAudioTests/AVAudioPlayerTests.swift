import CaptureDevices
import Foundation
import HostSystem
import OpenAVFAudio
import Testing
import TestSupport

/// AVAudioPlayer into a private PulseAudio daemon's null sink, heard through the sink's monitor
/// (`MonitorRecorder`): when the sound starts, its level, its channels, its pitch and length at
/// another rate, its loops, the meters against the sound's own RMS, and a sample-exact
/// `currentTime`. Real time: these run in the test script's real-time phase.
@Suite(.serialized, .timeLimit(.minutes(3))) struct AVAudioPlayerTests {
    /// A 48 kHz stereo 1 kHz tone of amplitude 0.5 lasting `seconds`, as float WAV.
    static func tone(seconds: Double) throws -> URL {
        try Fixtures.make("tone-1k-\(seconds).wav", [
            "-f", "lavfi", "-i", "aevalsrc=0.5*sin(2*PI*1000*t)|0.5*sin(2*PI*1000*t):s=48000:d=\(seconds)", "-c:a", "pcm_f32le",
        ])
    }

    /// A 1.5 s 48 kHz stereo file whose level says its position: 0.5 before frame 60 000, −0.5
    /// from it on.
    static func step() throws -> URL {
        try Fixtures.make("step-60000.wav", [
            "-f", "lavfi", "-i", "aevalsrc=if(lt(n\\,60000)\\,0.5\\,-0.5)|if(lt(n\\,60000)\\,0.5\\,-0.5):s=48000:d=1.5", "-c:a", "pcm_f32le",
        ])
    }

    /// Tells when the player finishes (and how often), and of decoding errors.
    final class Delegate: AVAudioPlayerDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var finishes: [(successfully: Bool, host: UInt64)] = []
        private var waiter: (@Sendable () -> Void)?
        private(set) var decodeErrors = 0

        func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool) {
            let waiter = lock.withLock {
                finishes.append((flag, HostClock.now))
                return self.waiter
            }
            waiter?()
        }

        func audioPlayerDecodeErrorDidOccur(_ player: AVAudioPlayer, error: (any Error)?) {
            lock.withLock { decodeErrors += 1 }
        }

        /// The finishes told so far.
        var finished: [(successfully: Bool, host: UInt64)] { lock.withLock { finishes } }

        /// Waits for the first finish, at most `seconds`; whether it came.
        func waitForFinish(seconds: Double) async -> Bool {
            await waitUntil(timeout: seconds) { done in
                let already = lock.withLock {
                    waiter = done
                    return !finishes.isEmpty
                }
                if already { done() }
                return nil
            }
        }
    }

    /// What one playing sounded like: the monitor's recording (48 kHz stereo, interleaved), the
    /// frame of it where `play()` was called, and when the player finished after `play()`.
    struct Heard {
        let samples: [Float]
        let playFrame: Int
        let secondsToFinish: Double
        let delegate: Delegate

        /// The first frame from `playFrame` on where a channel's sound passes `threshold`.
        func firstFrame(channel: Int = 0, where test: (Float) -> Bool) -> Int? {
            (playFrame..<(samples.count / 2)).first { test(samples[$0 * 2 + channel]) }
        }

        /// The RMS level of a channel over `seconds` from `start` seconds after the sound starts.
        func rms(channel: Int, start: Double, seconds: Double) -> Double {
            let first = (firstFrame { abs($0) > 0.01 } ?? playFrame) + Int(start * 48_000)
            let count = Int(seconds * 48_000)
            guard first + count <= samples.count / 2 else { return 0 }
            let sum = (first..<(first + count)).reduce(0.0) { $0 + Double(samples[$1 * 2 + channel]) * Double(samples[$1 * 2 + channel]) }
            return (sum / Double(count)).squareRoot()
        }
    }

    /// Plays `url` on a fresh daemon while its monitor is recorded, after `configure` set the
    /// player up (and `during` looked at it while it played), until the player finishes;
    /// `delay` seconds after `play(atTime:)` when given.
    static func hear(_ url: URL, delay: Double? = nil, configure: (AVAudioPlayer) -> Void = { _ in },
                     during: (AVAudioPlayer) async throws -> Void = { _ in }) async throws -> Heard {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let player = try PulseAudioDiscovery.$server.withValue(daemon.server) { try AVAudioPlayer(contentsOf: url) }
        let delegate = Delegate()
        player.delegate = delegate
        configure(player)
        let recorder = try MonitorRecorder(daemon)
        try #require(try await recorder.waitForMore(seconds: 0.2), "the monitor stopped recording")
        let markHost = HostClock.now
        let markFrames = recorder.recordedFrames
        let playHost = HostClock.now
        #expect(delay.map { player.play(atTime: player.deviceCurrentTime + $0) } ?? player.play())
        try await during(player)
        try #require(await delegate.waitForFinish(seconds: player.duration * 4 + 5), "the player did not finish")
        let finishHost = try #require(delegate.finished.first?.host)
        try #require(try await recorder.waitForMore(seconds: 0.3), "the monitor stopped recording")
        let samples = recorder.stop()
        // The recording's frame at play(): the frames recorded at the mark, moved by the host
        // time between the mark and play().
        let playFrame = markFrames + Int(Double(playHost - markHost) / 1e9 * 48_000)
        return Heard(samples: samples, playFrame: playFrame, secondsToFinish: Double(finishHost - playHost) / 1e9, delegate: delegate)
    }

    /// The level of an RMS value against the tone's (0.5 / √2), in dB.
    static func decibelsAgainstTone(_ rms: Double) -> Double { 20 * log10(rms / (0.5 / 2.0.squareRoot())) }

    @Test func theSoundStartsWithin50MillisecondsOfPlayAndTheDelegateIsToldOnce() async throws {
        let heard = try await Self.hear(try Self.tone(seconds: 1))
        let first = try #require(heard.firstFrame { abs($0) > 0.01 }, "nothing was heard")
        let late = Double(first - heard.playFrame) / 48_000
        #expect(late >= -0.005 && late < 0.05, "the sound started \(late) s after play()")
        #expect(heard.delegate.finished.count == 1)
        #expect(heard.delegate.finished.first?.successfully == true)
        #expect(abs(Self.decibelsAgainstTone(heard.rms(channel: 0, start: 0.2, seconds: 0.5))) < 0.3, "the tone was not played as it is")
    }

    /// The null sink's own latency, as `pactl` reports it, in seconds.
    static func sinkLatency(_ daemon: PulseAudioDaemon) throws -> Double {
        let listing = try daemon.pactl(["list", "sinks"])
        let line = try #require(listing.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("Latency:") })
        return try #require(line.split(separator: " ").dropFirst().first.flatMap { Double($0) }) / 1e6
    }

    /// On a sink with nothing else attached, deep in one of the long blocks an idle sink renders
    /// ahead (more than 1 s), a 5 s file plays in real time: its `currentTime` (what the stream
    /// says is heard) advances 4 s in 4 s of the host clock (±30 ms), and the delegate is told
    /// of the end once, 5 s after `play()` plus the stream's latency at the start and the end.
    @Test func fiveSecondsPlayInRealTimeOnASinkWithNothingElseAttached() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        // The sink's latency gives no notice when it changes: it is polled.
        let farAhead = try await pollUntil(timeout: 5) { try Self.sinkLatency(daemon) >= 1 }
        #expect(farAhead, "the idle null sink did not render far ahead: the test proves nothing")
        let player = try PulseAudioDiscovery.$server.withValue(daemon.server) { try AVAudioPlayer(contentsOf: try Self.tone(seconds: 5)) }
        let delegate = Delegate()
        player.delegate = delegate
        #expect(player.prepareToPlay())
        let started = HostClock.now
        #expect(player.play())
        func playerTime(at offset: UInt64) async throws -> (time: Double, host: UInt64) {
            let wake = started + offset
            if HostClock.now < wake { try await Task.sleep(nanoseconds: wake - HostClock.now) }  // a time to look at, not a wait for an event
            return (player.currentTime, HostClock.now)
        }
        let first = try await playerTime(at: 500_000_000)
        let second = try await playerTime(at: 4_500_000_000)
        let drift = (second.time - first.time) - Double(second.host - first.host) / 1e9
        #expect(abs(drift) <= 0.03, "over 4 s of the host clock the player's time moved \(drift) s more")
        try #require(await delegate.waitForFinish(seconds: 15))
        let elapsed = Double(try #require(delegate.finished.first?.host) - started) / 1e9
        #expect(elapsed >= 5 && elapsed < 5.1, "5 s of sound finished \(elapsed) s after play()")
        #expect(delegate.finished.count == 1)
        #expect(!player.isPlaying)
        #expect(player.currentTime == 0)
    }

    @Test func volumeOneHalfIsSixDecibelsDown() async throws {
        let heard = try await Self.hear(try Self.tone(seconds: 1)) { $0.volume = 0.5 }
        for channel in 0..<2 {
            let level = Self.decibelsAgainstTone(heard.rms(channel: channel, start: 0.2, seconds: 0.5))
            #expect(abs(level + 6.02) < 0.3, "channel \(channel) is \(level) dB against the file")
        }
    }

    /// `setVolume(0, fadeDuration: 1)` at 0.5 s of a 2.5 s tone: full level before, about half
    /// (−6 dB) half a second later (the fade starts with the sound written next, up to 100 ms
    /// after the call), silence after 1.2 s.
    @Test func setVolumeFadesOverTheDurationGiven() async throws {
        let heard = try await Self.hear(try Self.tone(seconds: 2.5)) { _ in } during: { player in
            // The player's time gives no notice: it is polled.
            try #require(try await pollUntil(timeout: 5, every: 0.005) { player.currentTime >= 0.5 })
            player.setVolume(0, fadeDuration: 1)
            #expect(player.volume == 0)
        }
        let before = Self.decibelsAgainstTone(heard.rms(channel: 0, start: 0.2, seconds: 0.25))
        let middle = Self.decibelsAgainstTone(heard.rms(channel: 0, start: 0.95, seconds: 0.15))
        let after = heard.rms(channel: 0, start: 1.75, seconds: 0.6)
        #expect(abs(before) < 0.3, "before the fade the tone is \(before) dB against the file")
        #expect(middle > -9 && middle < -3, "half-way through the fade the tone is \(middle) dB against the file")
        #expect(after < 1e-3, "after the fade the RMS is \(after)")
    }

    @Test func panLeftSilencesTheRightChannel() async throws {
        let heard = try await Self.hear(try Self.tone(seconds: 1)) { $0.pan = -1 }
        #expect(abs(Self.decibelsAgainstTone(heard.rms(channel: 0, start: 0.2, seconds: 0.5))) < 0.3)
        #expect(heard.rms(channel: 1, start: 0.2, seconds: 0.5) < 1e-4, "the right channel was heard")
    }

    /// At rate 1.5 a 3 s tone of 1 kHz lasts 2 s and stays at 1 kHz (zero crossings counted).
    @Test func rateOneAndAHalfKeepsThePitchAndShortensTheSound() async throws {
        let heard = try await Self.hear(try Self.tone(seconds: 3)) { player in
            player.enableRate = true
            player.rate = 1.5
        }
        // How long it sounded, in the monitor's recording; the delegate is told once it ended,
        // promptly (a busy machine was seen telling it 50 ms after).
        let first = try #require(heard.firstFrame { abs($0) > 0.01 }, "nothing was heard")
        let last = try #require((first..<(heard.samples.count / 2)).last { abs(heard.samples[$0 * 2]) > 0.01 })
        let lasted = Double(last - first) / 48_000
        #expect(abs(lasted - 2) < 0.02, "3 s at rate 1.5 sounded for \(lasted) s")
        #expect(heard.secondsToFinish > 1.98 && heard.secondsToFinish < 2.1, "3 s at rate 1.5 finished after \(heard.secondsToFinish) s")
        let start = first + 24_000
        let frames = 48_000
        try #require(start + frames < heard.samples.count / 2)
        var crossings = 0
        for frame in start..<(start + frames) where (heard.samples[frame * 2] < 0) != (heard.samples[frame * 2 + 2] < 0) { crossings += 1 }
        let frequency = Double(crossings) / 2
        #expect(abs(frequency - 1000) < 10, "the tone is at \(frequency) Hz")
    }

    /// A 0.4 s file (a 0.2 s beep then silence) with `numberOfLoops` 2 is heard three times.
    @Test func loopsPlayTheSoundNumberOfLoopsPlusOneTimes() async throws {
        let beep = try Fixtures.make("beep-0.4.wav", [
            "-f", "lavfi", "-i", "aevalsrc=if(lt(t\\,0.2)\\,0.5*sin(2*PI*1000*t)\\,0)|if(lt(t\\,0.2)\\,0.5*sin(2*PI*1000*t)\\,0):s=48000:d=0.4",
            "-c:a", "pcm_f32le",
        ])
        let heard = try await Self.hear(beep) { $0.numberOfLoops = 2 }
        // Beeps: runs of sound separated by at least 50 ms of silence.
        var beeps = 0
        var lastSound = -48_000
        for frame in heard.playFrame..<(heard.samples.count / 2) where abs(heard.samples[frame * 2]) > 0.01 {
            if frame - lastSound > 2400 { beeps += 1 }
            lastSound = frame
        }
        #expect(beeps == 3)
        #expect(abs(heard.secondsToFinish - 1.2) < 0.06, "three passes of 0.4 s finished after \(heard.secondsToFinish) s")
        #expect(heard.delegate.finished.count == 1)
    }

    /// While playing, the meters say the tone's RMS (−9.03 dBFS) and peak (−6.02 dBFS) within
    /// 1 dB, as does the recorded sound's computed RMS; silence before playing is −160.
    @Test func metersAgreeWithTheSoundsRMS() async throws {
        let levels = Locked<(average: Float, peak: Float)?>(nil)
        let heard = try await Self.hear(try Self.tone(seconds: 1.5)) { player in
            player.isMeteringEnabled = true
            player.updateMeters()
            #expect(player.averagePower(forChannel: 0) == -160)
        } during: { player in
            // The meters give no notice: the player's time is polled to the middle of the sound.
            try #require(try await pollUntil(timeout: 5, every: 0.01) { player.currentTime >= 0.7 })
            player.updateMeters()
            levels.wrappedValue = (player.averagePower(forChannel: 1), player.peakPower(forChannel: 1))
        }
        let (average, peak) = try #require(levels.wrappedValue)
        let recorded = 20 * log10(heard.rms(channel: 1, start: 0.2, seconds: 1))
        #expect(abs(Double(average) - recorded) < 1, "the meter says \(average) dBFS, the sound is \(recorded) dBFS")
        #expect(abs(average + 9.03) < 1)
        #expect(abs(peak + 6.02) < 1, "the peak meter says \(peak) dBFS")
    }

    /// A file whose level says its position (0.5 before frame 60 000, −0.5 from it on), played
    /// from `currentTime` 1 s: the sound turns negative exactly 12 000 frames after it starts.
    /// It starts 0.2 s after `play(atTime:)`: a stream joining a sink makes it rewind, which
    /// the monitor's recording does not follow exactly (a few milliseconds are lost there).
    @Test func settingCurrentTimeIsSampleExact() async throws {
        let step = try Self.step()
        let heard = try await Self.hear(step, delay: 0.2) { player in
            player.currentTime = 1
            #expect(player.currentTime == 1)
        }
        let first = try #require(heard.firstFrame { abs($0) > 0.25 })
        let negative = try #require(heard.firstFrame { $0 < -0.25 })
        #expect(heard.samples[first * 2] > 0.25, "the sound did not start before the step")
        #expect(negative - first == 12_000, "the step came \(negative - first) frames after the start")
        let late = Double(first - heard.playFrame) / 48_000 - 0.2
        #expect(abs(late) < 0.02, "play(atTime:) 0.2 s ahead started \(late) s late")
    }

    /// Paused at 1.1 s of the same file and played again after 0.3 s, it goes on where it was
    /// heard: the sink hears the file from 0.9 s to its end once, 0.35 s at 0.5 and 0.25 s at
    /// −0.5 (within the few milliseconds a stream joining a sink loses in the monitor).
    @Test func pauseKeepsThePlace() async throws {
        let step = try Self.step()
        let heard = try await Self.hear(step) { $0.currentTime = 0.9 } during: { player in
            // The player's time gives no notice: it is polled.
            try #require(try await pollUntil(timeout: 5, every: 0.01) { player.currentTime >= 1.1 })
            player.pause()
            let paused = player.currentTime
            #expect(!player.isPlaying)
            try await Task.sleep(nanoseconds: 300_000_000)  // a time to stay paused, not a wait for an event
            #expect(player.currentTime == paused)
            #expect(player.play())
        }
        let left = stride(from: heard.playFrame * 2, to: heard.samples.count, by: 2).map { heard.samples[$0] }
        let positive = left.filter { $0 > 0.25 }.count, negative = left.filter { $0 < -0.25 }.count
        #expect(abs(positive - 16_800) < 960, "\(positive) frames at 0.5 were heard, 16 800 are in the file")
        #expect(abs(negative - 12_000) < 960, "\(negative) frames at -0.5 were heard, 12 000 are in the file")
        #expect(heard.delegate.finished.count == 1)
    }

    /// Two players at once mix on the server: one on the left, one on the right.
    @Test func twoPlayersAtOnceMix() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let players = try PulseAudioDiscovery.$server.withValue(daemon.server) {
            try [AVAudioPlayer(contentsOf: Self.tone(seconds: 1)), AVAudioPlayer(data: Data(contentsOf: Self.tone(seconds: 1)))]
        }
        players[0].pan = -1
        players[1].pan = 1
        let delegates = [Delegate(), Delegate()]
        for (player, delegate) in zip(players, delegates) { player.delegate = delegate }
        let recorder = try MonitorRecorder(daemon)
        let when = players[0].deviceCurrentTime + 0.1
        #expect(players.allSatisfy { $0.play(atTime: when) })
        for delegate in delegates { try #require(await delegate.waitForFinish(seconds: 5)) }
        let samples = recorder.stop()
        let heard = Heard(samples: samples, playFrame: 0, secondsToFinish: 0, delegate: delegates[0])
        for channel in 0..<2 {
            #expect(abs(Self.decibelsAgainstTone(heard.rms(channel: channel, start: 0.2, seconds: 0.5))) < 0.5, "channel \(channel)")
        }
    }

    /// An MP3 cut in the middle plays what is there and finishes, once, without a crash.
    @Test func aTruncatedFilePlaysWhatIsThereAndFinishes() async throws {
        let mp3 = try Fixtures.make("player-tone-1s.mp3", ["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=1", "-c:a", "libmp3lame"])
        let bytes = try Data(contentsOf: mp3)
        let cut = Fixtures.folder.appendingPathComponent("player-cut-\(UUID().uuidString).mp3")
        try bytes.prefix(bytes.count / 2).write(to: cut)
        let heard = try await Self.hear(cut)
        #expect(heard.delegate.finished.count == 1)
        #expect(heard.secondsToFinish > 0.3 && heard.secondsToFinish < 0.8, "half of 1 s finished after \(heard.secondsToFinish) s")
        let sound = heard.samples.enumerated().filter { abs($0.element) > 0.02 }.map(\.offset)
        let seconds = Double((sound.last ?? 0) - (sound.first ?? 0)) / 2 / 48_000
        #expect(seconds > 0.3 && seconds < 0.7, "\(seconds) s of sound were heard")
    }
}
