import Foundation
import HostSystem
import OpenCoreMedia
import Testing
import TestSupport
@testable import OpenAVFAudio

/// AVAudioEngine rendered offline (manual rendering mode), judged against the same work done by
/// ffmpeg's filter graphs on the same files, and against the schedules' own sample positions.
@Suite(.timeLimit(.minutes(3))) struct AVAudioEngineRenderingTests {
    /// A mono 32-bit float WAV of a sine at `frequency`, `seconds` long, at `rate`.
    static func tone(_ frequency: Int, seconds: Double = 2, rate: Int = 48_000) throws -> URL {
        try Fixtures.make("engine-sine-\(frequency)-\(rate).wav", ["-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=\(rate)",
                                                                  "-t", String(seconds), "-c:a", "pcm_f32le"])
    }

    /// An engine in offline manual rendering mode at `rate`, stereo, 4096 frames a render.
    static func offlineEngine(rate: Double = 48_000) throws -> (AVAudioEngine, AVAudioFormat) {
        let engine = AVAudioEngine()
        let format = try #require(AVAudioFormat(standardFormatWithSampleRate: rate, channels: 2))
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 4096)
        return (engine, format)
    }

    /// Renders `frames` frames of a started engine, 4096 at a time; left and right samples.
    static func render(_ engine: AVAudioEngine, frames: Int) throws -> (left: [Float], right: [Float]) {
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: 4096))
        var left: [Float] = [], right: [Float] = []
        while left.count < frames {
            let count = AVAudioFrameCount(min(4096, frames - left.count))
            #expect(try engine.renderOffline(count, to: buffer) == .success)
            let planes = try #require(buffer.floatChannelData)
            left += UnsafeBufferPointer(start: planes[0], count: Int(count))
            right += UnsafeBufferPointer(start: planes[1], count: Int(count))
        }
        return (left, right)
    }

    /// What ffmpeg makes of `inputs` with `filter` (a filter graph ending in one stereo output),
    /// as 48 kHz float: left and right samples.
    static func ffmpeg(_ inputs: [URL], filter: String) throws -> (left: [Float], right: [Float]) {
        let data = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error"] + inputs.flatMap { ["-i", $0.path] }
                                    + ["-filter_complex", filter, "-f", "f32le", "-ac", "2", "-"])
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        return (stride(from: 0, to: samples.count, by: 2).map { samples[$0] }, stride(from: 1, to: samples.count, by: 2).map { samples[$0] })
    }

    /// The largest difference between two signals over their common length, in dB.
    static func worstDifference(_ a: [Float], _ b: [Float]) -> Double {
        let worst = zip(a, b).map { abs(Double($0) - Double($1)) }.max() ?? 1
        return 20 * log10(max(worst, 1e-12))
    }

    @Test func twoPlayersMixWithTheirVolumesAndPansAsFFmpegMixesThem() throws {
        let (engine, _) = try Self.offlineEngine()
        let low = try AVAudioFile(forReading: try Self.tone(440)), high = try AVAudioFile(forReading: try Self.tone(660))
        let first = AVAudioPlayerNode(), second = AVAudioPlayerNode()
        for (player, file) in [(first, low), (second, high)] {
            engine.attach(player)
            engine.connect(player, to: engine.mainMixerNode, format: file.processingFormat)
            player.scheduleFile(file, at: nil)
        }
        first.volume = 0.5
        first.pan = -0.5
        second.volume = 0.8
        second.pan = 0.25
        try engine.start()
        first.play()
        second.play()
        let ours = try Self.render(engine, frames: 96_000)
        // The balance law: the near side at the volume, the far side lowered by the pan.
        let theirs = try Self.ffmpeg([try Self.tone(440), try Self.tone(660)], filter:
            "[0]pan=stereo|c0=0.5*c0|c1=0.25*c0[a];[1]pan=stereo|c0=0.6*c0|c1=0.8*c0[b];[a][b]amix=inputs=2:normalize=0")
        try #require(theirs.left.count == 96_000, "ffmpeg gave \(theirs.left.count) frames")
        #expect(Self.worstDifference(ours.left, theirs.left) < -90)
        #expect(Self.worstDifference(ours.right, theirs.right) < -90)
        #expect(engine.manualRenderingSampleTime == 96_000)
    }

    /// Two players, one attached before the engine started and one after, started at one node time.
    @Test func playAtTheSameNodeTimeStartsTwoPlayersOnTheSameSample() throws {
        let (engine, format) = try Self.offlineEngine()
        let mono = try #require(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1))
        let click = try #require(AVAudioPCMBuffer(pcmFormat: mono, frameCapacity: 10))
        click.frameLength = 10
        click.floatChannelData![0][0] = 1
        let left = AVAudioPlayerNode(), right = AVAudioPlayerNode()
        func add(_ player: AVAudioPlayerNode) {
            engine.attach(player)
            engine.connect(player, to: engine.mainMixerNode, format: mono)
            player.scheduleBuffer(click)
        }
        add(left)
        try engine.start()
        _ = try Self.render(engine, frames: 1000)
        // The right player joins the running engine: its node times are the engine's too.
        add(right)
        left.pan = -1
        right.pan = 1
        // Both start at node time 5000: 4000 frames into the next renders, inside the second.
        let when = AVAudioTime(sampleTime: 5000, atRate: format.sampleRate)
        left.play(at: when)
        right.play(at: when)
        let rendered = try Self.render(engine, frames: 8192)
        #expect(rendered.left.firstIndex { $0 != 0 } == 4000)
        #expect(rendered.right.firstIndex { $0 != 0 } == 4000)
        #expect(left.playerTime(forNodeTime: AVAudioTime(sampleTime: 5000, atRate: 48_000))?.sampleTime == 0)
        #expect(right.nodeTime(forPlayerTime: AVAudioTime(sampleTime: 100, atRate: 48_000))?.sampleTime == 5100)
    }

    @Test func loopingBuffersPlayUntilInterruptedAndCompletionsComeOnce() async throws {
        let (engine, _) = try Self.offlineEngine()
        let mono = try #require(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1))
        func constant(_ value: Float, frames: AVAudioFrameCount) throws -> AVAudioPCMBuffer {
            let buffer = try #require(AVAudioPCMBuffer(pcmFormat: mono, frameCapacity: frames))
            buffer.frameLength = frames
            buffer.floatChannelData![0].update(repeating: value, count: Int(frames))
            return buffer
        }
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: mono)
        let done = Locked<[String]>([])
        player.scheduleBuffer(try constant(0.25, frames: 100), at: nil, options: .loops) { done.withLock { $0.append("loop") } }
        try engine.start()
        player.play()
        let looped = try Self.render(engine, frames: 1000)
        #expect(looped.left.allSatisfy { $0 == 0.25 }, "the loop did not fill the render")
        player.scheduleBuffer(try constant(0.5, frames: 50), at: nil, options: .interruptsAtLoop, completionCallbackType: .dataRendered) { type in
            done.withLock { $0.append("after \(type.rawValue)") }
        }
        let after = try Self.render(engine, frames: 1000)
        // The loop point passed as the last render ended (1000 frames are 10 whole passes): the
        // loop plays one more pass to its next loop point, then the new buffer, then nothing.
        #expect(after.left[0..<100].allSatisfy { $0 == 0.25 })
        #expect(after.left[100..<150].allSatisfy { $0 == 0.5 })
        #expect(after.left[150...].allSatisfy { $0 == 0 })
        try await waitUntil(seconds: 5) { done.withLock { $0.count == 2 } }
        #expect(Set(done.withLock { $0 }) == ["loop", "after 1"])
    }

    @Test func aPlayerScheduledAtAPlayerTimeWaitsForItAndStopCallsWhatIsLeft() async throws {
        let (engine, _) = try Self.offlineEngine()
        let mono = try #require(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1))
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: mono, frameCapacity: 10))
        buffer.frameLength = 10
        buffer.floatChannelData![0].update(repeating: 1, count: 10)
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: mono)
        player.scheduleBuffer(buffer, at: AVAudioTime(sampleTime: 300, atRate: 48_000), options: [])
        let dropped = Locked(0)
        player.scheduleBuffer(buffer, at: AVAudioTime(sampleTime: 1_000_000, atRate: 48_000), options: []) { dropped.withLock { $0 += 1 } }
        try engine.start()
        player.play()
        let rendered = try Self.render(engine, frames: 1000)
        #expect(rendered.left.firstIndex { $0 != 0 } == 300)
        #expect(rendered.left.lastIndex { $0 != 0 } == 309)
        player.stop()
        #expect(!player.isPlaying)
        try await waitUntil(seconds: 5) { dropped.withLock { $0 == 1 } }
    }

    @Test(arguments: [44_100, 96_000]) func aPlayerAtAnotherRateIsResampledIntoA48KilohertzMix(_ rate: Int) throws {
        let (engine, _) = try Self.offlineEngine()
        let file = try AVAudioFile(forReading: try Self.tone(1000, rate: rate))
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: file.processingFormat)
        player.scheduleFile(file, at: nil)
        try engine.start()
        player.play()
        let rendered = try Self.render(engine, frames: 96_000 + 4800)
        // The tone lasts its 2 s at the new rate, at its pitch: count the rising zero crossings.
        let sounding = rendered.left.indices.filter { abs(rendered.left[$0]) > 0.05 }
        let length = Double((sounding.last ?? 0) - (sounding.first ?? 0)) / 48_000
        #expect(abs(length - 2) < 0.005, "the tone lasted \(length) s")
        let window = rendered.left[24_000..<72_000]
        let crossings = zip(window, window.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        #expect(abs(crossings - 1000) <= 1, "\(crossings) rising crossings in one second")
    }

    @Test func aTapSeesWhatTheOutputRendered() async throws {
        let (engine, _) = try Self.offlineEngine()
        let file = try AVAudioFile(forReading: try Self.tone(440))
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: file.processingFormat)
        player.scheduleFile(file, at: nil)
        let tapped = Locked<(samples: [Float], times: [Int64])>(([], []))
        engine.mainMixerNode.installTap(onBus: 0, bufferSize: 4800, format: nil) { buffer, time in
            let samples = UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength))
            tapped.withLock { $0.samples += samples; $0.times.append(time.sampleTime) }
        }
        try engine.start()
        player.play()
        let rendered = try Self.render(engine, frames: 48_000)
        try await waitUntil(seconds: 5) { tapped.withLock { $0.samples.count == 48_000 } }
        let (samples, times) = tapped.withLock { $0 }
        #expect(samples == rendered.left)
        #expect(times == (0..<10).map { Int64($0 * 4800) })
        engine.mainMixerNode.removeTap(onBus: 0)
    }

    /// A tap block that removes its own tap while an offline render waits for its buffers back
    /// (nine 64-frame buffers a render, a pool of eight) does not deadlock: the render ends, the
    /// tap is called no more after it is removed, and every frame was rendered.
    /// Not async: with suites running in parallel, a test that suspends waits for a thread of the
    /// pool the other tests may all be blocking.
    @Test func aTapRemovingItselfDuringAnOfflineRenderDoesNotDeadlock() throws {
        let (engine, _) = try Self.offlineEngine()
        let file = try AVAudioFile(forReading: try Self.tone(440))
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: file.processingFormat)
        player.scheduleFile(file, at: nil)
        let calls = Locked((before: 0, after: 0, removed: false))
        engine.mainMixerNode.installTap(onBus: 0, bufferSize: 64, format: nil) { _, _ in
            if calls.withLock({ $0.removed }) { return calls.withLock { $0.after += 1 } }
            calls.withLock { $0.before += 1 }
            Thread.sleep(forTimeInterval: 0.01)
            engine.mainMixerNode.removeTap(onBus: 0)
            calls.withLock { $0.removed = true }
        }
        try engine.start()
        player.play()
        let rendered = try Self.render(engine, frames: 3 * 4096)
        #expect(pollUntil(timeout: 5) { calls.withLock { $0.removed } }, "the tap block did not remove its tap")
        let ended = calls.withLock { $0 }
        #expect(ended.before == 1 && ended.after == 0)
        #expect(rendered.left.count == 3 * 4096 && rendered.left.contains { abs($0) > 0.1 })
    }

    @Test func aSourceNodeRendersIntoASinkNode() throws {
        let (engine, _) = try Self.offlineEngine()
        let mono = try #require(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1))
        let phase = Locked(0)
        let source = AVAudioSourceNode(format: mono) { _, _, frames, list in
            let samples = UnsafeMutableAudioBufferListPointer(list)[0].mData!.assumingMemoryBound(to: Float.self)
            phase.withLock { start in
                for frame in 0..<Int(frames) { samples[frame] = Float(start + frame) / 100_000 }
                start += Int(frames)
            }
            return 0
        }
        let received = Locked<[Float]>([])
        let sink = AVAudioSinkNode { _, frames, list in
            let samples = UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: list))[0].mData!.assumingMemoryBound(to: Float.self)
            received.withLock { $0 += UnsafeBufferPointer(start: samples, count: Int(frames)) }
            return 0
        }
        engine.attach(source)
        engine.attach(sink)
        engine.connect(source, to: sink, format: mono)
        try engine.start()
        _ = try Self.render(engine, frames: 10_000)
        #expect(received.withLock { $0 } == (0..<10_000).map { Float($0) / 100_000 })
    }

    @Test func theInputNodeTakesItsSamplesFromTheManualRenderingBlock() throws {
        let (engine, _) = try Self.offlineEngine()
        let mono = try #require(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1))
        let source = try #require(AVAudioPCMBuffer(pcmFormat: mono, frameCapacity: 4096))
        let next = Locked(0)
        #expect(engine.inputNode.setManualRenderingInputPCMFormat(mono) { frames in
            next.withLock { start in
                for frame in 0..<Int(frames) { source.floatChannelData![0][frame] = Float(start + frame) / 100_000 }
                start += Int(frames)
            }
            source.frameLength = frames
            return source.audioBufferList
        })
        engine.connect(engine.inputNode, to: engine.mainMixerNode, format: mono)
        try engine.start()
        let rendered = try Self.render(engine, frames: 10_000)
        #expect(rendered.left == (0..<10_000).map { Float($0) / 100_000 })
        #expect(rendered.right == rendered.left)
    }

    @Test func manualRenderingRefusesWhatApplesRefuses() throws {
        let engine = AVAudioEngine()
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: 16))
        #expect(throws: NSError.self) { try engine.renderOffline(16, to: buffer) }
        let (offline, _) = try Self.offlineEngine()
        // Nothing reaches the output yet.
        #expect(throws: NSError.self) { try offline.start() }
        let player = AVAudioPlayerNode()
        offline.attach(player)
        offline.connect(player, to: offline.mainMixerNode, format: nil)
        do {
            _ = try offline.renderOffline(16, to: buffer)
            Issue.record("rendered before start()")
        } catch {
            #expect((error as NSError).code == Int(AVAudioEngineManualRenderingError.notRunning.rawValue))
        }
        try offline.start()
        do {
            try offline.enableManualRenderingMode(.offline, format: offline.manualRenderingFormat, maximumFrameCount: 64)
            Issue.record("manual rendering mode changed while running")
        } catch {
            #expect((error as NSError).code == Int(AVAudioEngineManualRenderingError.initialized.rawValue))
        }
        let big = try #require(AVAudioPCMBuffer(pcmFormat: offline.manualRenderingFormat, frameCapacity: 8192))
        #expect(throws: NSError.self) { try offline.renderOffline(8192, to: big) }
    }

    /// Apple's engine raises an exception for these programmer errors; here the process stops
    /// with the rule's message.
    @Test func aSecondTapOnABusStopsTheProcess() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let mixer = AVAudioMixerNode()
            mixer.installTap(onBus: 0, bufferSize: 1024, format: nil) { _, _ in }
            mixer.installTap(onBus: 0, bufferSize: 1024, format: nil) { _, _ in }
        }
        let said = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(said.contains("nullptr == Tap()"), "\(said)")
    }

    @Test func connectingInIntegerSamplesStopsTheProcess() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let engine = AVAudioEngine()
            let player = AVAudioPlayerNode()
            engine.attach(player)
            engine.connect(player, to: engine.mainMixerNode, format: AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 48_000,
                                                                                   channels: 2, interleaved: true))
        }
        let said = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(said.contains("32-bit float"), "\(said)")
    }

    @Test func playingBeforeTheEngineRunsStopsTheProcess() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let engine = AVAudioEngine()
            let player = AVAudioPlayerNode()
            engine.attach(player)
            player.play()
        }
        let said = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(said.contains("player started when engine not running"), "\(said)")
    }

    /// Waits until `condition` holds, or fails after `seconds`.
    func waitUntil(seconds: Double, _ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            try #require(Date() < deadline, "timed out")
            try await Task.sleep(nanoseconds: 5_000_000)
        }
    }
}

/// AVAudioUnitEQ in an offline engine, against ffmpeg's own filters on the same tones.
@Suite(.timeLimit(.minutes(3))) struct AVAudioUnitEQRenderingTests {
    /// The level in dB of what `configure`'s equalizer makes of a 1 s tone at `frequency`,
    /// measured over its second half (left channel).
    static func level(at frequency: Int, _ configure: (AVAudioUnitEQ) -> Void) throws -> Double {
        let (engine, _) = try AVAudioEngineRenderingTests.offlineEngine()
        let file = try AVAudioFile(forReading: try AVAudioEngineRenderingTests.tone(frequency, seconds: 1))
        let player = AVAudioPlayerNode(), equalizer = AVAudioUnitEQ(numberOfBands: 1)
        configure(equalizer)
        engine.attach(player)
        engine.attach(equalizer)
        engine.connect(player, to: equalizer, format: file.processingFormat)
        engine.connect(equalizer, to: engine.mainMixerNode, format: file.processingFormat)
        player.scheduleFile(file, at: nil)
        try engine.start()
        player.play()
        return decibels(Array(try AVAudioEngineRenderingTests.render(engine, frames: 48_000).left[24_000...]))
    }

    /// ffmpeg's level in dB of the same tone through `filter`, on both sides as the mixer puts it.
    static func ffmpegLevel(at frequency: Int, filter: String) throws -> Double {
        let tone = try AVAudioEngineRenderingTests.tone(frequency, seconds: 1)
        return decibels(Array(try AVAudioEngineRenderingTests.ffmpeg([tone], filter: "[0]\(filter),pan=stereo|c0=c0|c1=c0").left[24_000...]))
    }

    /// The RMS level of `samples` in dB.
    static func decibels(_ samples: [Float]) -> Double {
        10 * log10(samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count)))
    }

    static let frequencies = [100, 200, 400, 700, 900, 1000, 1200, 2000, 4000, 8000]

    @Test(arguments: frequencies) func aParametricBandShapesTheToneAsFFmpegsEqualizer(_ frequency: Int) throws {
        let ours = try Self.level(at: frequency) { eq in
            eq.bands[0].filterType = .parametric
            eq.bands[0].frequency = 1000
            eq.bands[0].bandwidth = 1
            eq.bands[0].gain = 6
            eq.bands[0].bypass = false
        }
        let theirs = try Self.ffmpegLevel(at: frequency, filter: "equalizer=f=1000:t=o:w=1:g=6")
        #expect(abs(ours - theirs) < 0.5, "\(frequency) Hz: \(ours) dB against ffmpeg's \(theirs) dB")
        if frequency == 1000 {
            // At the centre the tone is 6 dB up on the tone itself (−9.03 dB RMS for amplitude 1/8).
            let plain = try Self.level(at: frequency) { _ in }
            #expect(abs(ours - plain - 6) < 0.2, "the band gave \(ours - plain) dB at its centre")
        }
    }

    @Test func aLowPassBandAndTheGlobalGainAsFFmpegsFilters() throws {
        for frequency in [250, 1000, 4000] {
            let ours = try Self.level(at: frequency) { eq in
                eq.bands[0].filterType = .lowPass
                eq.bands[0].frequency = 1000
                eq.bands[0].bypass = false
                eq.globalGain = -3
            }
            let theirs = try Self.ffmpegLevel(at: frequency, filter: "lowpass=f=1000,volume=-3dB")
            #expect(abs(ours - theirs) < 0.5, "\(frequency) Hz: \(ours) dB against ffmpeg's \(theirs) dB")
        }
    }

    @Test func aBypassedEqualizerLeavesTheToneAsItIs() throws {
        let bypassed = try Self.level(at: 1000) { eq in
            eq.bands[0].gain = 12
            eq.bands[0].bypass = false
            eq.bypass = true
        }
        let plain = try Self.level(at: 1000) { _ in }
        #expect(abs(bypassed - plain) < 0.01)
    }
}

/// AVAudioUnitTimePitch and AVAudioUnitVarispeed in an offline engine: what a 2 s 1 kHz tone
/// becomes, by its length (to 10 ms) and its pitch (rising zero crossings over half a second).
@Suite(.timeLimit(.minutes(3))) struct AVAudioUnitTimeEffectRenderingTests {
    /// The tone through `unit`: how long it sounds, and its frequency in its middle.
    static func played(through unit: AVAudioUnitTimeEffect) throws -> (seconds: Double, frequency: Int) {
        let (engine, _) = try AVAudioEngineRenderingTests.offlineEngine()
        let file = try AVAudioFile(forReading: try AVAudioEngineRenderingTests.tone(1000))
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.attach(unit)
        engine.connect(player, to: unit, format: file.processingFormat)
        engine.connect(unit, to: engine.mainMixerNode, format: file.processingFormat)
        player.scheduleFile(file, at: nil)
        try engine.start()
        player.play()
        let left = try AVAudioEngineRenderingTests.render(engine, frames: 4 * 48_000).left
        // How long it sounds: the 10 ms windows at least half as loud as the loudest (a stretcher
        // fades its onset and end over a few windows, which this does not count).
        let window = 480
        let levels = stride(from: 0, to: left.count - window, by: window).map { start in
            (left[start..<start + window].reduce(0) { $0 + Double($1) * Double($1) } / Double(window)).squareRoot()
        }
        let loudest = levels.max() ?? 0
        let sounding = levels.indices.filter { levels[$0] > loudest / 2 }
        let first = (sounding.first ?? 0) * window, last = ((sounding.last ?? 0) + 1) * window
        let middle = (first + last) / 2
        let span = left[(middle - 12_000)..<(middle + 12_000)]
        let crossings = zip(span, span.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        return (Double(last - first) / 48_000, crossings * 2)
    }

    @Test func timePitchAtOneAndAHalfKeepsThePitchAndShortensTheTone() throws {
        let unit = AVAudioUnitTimePitch()
        unit.rate = 1.5
        let (seconds, frequency) = try Self.played(through: unit)
        #expect(abs(seconds - 2 / 1.5) < 0.03, "the tone lasted \(seconds) s at \(frequency) Hz")
        #expect(abs(frequency - 1000) <= 4, "the tone is at \(frequency) Hz")
    }

    @Test func anOctaveOfPitchDoublesTheFrequencyAndKeepsTheLength() throws {
        let unit = AVAudioUnitTimePitch()
        unit.pitch = 1200
        let (seconds, frequency) = try Self.played(through: unit)
        #expect(abs(seconds - 2) < 0.03, "the tone lasted \(seconds) s")
        #expect(abs(frequency - 2000) <= 4, "the tone is at \(frequency) Hz")
    }

    @Test func varispeedMovesBothThePitchAndTheLength() throws {
        let unit = AVAudioUnitVarispeed()
        unit.rate = 1.5
        let (seconds, frequency) = try Self.played(through: unit)
        #expect(abs(seconds - 2 / 1.5) < 0.03, "the tone lasted \(seconds) s at \(frequency) Hz")
        #expect(abs(frequency - 1500) <= 4, "the tone is at \(frequency) Hz")
    }
}

/// AVAudioUnitReverb in an offline engine: an impulse's reverberation decays over the preset's
/// time, and an all-dry mix passes the input as it is.
@Suite(.timeLimit(.minutes(3))) struct AVAudioUnitReverbRenderingTests {
    /// What `unit` makes of one impulse, `seconds` of it (left channel).
    static func impulseResponse(_ unit: AVAudioUnit, seconds: Int = 5) throws -> [Float] {
        let (engine, _) = try AVAudioEngineRenderingTests.offlineEngine()
        let mono = try #require(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1))
        let impulse = try #require(AVAudioPCMBuffer(pcmFormat: mono, frameCapacity: 4800))
        impulse.frameLength = 4800
        impulse.floatChannelData![0][0] = 1
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.attach(unit)
        engine.connect(player, to: unit, format: mono)
        engine.connect(unit, to: engine.mainMixerNode, format: mono)
        player.scheduleBuffer(impulse)
        try engine.start()
        player.play()
        return try AVAudioEngineRenderingTests.render(engine, frames: seconds * 48_000).left
    }

    @Test(arguments: [AVAudioUnitReverbPreset.smallRoom, .largeHall, .cathedral])
    func theReverberationFallsThirtyDecibelsInHalfThePresetsDecayTime(_ preset: AVAudioUnitReverbPreset) throws {
        let reverb = AVAudioUnitReverb()
        reverb.loadFactoryPreset(preset)
        reverb.wetDryMix = 100
        let response = try Self.impulseResponse(reverb)
        // The level of each 20 ms, in dB; the time from the loudest until 30 dB below it, doubled.
        let window = 960
        let levels = stride(from: 0, to: response.count - window, by: window).map { start in
            10 * log10(max(1e-20, response[start..<start + window].reduce(0) { $0 + Double($1) * Double($1) } / Double(window)))
        }
        let peak = try #require(levels.indices.max { levels[$0] < levels[$1] })
        let fallen = try #require(levels.indices.first { $0 > peak && levels[$0] < levels[peak] - 30 }, "the reverberation never fell 30 dB")
        let decay = 2 * Double(fallen - peak) * Double(window) / 48_000
        #expect(abs(decay - preset.decayTime) < 0.2 * preset.decayTime, "\(preset): a decay of \(decay) s")
    }

    @Test func anAllDryReverbPassesTheInputAsItIs() throws {
        let reverb = AVAudioUnitReverb()
        reverb.wetDryMix = 0
        let response = try Self.impulseResponse(reverb)
        // The impulse alone, as late as the convolution's blocks make it.
        #expect(response.filter { $0 != 0 } == [1])
    }
}

/// AVAudioUnitDelay in an offline engine: an impulse comes back every delay time, each repeat
/// the feedback of the one before.
@Suite(.timeLimit(.minutes(3))) struct AVAudioUnitDelayRenderingTests {
    @Test func anImpulseRepeatsEveryDelayTimeAtTheFeedbacksLevel() throws {
        let delay = AVAudioUnitDelay()
        delay.delayTime = 0.1
        delay.feedback = 50
        delay.lowPassCutoff = 23_000
        delay.wetDryMix = 50
        let response = try AVAudioUnitReverbRenderingTests.impulseResponse(delay, seconds: 1)
        // The dry impulse at half level, then the repeats at 0.1, 0.2, 0.3 s: 1/2, 1/4, 1/8 of
        // the wet half (each spread over a few samples by the low pass, which keeps its sum).
        #expect(abs(response[0] - 0.5) < 0.01)
        for (index, expected) in [0.5, 0.25, 0.125].enumerated() {
            let start = (index + 1) * 4800
            let area = response[start - 2..<start + 48].reduce(0) { $0 + Double($1) }
            #expect(abs(area - expected) < 0.02 * expected, "repeat \(index + 1): \(area)")
        }
        #expect(response[100..<4790].allSatisfy { abs($0) < 0.01 }, "something between the impulse and the first repeat")
    }
}

/// AVAudioUnitDistortion in an offline engine: a pure tone gains harmonics, every preset's
/// chain is one libavfilter takes, and an all-dry mix leaves the tone as it is.
@Suite(.timeLimit(.minutes(3))) struct AVAudioUnitDistortionRenderingTests {
    /// A 1 kHz tone through `distortion`: its left channel over the second half of 1 s.
    static func distorted(_ distortion: AVAudioUnitDistortion) throws -> [Float] {
        let (engine, _) = try AVAudioEngineRenderingTests.offlineEngine()
        let file = try AVAudioFile(forReading: try AVAudioEngineRenderingTests.tone(1000, seconds: 1))
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.attach(distortion)
        engine.connect(player, to: distortion, format: file.processingFormat)
        engine.connect(distortion, to: engine.mainMixerNode, format: file.processingFormat)
        player.scheduleFile(file, at: nil)
        try engine.start()
        player.play()
        return Array(try AVAudioEngineRenderingTests.render(engine, frames: 48_000).left[24_000...])
    }

    /// The amplitude of `frequency` in `samples` (a single-bin DFT).
    static func amplitude(of frequency: Double, in samples: [Float]) -> Double {
        var (re, im) = (0.0, 0.0)
        for (index, sample) in samples.enumerated() {
            let phase = 2 * Double.pi * frequency * Double(index) / 48_000
            re += Double(sample) * cos(phase)
            im += Double(sample) * sin(phase)
        }
        return 2 * (re * re + im * im).squareRoot() / Double(samples.count)
    }

    @Test func cubedClippingGivesTheToneAThirdHarmonic() throws {
        let distortion = AVAudioUnitDistortion()
        distortion.loadFactoryPreset(.multiDistortedCubed)
        distortion.preGain = 0
        distortion.wetDryMix = 100
        let samples = try Self.distorted(distortion)
        let fundamental = Self.amplitude(of: 1000, in: samples), third = Self.amplitude(of: 3000, in: samples)
        #expect(20 * log10(third / fundamental) > -30, "the third harmonic is \(20 * log10(third / fundamental)) dB")
    }

    @Test func anAllDryDistortionLeavesTheTone() throws {
        let distortion = AVAudioUnitDistortion()
        distortion.wetDryMix = 0
        let samples = try Self.distorted(distortion)
        let third = Self.amplitude(of: 3000, in: samples), fundamental = Self.amplitude(of: 1000, in: samples)
        #expect(abs(fundamental - 0.125) < 0.001, "the tone's amplitude is \(fundamental)")
        #expect(third < 1e-5)
    }

    @Test func everyPresetIsAChainLibavfilterTakes() throws {
        for raw in 0...21 {
            let preset = try #require(AVAudioUnitDistortionPreset(rawValue: raw))
            #expect((try? EffectFilter(chain: "asplit[dry][wet];[wet]\(preset.chain)[d];[dry][d]amix=inputs=2",
                                       sampleRate: 48_000, channelCount: 2)) != nil, "\(preset)")
        }
    }
}
