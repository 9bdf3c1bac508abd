import CaptureDevices
import Foundation
import HostSystem
import OpenCoreMedia
import Testing
import TestSupport
@testable import OpenAVFAudio

/// AVAudioEngine playing in real time into a private PulseAudio daemon's null sink, heard through
/// the sink's monitor (`MonitorRecorder`), as users run it: the sound server with nothing else
/// attached, and another core kept busy.
@Suite(.serialized, .timeLimit(.minutes(3))) struct AVAudioEnginePlaybackTests {
    /// A second of a 1 kHz sine at 48 kHz mono, amplitude 0.5: 48 whole periods, so that it
    /// loops without a seam.
    static func sineSecond() throws -> AVAudioPCMBuffer {
        let format = try #require(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1))
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 48_000))
        buffer.frameLength = 48_000
        for frame in 0..<48_000 { buffer.floatChannelData![0][frame] = 0.5 * Float(sin(2 * Double.pi * 1000 * Double(frame) / 48_000)) }
        return buffer
    }

    /// Where a recorded sine is not the continuation of its last two samples (a gap, a repeat or
    /// a jump): the frames, for `left` (one channel of the recording) between `start` and `end`.
    static func seams(_ left: [Float], from start: Int, to end: Int) -> [Int] {
        let coefficient = Float(2 * cos(2 * Double.pi * 1000 / 48_000))
        return (max(start, 2)..<end).filter { abs(left[$0] - (coefficient * left[$0 - 1] - left[$0 - 2])) > 0.01 }
    }

    /// An engine on `daemon` with a player of `sineSecond()` (looping when `loops`), its main
    /// mixer tapped by `tap`, started and heard by `recorder` for 0.3 s (a stream that has just
    /// joined the sink loses its first milliseconds in the monitor); the engine and the player.
    static func startedEngine(on daemon: PulseAudioDaemon, heardBy recorder: MonitorRecorder, loops: Bool,
                              tap: AVAudioNodeTapBlock? = nil) async throws -> (AVAudioEngine, AVAudioPlayerNode) {
        let engine = PulseAudioDiscovery.$server.withValue(daemon.server) { AVAudioEngine() }
        let player = AVAudioPlayerNode()
        let sine = try Self.sineSecond()
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: sine.format)
        player.scheduleBuffer(sine, at: nil, options: loops ? .loops : [])
        if let tap { engine.mainMixerNode.installTap(onBus: 0, bufferSize: 4800, format: nil, block: tap) }
        try engine.start()
        try #require(try await recorder.waitForMore(seconds: 0.3), "the monitor stopped recording")
        return (engine, player)
    }

    @Test func aLoopingPlayerIsHeardWithoutAGapWhileAnotherCoreIsBusy() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let recorder = try MonitorRecorder(daemon)
        let (engine, player) = try await Self.startedEngine(on: daemon, heardBy: recorder, loops: true)
        let markFrames = recorder.recordedFrames, markHost = HostClock.now
        player.play()
        let playHost = HostClock.now
        // Another core busy for the whole run, at normal priority, as a user's build would be.
        let busy = Locked(true)
        let spinner = Thread {
            var x = 1.0
            while busy.withLock({ $0 }) { for _ in 0..<10_000 { x = x * 1.000001 + 1e-9 } }
            _ = x
        }
        spinner.start()
        try #require(try await recorder.waitForMore(seconds: 60), "the monitor stopped recording")
        busy.withLock { $0 = false }
        #expect(engine.outputUnderruns == 0, "the sound server ran out of sound \(engine.outputUnderruns) times")
        engine.stop()
        try #require(try await recorder.waitForMore(seconds: 0.3), "the monitor stopped recording")
        let samples = recorder.stop()
        let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        let right = stride(from: 1, to: samples.count, by: 2).map { samples[$0] }
        let first = try #require(left.firstIndex { abs($0) > 0.01 }, "nothing was heard")
        let last = try #require(left.lastIndex { abs($0) > 0.01 })
        // Heard within what the stream holds (100 ms) and the sink's own latency of play().
        let playFrame = markFrames + Int(Double(playHost - markHost) / 1e9 * 48_000)
        let late = Double(first - playFrame) / 48_000
        #expect(late > -0.005 && late < 0.14, "the sound started \(late) s after play()")
        #expect(Double(last - first) / 48_000 > 59, "the sound lasted \(Double(last - first) / 48_000) s")
        // Continuous: every sample follows from the two before it, on both sides, at the level.
        let seams = Self.seams(left, from: first + 2, to: last - 2)
        #expect(seams.isEmpty, "\(seams.count) seams, the first at \(seams.prefix(5).map { Double($0 - first) / 48_000 }) s")
        let peak = left[first..<last].map(abs).max() ?? 0
        #expect(abs(peak - 0.5) < 0.01, "the peak is \(peak)")
        #expect(zip(left[first..<last], right[first..<last]).allSatisfy { abs($0 - $1) < 1e-4 }, "the sides differ")
    }

    @Test func aTapOnTheMainMixerHoldsWhatTheSinkPlayed() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let recorder = try MonitorRecorder(daemon)
        let tapped = Locked<[Float]>([])
        let (engine, player) = try await Self.startedEngine(on: daemon, heardBy: recorder, loops: false) { buffer, _ in
            tapped.withLock { $0 += UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength)) }
        }
        player.play()
        try #require(try await recorder.waitForMore(seconds: 1.5), "the monitor stopped recording")
        engine.stop()
        let samples = recorder.stop()
        let heard = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        let tap = tapped.withLock { $0 }
        let heardStart = try #require(heard.firstIndex { abs($0) > 0.01 }, "nothing was heard")
        let tapStart = try #require(tap.firstIndex { abs($0) > 0.01 }, "the tap saw nothing")
        // The second of sine, as the tap saw it and as the sink played it.
        try #require(heard.count >= heardStart + 47_000 && tap.count >= tapStart + 47_000)
        let worst = (0..<47_000).map { abs(heard[heardStart + $0] - tap[tapStart + $0]) }.max() ?? 1
        #expect(worst < 1e-4, "the tap and the sink differ by \(worst)")
        #expect(engine.mainMixerNode.lastRenderTime == nil)
    }

    /// `play(at:)` of two players at one node time a quarter second ahead, one panned hard left
    /// and one hard right: the monitor hears both sides start within 1 ms of each other.
    @Test func twoPlayersPlayingAtOneNodeTimeAreHeardWithinAMillisecond() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let recorder = try MonitorRecorder(daemon)
        let (engine, left) = try await Self.startedEngine(on: daemon, heardBy: recorder, loops: true)
        let right = AVAudioPlayerNode()
        engine.attach(right)
        engine.connect(right, to: engine.mainMixerNode, format: try Self.sineSecond().format)
        right.scheduleBuffer(try Self.sineSecond(), at: nil, options: .loops)
        left.pan = -1
        right.pan = 1
        let now = try #require(engine.mainMixerNode.lastRenderTime)
        let start = AVAudioTime(sampleTime: now.sampleTime + 12_000, atRate: 48_000)
        left.play(at: start)
        right.play(at: start)
        try #require(try await recorder.waitForMore(seconds: 1), "the monitor stopped recording")
        engine.stop()
        let samples = recorder.stop()
        let heardLeft = try #require(stride(from: 0, to: samples.count, by: 2).first { abs(samples[$0]) > 0.01 }, "the left side was not heard")
        let heardRight = try #require(stride(from: 1, to: samples.count, by: 2).first { abs(samples[$0]) > 0.01 }, "the right side was not heard")
        let apart = Double(abs(heardLeft / 2 - heardRight / 2)) / 48_000
        #expect(apart <= 0.001, "the two players started \(apart * 1000) ms apart")
    }

    @Test func anEngineWithoutASoundServerFailsToStart() throws {
        let engine = PulseAudioDiscovery.$server.withValue("unix:/nonexistent/openav-no-server") { AVAudioEngine() }
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: nil)
        do {
            try engine.start()
            Issue.record("started without a sound server")
        } catch {
            #expect((error as NSError).code == Int(kAudioUnitErr_FailedInitialization))
        }
        #expect(!engine.isRunning)
    }

    @Test func aTapOnTheInputNodeHearsTheTestToneBeepsAtWholeSecondsOfTheHostClock() async throws {
        let session = AVAudioSession.sharedInstance()
        let tone = try #require(session.availableInputs?.first { $0.portType == .virtual }, "the Test Tone Microphone is an input")
        try session.setPreferredInput(tone)
        defer { try? session.setPreferredInput(nil) }
        let engine = AVAudioEngine()
        let input = engine.inputNode
        let format = input.outputFormat(forBus: 0)
        let heard = Locked<[(samples: [Float], hostTime: UInt64)]>([])
        input.installTap(onBus: 0, bufferSize: 4800, format: format) { buffer, time in
            let samples = Array(UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength)))
            heard.withLock { $0.append((samples, time.hostTime)) }
        }
        try engine.start()
        try await Task.sleep(nanoseconds: 3_600_000_000)
        engine.stop()
        let buffers = heard.withLock { $0 }
        try #require(buffers.count > 20, "the tap got \(buffers.count) buffers")
        // Each beep's onset (the first loud sample after half a second of quiet), on the host clock.
        var onsets: [UInt64] = []
        var quietSince: UInt64 = 0
        for (samples, hostTime) in buffers {
            for (index, sample) in samples.enumerated() where abs(sample) > 0.3 {
                let time = hostTime + UInt64(Double(index) / format.sampleRate * 1e9)
                if time - quietSince > 500_000_000 { onsets.append(time) }
                quietSince = time
            }
        }
        #expect(onsets.count >= 3, "\(onsets.count) beeps")
        for onset in onsets {
            let offset = Double(onset % 1_000_000_000) / 1e6
            let fromWhole = min(offset, 1000 - offset)
            #expect(fromWhole <= 5, "a beep at \(offset) ms past a whole second")
        }
        #expect(!engine.isRunning)
    }

    @Test func theSoundServerGoingAwayStopsTheEngineWithAConfigurationChange() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let recorder = try MonitorRecorder(daemon)
        let (engine, player) = try await Self.startedEngine(on: daemon, heardBy: recorder, loops: true)
        player.play()
        let changed = Locked(0)
        let observer = NotificationCenter.default.addObserver(forName: .AVAudioEngineConfigurationChange, object: engine, queue: nil) { _ in
            changed.withLock { $0 += 1 }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        _ = recorder.stop()
        daemon.kill()
        let deadline = Date().addingTimeInterval(10)
        while changed.withLock({ $0 }) == 0, Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(changed.withLock { $0 } == 1)
        #expect(!engine.isRunning)
        engine.stop()
    }

    /// A sound card unplugged while the engine plays to it (its sink's module unloaded, leaving
    /// the server no sink to move the stream to): the engine stops with one configuration change
    /// and no crash, and starts again once a sink is back.
    @Test func theOutputDeviceUnpluggedStopsTheEngineWithAConfigurationChange() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let recorder = try MonitorRecorder(daemon)
        let (engine, player) = try await Self.startedEngine(on: daemon, heardBy: recorder, loops: true)
        player.play()
        _ = recorder.stop()
        let changed = Locked(0)
        let observer = NotificationCenter.default.addObserver(forName: .AVAudioEngineConfigurationChange, object: engine, queue: nil) { _ in
            changed.withLock { $0 += 1 }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let sinkModule = try #require(try daemon.pactl(["list", "short", "modules"]).split(separator: "\n")
            .first { $0.contains("module-null-sink") }?.split(separator: "\t").first.map(String.init))
        try daemon.unloadModule(sinkModule)
        let deadline = Date().addingTimeInterval(10)
        while changed.withLock({ $0 }) == 0, Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(changed.withLock { $0 } == 1)
        #expect(!engine.isRunning)
        _ = try daemon.pactl(["load-module", "module-null-sink", "sink_name=replugged"])
        try engine.start()
        #expect(engine.isRunning)
        engine.stop()
    }

    /// The under-run count is the sound server's: a source node whose render block stalls the
    /// render thread for 400 ms (four times what the stream holds) once a second in makes the
    /// server run out, and that is counted.
    @Test func aRenderThreadStalledPastWhatTheStreamHoldsCountsAnUnderrun() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let recorder = try MonitorRecorder(daemon)
        let engine = PulseAudioDiscovery.$server.withValue(daemon.server) { AVAudioEngine() }
        let mono = try #require(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1))
        let rendered = Locked(0)
        let source = AVAudioSourceNode(format: mono) { _, _, frames, list in
            let samples = UnsafeMutableAudioBufferListPointer(list)[0].mData!.assumingMemoryBound(to: Float.self)
            for frame in 0..<Int(frames) { samples[frame] = 0.25 }
            let before = rendered.withLock { total in defer { total += Int(frames) }; return total }
            if before < 48_000, before + Int(frames) >= 48_000 { usleep(400_000) }
            return 0
        }
        engine.attach(source)
        engine.connect(source, to: engine.mainMixerNode, format: mono)
        try engine.start()
        try #require(try await recorder.waitForMore(seconds: 2), "the monitor stopped recording")
        #expect(engine.outputUnderruns >= 1)
        engine.stop()
        _ = recorder.stop()
    }
}
