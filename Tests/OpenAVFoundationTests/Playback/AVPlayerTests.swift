import CaptureDevices
import Foundation
import Testing
@testable import OpenAVFoundation
import TestSupport

/// AVPlayer against real parts: a private PulseAudio daemon whose null sink's monitor is the
/// ear (recorded by `parec`), ffmpeg's decode as the oracle for sound and pictures, ffprobe for
/// key frames. Real time: these run in the test script's real-time phase.
@Suite(.serialized, .timeLimit(.minutes(10))) struct PlaybackTests {
    /// A 2 s clip: 320x240 H.264 at 25 fps with a key frame every second, and 48 kHz stereo
    /// pink noise (which lines up with itself at one offset only) in `audioCodec`.
    static func clip(audioCodec: String, seed: Int = 7, container: String = "mp4") throws -> URL {
        try Fixtures.make("playback-\(audioCodec)-\(seed).\(container)", [
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25",
            "-f", "lavfi", "-i", "anoisesrc=color=pink:amplitude=0.4:seed=\(seed):sample_rate=48000",
            "-t", "2", "-ac", "2", "-c:v", "libx264", "-g", "25", "-bf", "2", "-pix_fmt", "yuv420p", "-c:a", audioCodec,
        ])
    }

    /// ffmpeg's decode of a file's sound as 48 kHz stereo float samples, interleaved, up to
    /// the audio track's duration as ffprobe reads it from the container (ffmpeg's decode also
    /// holds the encoder's padding after it: 256 frames of AAC here, which players leave out).
    static func decodedSound(_ url: URL) throws -> [Float] {
        let data = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-vn", "-f", "f32le", "-ar", "48000", "-ac", "2", "-"])
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let streams = try #require(try Fixtures.probe(url)["streams"] as? [[String: Any]])
        let audio = try #require(streams.first { $0["codec_type"] as? String == "audio" })
        let duration = try #require(Double(audio["duration"] as? String ?? ""))
        return Array(samples.prefix(Int((duration * 48_000).rounded()) * 2))
    }

    /// Records the daemon's sink monitor while `body` runs, and 0.3 s of the sink after it (the
    /// monitor hands on what the sink played as the sink renders it).
    static func recordSink(_ daemon: PulseAudioDaemon, during body: () async throws -> Void) async throws -> [Float] {
        let recorder = try MonitorRecorder(daemon)
        try await body()
        try #require(try await recorder.waitForMore(seconds: 0.3), "the monitor stopped recording")
        return recorder.stop()
    }

    /// Where `reference` starts in `recorded` (in frames): the best match of its first 100 ms
    /// around the first sound heard.
    static func alignment(of reference: [Float], in recorded: [Float]) throws -> Int {
        let first = try #require(recorded.firstIndex { abs($0) > 1e-3 }, "nothing was heard") / 2
        let window = 4800
        var best = (offset: 0, score: -Double.infinity)
        for offset in max(0, first - 4800)...(first + 4800) where (offset + window) * 2 <= recorded.count {
            var score = 0.0
            for index in 0..<window { score += Double(recorded[(offset + index) * 2]) * Double(reference[index * 2]) }
            if score > best.score { best = (offset, score) }
        }
        return best.offset
    }

    /// How much of `reference` the recording lost at its start (frames), and the largest
    /// difference between the rest and what was recorded from `offset` on (infinite when the
    /// recording ends early).
    ///
    /// A null sink's monitor does not hand on what the sink renders when a new stream starts
    /// (the sink rewinds to mix the stream in, and a monitor cannot rewind): it loses the first
    /// tens of milliseconds of any stream, paplay's too (seen: 29.5 ms).
    static func comparison(_ reference: [Float], _ recorded: [Float], from offset: Int) -> (lostAtStart: Int, largestDifference: Float) {
        guard (offset * 2 + reference.count) <= recorded.count else { return (0, .infinity) }
        let firstHeard = (offset..<(recorded.count / 2)).first { abs(recorded[$0 * 2]) > 1e-3 } ?? offset
        let lost = firstHeard - offset
        var largest: Float = 0
        for index in (lost * 2)..<reference.count { largest = max(largest, abs(reference[index] - recorded[offset * 2 + index])) }
        return (lost, largest)
    }

    /// Counts the posts of `name` about `object`; a test can wait for a number of them.
    final class NotificationCounter: @unchecked Sendable {
        private let received = ResultList<Void>()
        private var token: NSObjectProtocol?

        init(_ name: Notification.Name, object: AnyObject?) {
            let received = received
            token = NotificationCenter.default.addObserver(forName: name, object: object, queue: nil) { _ in received.add(()) }
        }

        deinit { token.map(NotificationCenter.default.removeObserver) }

        var posted: Int { received.values.count }

        /// Waits until at least `target` were posted or `seconds` passed.
        func wait(for target: Int = 1, seconds: Double) async {
            _ = await received.wait(timeout: seconds) { $0.count >= target }
        }
    }

    @Test(arguments: ["aac", "libopus", "pcm_s16le"])
    func theSinkHearsFFmpegsDecode(audioCodec: String) async throws {
        do {
            let daemon = try PulseAudioDaemon()
            defer { daemon.stop() }
            let url = try Self.clip(audioCodec: audioCodec, container: audioCodec == "pcm_s16le" ? "mov" : "mp4")
            let reference = try Self.decodedSound(url)
            let player = PulseAudioDiscovery.$server.withValue(daemon.server) { AVPlayer(url: url) }
            let ended = NotificationCounter(AVPlayerItem.didPlayToEndTimeNotification, object: player.currentItem)
            let recorded = try await Self.recordSink(daemon) {
                player.play()
                await ended.wait(seconds: 10)
            }
            #expect(ended.posted == 1)
            #expect(player.audioOutputDeviceUniqueID == daemon.sinkName)
            let offset = try Self.alignment(of: reference, in: recorded)
            // From the first sound the monitor hands on, everything to the end, with no gap and no
            // repeat; the null sink stores 16-bit samples: a few steps of 1/32768 at most.
            let (lost, difference) = Self.comparison(reference, recorded, from: offset)
            #expect(lost < 2400, "the monitor lost \(lost) frames at the start")
            #expect(difference < 4.0 / 32768, "the sink heard something else than ffmpeg's decode (largest difference \(difference))")
        }
    }

    @Test func aQueuePlaysItsItemsBackToBackWithoutAGap() async throws {
        do {
            let daemon = try PulseAudioDaemon()
            defer { daemon.stop() }
            let first = try Self.clip(audioCodec: "pcm_s16le", seed: 1, container: "mov")
            let second = try Self.clip(audioCodec: "pcm_s16le", seed: 2, container: "mov")
            let reference = try Self.decodedSound(first) + Self.decodedSound(second)
            let items = [AVPlayerItem(url: first), AVPlayerItem(url: second)]
            let player = PulseAudioDiscovery.$server.withValue(daemon.server) { AVQueuePlayer(items: items) }
            let endedFirst = NotificationCounter(AVPlayerItem.didPlayToEndTimeNotification, object: items[0])
            let endedSecond = NotificationCounter(AVPlayerItem.didPlayToEndTimeNotification, object: items[1])
            let recorded = try await Self.recordSink(daemon) {
                player.play()
                await endedSecond.wait(seconds: 15)
            }
            #expect(endedFirst.posted == 1 && endedSecond.posted == 1)
            #expect(player.items().isEmpty && player.currentItem == nil)
            // Each item's access log has it watched whole (2 s), the first up to the switch.
            let watched = items.map { $0.accessLog()?.events.first?.durationWatched ?? 0 }
            #expect(watched.allSatisfy { abs($0 - 2) < 0.05 }, "\(watched)")
            let offset = try Self.alignment(of: reference, in: recorded)
            let (lost, difference) = Self.comparison(reference, recorded, from: offset)
            #expect(lost < 2400, "the monitor lost \(lost) frames at the start")
            #expect(difference < 4.0 / 32768, "a gap or a repeat between the items (largest difference \(difference))")
        }
    }

    /// The frequency of a tone in every other sample of `samples` (the left channel), by its
    /// rising zero crossings.
    @Test func aCompositionPlaysItsEditsBackToBack() async throws {
        do {
            let daemon = try PulseAudioDaemon()
            defer { daemon.stop() }
            let first = try Self.clip(audioCodec: "pcm_s16le", seed: 1, container: "mov")
            let second = try Self.clip(audioCodec: "pcm_s16le", seed: 2, container: "mov")
            // 0.5–1.5 s of the first clip, then 0.2–1.2 s of the second (stereo frames at 48 kHz).
            let reference = Array(try Self.decodedSound(first)[(24_000 * 2)..<(72_000 * 2)])
                + Array(try Self.decodedSound(second)[(9_600 * 2)..<(57_600 * 2)])
            let composition = AVMutableComposition()
            let second1 = CMTime(value: 1, timescale: 1)
            try composition.insertTimeRange(CMTimeRange(start: CMTime(value: 1, timescale: 2), duration: second1),
                                            of: AVURLAsset(url: first), at: .zero)
            try composition.insertTimeRange(CMTimeRange(start: CMTime(value: 1, timescale: 5), duration: second1),
                                            of: AVURLAsset(url: second), at: second1)
            let item = AVPlayerItem(asset: composition)
            let player = PulseAudioDiscovery.$server.withValue(daemon.server) { AVPlayer(playerItem: item) }
            let ended = NotificationCounter(AVPlayerItem.didPlayToEndTimeNotification, object: item)
            let recorded = try await Self.recordSink(daemon) {
                player.play()
                await ended.wait(seconds: 10)
            }
            #expect(ended.posted == 1)
            #expect(item.duration == CMTime(value: 2, timescale: 1))
            let offset = try Self.alignment(of: reference, in: recorded)
            let (lost, difference) = Self.comparison(reference, recorded, from: offset)
            #expect(lost < 2400, "the monitor lost \(lost) frames at the start")
            #expect(difference < 4.0 / 32768, "the sink heard something else than the two edits (largest difference \(difference))")
        }
    }

    static func frequency(_ samples: ArraySlice<Float>, rate: Int) -> Double {
        let left = stride(from: samples.startIndex, to: samples.endIndex - 1, by: 2).map { samples[$0] }
        let crossings = zip(left, left.dropFirst()).enumerated().filter { $1.0 < 0 && $1.1 >= 0 }.map(\.offset)
        guard let first = crossings.first, let last = crossings.last, last > first else { return 0 }
        return Double(crossings.count - 1) * Double(rate) / Double(last - first)
    }

    @Test(arguments: [(AVAudioTimePitchAlgorithm.timeDomain, 1000.0), (.varispeed, 2000.0)])
    func twiceTheRateHalvesTheTimeAndKeepsThePitchUnlessVarispeed(algorithm: AVAudioTimePitchAlgorithm, hertz: Double) async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let url = try Fixtures.make("playback-tone.mov", ["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000", "-t", "2",
                                                          "-ac", "2", "-af", "volume=0.5", "-c:a", "pcm_s16le"])
        let item = AVPlayerItem(url: url)
        item.audioTimePitchAlgorithm = algorithm
        let player = PulseAudioDiscovery.$server.withValue(daemon.server) { AVPlayer(playerItem: item) }
        let ended = NotificationCounter(AVPlayerItem.didPlayToEndTimeNotification, object: item)
        var wall = 0.0
        let recorded = try await Self.recordSink(daemon) {
            let started = Date()
            player.rate = 2
            await ended.wait(seconds: 10)
            wall = Date().timeIntervalSince(started)
        }
        #expect(ended.posted == 1)
        #expect(abs(wall - 1) < 0.25, "2 s at rate 2 took \(wall) s")
        // ffmpeg's sine peaks at 1/8, halved, and spread over two channels (-3 dB): 0.044.
        let loud = try #require(recorded.indices.first { abs(recorded[$0]) > 0.02 })..<(recorded.indices.last { abs(recorded[$0]) > 0.02 }! + 1)
        let heard = Double(loud.count / 2) / 48_000
        #expect(abs(heard - 1) < 0.05, "the sink heard \(heard) s of tone")
        let middle = recorded[(loud.lowerBound + 9_600)..<(loud.upperBound - 9_600)]
        let measured = Self.frequency(middle, rate: 48_000)
        #expect(abs(measured - hertz) < hertz / 100, "the tone is at \(measured) Hz")
    }

    /// Choosing another audio language while playing: the sound switches where what was already
    /// sent ends, with no gap, and stays in step (the whole 3 s is heard once).
    @Test func choosingAnotherAudioLanguageSwitchesTheSoundWithoutAGap() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        // English at 500 Hz, French at 1500 Hz (ffmpeg's sine, 1/8 full scale).
        let url = try Fixtures.make("playback-languages.mov", [
            "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-f", "lavfi", "-i", "sine=frequency=500:sample_rate=48000",
            "-f", "lavfi", "-i", "sine=frequency=1500:sample_rate=48000", "-map", "0", "-map", "1", "-map", "2", "-t", "3",
            "-ac", "2", "-c:v", "libx264", "-c:a", "pcm_s16le", "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fra",
        ])
        let asset = AVURLAsset(url: url)
        let group = try #require(try await asset.loadMediaSelectionGroup(for: .audible))
        let french = try #require(AVMediaSelectionGroup.mediaSelectionOptions(from: group.options, with: Locale(identifier: "fr")).first)
        let item = AVPlayerItem(asset: asset)
        let player = PulseAudioDiscovery.$server.withValue(daemon.server) { AVPlayer(playerItem: item) }
        let ended = NotificationCounter(AVPlayerItem.didPlayToEndTimeNotification, object: item)
        var switchedAt = 0.0
        let recorded = try await Self.recordSink(daemon) {
            player.play()
            #expect(await player.reaches(1))
            switchedAt = item.currentTime().seconds
            item.select(french, in: group)
            await ended.wait(seconds: 10)
        }
        #expect(ended.posted == 1)
        #expect(item.currentMediaSelection.selectedMediaOption(in: group) == french)
        let loud = try #require(recorded.indices.first { abs(recorded[$0]) > 0.02 })..<(recorded.indices.last { abs(recorded[$0]) > 0.02 }! + 1)
        let heard = Double(loud.count / 2) / 48_000
        #expect(abs(heard - 3) < 0.05, "the sink heard \(heard) s of sound, not the clip's 3 s once")
        // 10 ms windows: each loud (no gap), each one tone (500 Hz, then 1500 Hz after the switch).
        let window = 960
        let windows = stride(from: loud.lowerBound, to: loud.upperBound - window, by: window).map { recorded[$0..<($0 + window)] }
        let quiet = windows.filter { slice in (slice.reduce(0) { $0 + $1 * $1 } / Float(slice.count)).squareRoot() < 0.05 }
        #expect(quiet.isEmpty, "\(quiet.count) windows of 10 ms went quiet")
        let frequencies = windows.map { Self.frequency($0, rate: 48_000) }
        let switchWindow = try #require(frequencies.firstIndex { $0 > 1000 }, "the French track was never heard")
        let heardSwitch = Double(switchWindow) * 0.01
        #expect(heardSwitch >= switchedAt - 0.02 && heardSwitch <= switchedAt + 0.25,
                "switched at \(switchedAt) s of the item, heard at \(heardSwitch) s")
        #expect(frequencies[5..<(switchWindow - 1)].allSatisfy { abs($0 - 500) < 50 }, "before the switch: \(frequencies[5..<(switchWindow - 1)])")
        #expect(frequencies[(switchWindow + 1)..<(frequencies.count - 1)].allSatisfy { abs($0 - 1500) < 100 })
    }

    @Test func aLooperRepeatsATimeRangeWithoutAGap() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let url = try Self.clip(audioCodec: "pcm_s16le", seed: 3, container: "mov")
        // The half second from 0.5 s, five times: three loops, then the two queued copies.
        let whole = try Self.decodedSound(url)
        let once = Array(whole[(24_000 * 2)..<(48_000 * 2)])
        let player = PulseAudioDiscovery.$server.withValue(daemon.server) { AVQueuePlayer() }
        let looper = AVPlayerLooper(player: player, templateItem: AVPlayerItem(url: url),
                                    timeRange: CMTimeRange(start: CMTime(value: 1, timescale: 2), duration: CMTime(value: 1, timescale: 2)))
        let recorded = try await Self.recordSink(daemon) {
            player.play()
            // A loop ends in the next copy becoming the current item, counted by then.
            let looped = await waitUntil(timeout: 15) { done in
                player.observe(\.currentItem, options: [.initial]) { _, _ in
                    if looper.loopCount >= 3 { done() }
                }.invalidate
            }
            try #require(looped, "three loops within 15 s")
            looper.disableLooping()
            let playedOut = await waitUntil(timeout: 15) { done in
                player.observe(\.currentItem, options: [.initial]) { player, _ in
                    if player.currentItem == nil { done() }
                }.invalidate
            }
            try #require(playedOut, "the queued copies did not play out within 15 s")
        }
        #expect(looper.loopCount == 5 && looper.status == .cancelled)
        let reference = Array([[Float]](repeating: once, count: 5).joined())
        let offset = try Self.alignment(of: reference, in: recorded)
        let (lost, difference) = Self.comparison(reference, recorded, from: offset)
        #expect(lost < 2400, "the monitor lost \(lost) frames at the start")
        #expect(difference < 4.0 / 32768, "a gap or a repeat between loops (largest difference \(difference))")
    }

    /// ffmpeg's BGRA decode of frame `index` of `url`.
    static func referenceFrame(_ url: URL, frame index: Int) throws -> [UInt8] {
        [UInt8](try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-vf", "select=eq(n\\,\(index))",
                                            "-vsync", "0", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "bgra", "-"]))
    }

    @Test func exactSeeksShowFFmpegsFramesAndKeyFrameSeeksLandOnKeyFrames() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let url = try Self.clip(audioCodec: "aac")
        let item = AVPlayerItem(url: url)
        let output = AVPlayerItemVideoOutput(pixelBufferAttributes: [kCVPixelBufferPixelFormatTypeKey: kCVPixelFormatType_32BGRA])
        item.add(output)
        let player = PulseAudioDiscovery.$server.withValue(daemon.server) { AVPlayer(playerItem: item) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let frame = Int.random(in: 0..<50, using: &generator)
            // The middle of the frame: 40 ms frames at 25 fps.
            let time = CMTime(value: Int64(frame * 40 + 20), timescale: 1000)
            #expect(await player.seek(to: time, toleranceBefore: .zero, toleranceAfter: .zero))
            #expect(player.currentTime() == time)
            var shown = CMTime.invalid
            let buffer = try #require(output.copyPixelBuffer(forItemTime: time, itemTimeForDisplay: &shown))
            #expect(shown == CMTime(value: Int64(frame), timescale: 25), "frame \(frame): shown at \(shown.seconds)")
            let psnr = PixelComparison.psnr(PixelComparison.packed(buffer, bytesPerPixel: 4), try Self.referenceFrame(url, frame: frame))
            #expect(psnr >= 40, "frame \(frame): \(psnr) dB")
        }
        // Key frames every second (ffprobe): the default seek lands on the one before.
        let keyFrames = try String(decoding: Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "v", "-skip_frame", "nokey",
                                                                      "-show_entries", "frame=pts_time", "-of", "csv=p=0", url.path]), as: UTF8.self)
            .split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", "))) }
        #expect(keyFrames.count == 2)
        for seconds in [0.5, 1.3, 1.9] {
            #expect(await player.seek(to: CMTime(seconds: seconds, preferredTimescale: 1000)))
            let landed = player.currentTime().seconds
            #expect(landed == keyFrames.last { $0 <= seconds }, "a seek to \(seconds) s landed at \(landed) s")
        }
        // A seek replaced by the next one is told it did not finish.
        let results = ResultBox()
        player.seek(to: CMTime(value: 1, timescale: 2), toleranceBefore: .zero, toleranceAfter: .zero) { results.add($0) }
        #expect(await player.seek(to: CMTime(value: 3, timescale: 2), toleranceBefore: .zero, toleranceAfter: .zero))
        // The first may finish before the second arrives; either way it is told once, and the
        // second one's time is where the player stands.
        #expect(results.values == [false] || results.values == [true])
        #expect(player.currentTime() == CMTime(value: 3, timescale: 2))
    }

    final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [Bool] = []
        func add(_ value: Bool) { lock.withLock { list.append(value) } }
        var values: [Bool] { lock.withLock { list } }
    }

    @Test func theGuidesExamplesObserversAndStatusesFollowApplesRules() async throws {
        do {
            let daemon = try PulseAudioDaemon()
            defer { daemon.stop() }
            let url = try Self.clip(audioCodec: "aac")
            // The guide: make an item, observe its status, play once it is ready.
            let item = AVPlayerItem(asset: AVURLAsset(url: url), automaticallyLoadedAssetKeys: ["playable", "duration"])
            let statuses = ResultList<AVPlayerItem.Status>()
            let statusObservation = item.observe(\.status, options: [.new]) { _, change in change.newValue.map(statuses.add) }
            let player = PulseAudioDiscovery.$server.withValue(daemon.server) { AVPlayer(playerItem: item) }
            let controls = ResultList<AVPlayer.TimeControlStatus>()
            let controlObservation = player.observe(\.timeControlStatus, options: [.new]) { _, change in change.newValue.map(controls.add) }
            let ticks = ResultList<CMTime>()
            let observerQueue = DispatchQueue(label: "periodic")
            let periodic = player.addPeriodicTimeObserver(forInterval: CMTime(value: 1, timescale: 4), queue: observerQueue) { ticks.add($0) }
            let crossings = ResultList<Bool>()
            let boundary = player.addBoundaryTimeObserver(forTimes: [NSValue(time: CMTime(value: 1, timescale: 1))], queue: observerQueue) { crossings.add(true) }
            let ended = NotificationCounter(AVPlayerItem.didPlayToEndTimeNotification, object: item)
            #expect(await item.knownStatus() == .readyToPlay && player.status == .readyToPlay)
            #expect(item.duration == CMTime(value: 2, timescale: 1) || abs(item.duration.seconds - 2) < 0.05)
            #expect(item.presentationSize == CGSize(width: 320, height: 240))
            #expect(player.timeControlStatus == .paused && player.rate == 0)
            player.play()
            await ended.wait(seconds: 10)
            #expect(ended.posted == 1)
            // The end's reports: the pause observed, the time observers' queue drained.
            #expect(await controls.wait { $0.last == .paused }, "\(controls.values)")
            observerQueue.sync {}
            // Action at the end: pause, the time at the end.
            #expect(player.rate == 0 && player.timeControlStatus == .paused)
            #expect(abs(player.currentTime().seconds - item.duration.seconds) < 0.001)
            #expect(statuses.values == [.readyToPlay])
            // Paused, (waiting while the sound starts,) playing, paused at the end.
            #expect(controls.values.filter { $0 != .waitingToPlayAtSpecifiedRate } == [.playing, .paused], "\(controls.values)")
            #expect(crossings.values.count == 1)
            // Periodic: at the start, then at every quarter of a second, within a frame (40 ms).
            let playing = ticks.values.map(\.seconds).filter { $0 > 0.01 && $0 < 1.95 }
            for quarter in 1...7 {
                let mark = Double(quarter) / 4
                #expect(playing.contains { $0 >= mark && $0 - mark < 0.04 }, "no tick within 40 ms after \(mark) s: \(playing)")
            }
            player.removeTimeObserver(periodic)
            player.removeTimeObserver(boundary)
            statusObservation.invalidate()
            controlObservation.invalidate()
        }
    }

    /// Values added from any thread, kept in order; a test can wait for them to meet a condition.
    final class ResultList<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [Value] = []
        private var watchers: [Int: @Sendable () -> Void] = [:]
        private var nextWatcher = 0

        func add(_ value: Value) {
            let watching = lock.withLock { () -> [@Sendable () -> Void] in
                list.append(value)
                return Array(watchers.values)
            }
            watching.forEach { $0() }
        }

        var values: [Value] { lock.withLock { list } }

        /// Waits until `condition` holds for the values (checked now and as each is added), at
        /// most `timeout` seconds; whether it held.
        func wait(timeout: TimeInterval = 5, until condition: @escaping @Sendable ([Value]) -> Bool) async -> Bool {
            await waitUntil(timeout: timeout) { done in
                let check: @Sendable () -> Void = { [self] in if condition(values) { done() } }
                let id = lock.withLock { () -> Int in
                    nextWatcher += 1
                    watchers[nextWatcher] = check
                    return nextWatcher
                }
                check()
                return { [self] in _ = lock.withLock { watchers.removeValue(forKey: id) } }
            }
        }
    }

    @Test func playbackGoesOnSilentWhenTheSoundServerGoesAway() async throws {
        let daemon = try PulseAudioDaemon()
        let url = try Fixtures.make("playback-3s.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-f", "lavfi",
                                                        "-i", "sine=sample_rate=48000", "-t", "3", "-c:v", "libx264", "-c:a", "aac"])
        let player = PulseAudioDiscovery.$server.withValue(daemon.server) { AVPlayer(url: url) }
        let ended = NotificationCounter(AVPlayerItem.didPlayToEndTimeNotification, object: player.currentItem)
        player.play()
        try #require(await player.reaches(1))
        daemon.stop()  // SIGKILL, as a crashed server goes
        let before = player.currentTime()
        // Half a second of the host clock, a duration: the item's time must go on through it.
        try await Task.sleep(nanoseconds: 500_000_000)
        #expect(player.currentTime().seconds - before.seconds > 0.3, "the time stopped with the sound server")
        await ended.wait(seconds: 10)
        #expect(ended.posted == 1)
    }

    /// A file cut short while it plays (a copy or a download that stopped): what is left of it
    /// plays, then the item fails to play to its end with the error, as Apple's player tells
    /// it (`failedToPlayToEndTimeNotification`, `AVPlayerItemFailedToPlayToEndTimeErrorKey`);
    /// it never plays to its end and never hangs. FFmpeg's MP4 reader finds the samples past
    /// the file's end missing ("partial file").
    @Test func aFileTruncatedWhilePlayingFailsToPlayToItsEnd() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let source = try Fixtures.make("playback-6s.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-f", "lavfi",
                                                           "-i", "sine=sample_rate=48000", "-t", "6", "-c:v", "libx264", "-c:a", "aac",
                                                           "-movflags", "+faststart"])
        let url = Fixtures.folder.appendingPathComponent("truncated-\(UUID().uuidString).mp4")
        try FileManager.default.copyItem(at: source, to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let item = AVPlayerItem(url: url)
        item.add(AVPlayerItemVideoOutput(pixelBufferAttributes: nil))
        let player = PulseAudioDiscovery.$server.withValue(daemon.server) { AVPlayer(playerItem: item) }
        let errors = ResultList<Error?>()
        let token = NotificationCenter.default.addObserver(forName: AVPlayerItem.failedToPlayToEndTimeNotification, object: item, queue: nil) {
            errors.add($0.userInfo?[AVPlayerItemFailedToPlayToEndTimeErrorKey] as? Error)
        }
        defer { NotificationCenter.default.removeObserver(token) }
        let failed = NotificationCounter(AVPlayerItem.failedToPlayToEndTimeNotification, object: item)
        let ended = NotificationCounter(AVPlayerItem.didPlayToEndTimeNotification, object: item)
        player.play()
        try #require(await player.reaches(0.5))
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        #expect(truncate(url.path, off_t(size / 3)) == 0)
        await failed.wait(seconds: 10)
        // The observers of one post run one after the other: the error's may come second.
        #expect(await errors.wait { !$0.isEmpty }, "no error was told")
        #expect(failed.posted == 1 && ended.posted == 0)
        #expect(errors.values.count == 1 && errors.values.first.map { $0 is AVError } == true, "\(errors.values)")
        #expect(item.status == .failed && item.error is AVError)
        let stoppedAt = player.currentTime().seconds
        #expect(stoppedAt > 0.5 && stoppedAt < 5, "stopped at \(stoppedAt) s")
        #expect(player.timeControlStatus == .paused)
    }

    @Test func badItemsFailAndTheQueueGoesOn() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let missing = AVPlayerItem(url: URL(fileURLWithPath: "/nonexistent/openav-missing.mp4"))
        let corruptURL = Fixtures.folder.appendingPathComponent("corrupt-\(UUID().uuidString).mp4")
        try Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: corruptURL)
        defer { try? FileManager.default.removeItem(at: corruptURL) }
        let corrupt = AVPlayerItem(url: corruptURL)
        let good = AVPlayerItem(url: try Self.clip(audioCodec: "aac"))
        good.forwardPlaybackEndTime = CMTime(value: 1, timescale: 2)
        let player = PulseAudioDiscovery.$server.withValue(daemon.server) { AVQueuePlayer(items: [missing, corrupt, good]) }
        let ended = NotificationCounter(AVPlayerItem.didPlayToEndTimeNotification, object: good)
        player.play()
        await ended.wait(seconds: 10)
        #expect(missing.status == .failed && (missing.error as? AVError) != nil)
        #expect(corrupt.status == .failed && (corrupt.error as? AVError) != nil)
        #expect(ended.posted == 1, "the good item after two bad ones did not play to its end")
        #expect(good.currentTime() == CMTime(value: 1, timescale: 2))
    }
}
