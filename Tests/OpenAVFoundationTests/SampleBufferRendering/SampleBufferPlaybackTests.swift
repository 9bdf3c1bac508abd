import CaptureDevices
import Foundation
import HostSystem
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Sample buffers a program reads itself (a passthrough reader of a WAV file, 44.1 kHz mono
/// 16-bit, or of AAC in MP4: decoded and converted as enqueued) played by an
/// `AVSampleBufferAudioRenderer` under an
/// `AVSampleBufferRenderSynchronizer`, into a private PulseAudio daemon's null sink heard through
/// its monitor: each beep is heard when the synchronizer's time reaches it. Real time: the
/// name puts it in the test script's real-time phase.
@Suite(.serialized, .timeLimit(.minutes(10))) struct SampleBufferPlaybackTests {
    /// 5 s of a 1 kHz beep of 100 ms at each whole second, as 44.1 kHz mono 16-bit WAV
    /// (`codec` "pcm_s16le") or AAC in MP4 ("aac").
    static func beeps(_ codec: String) throws -> URL {
        try Fixtures.make("beeps-44k-mono-\(codec).\(codec == "aac" ? "m4a" : "wav")", [
            "-f", "lavfi", "-i", "aevalsrc=if(lt(mod(t\\,1)\\,0.1)\\,0.5*sin(2*PI*1000*t)\\,0):s=44100:d=5", "-c:a", codec,
        ])
    }

    /// The host times (seconds) at which the monitor's recording has a beep begin: a frame
    /// above 0.1 after 50 ms below it; `markFrame` of the recording was at `markHost`.
    static func onsets(_ samples: [Float], markFrame: Int, markHost: UInt64) -> [Double] {
        var quiet = 0
        var found: [Double] = []
        for frame in 0..<(samples.count / 2) {
            if abs(samples[frame * 2]) > 0.1 {
                if quiet >= 2400 { found.append(Double(markHost) / 1e9 + Double(frame - markFrame) / 48_000) }
                quiet = 0
            } else {
                quiet += 1
            }
        }
        return found
    }

    /// A renderer (on `daemon`) fed from a reader of the beeps from `start` seconds on, through
    /// `requestMediaDataWhenReady`.
    static func feed(_ renderer: AVSampleBufferAudioRenderer, codec: String, from start: Double) async throws -> AVAssetReader {
        let asset = AVURLAsset(url: try beeps(codec))
        let reader = try AVAssetReader(asset: asset)
        reader.timeRange = CMTimeRange(start: CMTime(seconds: start, preferredTimescale: 44_100), end: .positiveInfinity)
        let output = AVAssetReaderTrackOutput(track: try #require(try await asset.loadTracks(withMediaType: .audio).first), outputSettings: nil)
        reader.add(output)
        #expect(reader.startReading())
        nonisolated(unsafe) let source = output  // read on the feeding queue alone
        renderer.requestMediaDataWhenReady(on: DispatchQueue(label: "feeder")) {
            while renderer.isReadyForMoreMediaData {
                guard let buffer = source.copyNextSampleBuffer() else { return renderer.stopRequestingMediaData() }
                renderer.enqueue(buffer)
            }
        }
        #expect(try await pollUntil(timeout: 10) { renderer.hasSufficientMediaDataForReliablePlaybackStart }, "the renderer was not fed: \(renderer.status.rawValue) \(String(describing: renderer.error))")
        return reader
    }

    @Test(arguments: ["pcm_s16le", "aac"])
    func eachBeepIsHeardWhenTheSynchronizersTimeReachesItAndAFlushAndSeekPlaysFromThere(codec: String) async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let renderer = PulseAudioDiscovery.$server.withValue(daemon.server) { AVSampleBufferAudioRenderer() }
        let synchronizer = AVSampleBufferRenderSynchronizer()
        synchronizer.addRenderer(renderer)
        #expect(synchronizer.renderers.count == 1 && renderer.timebase === synchronizer.timebase)
        var reader = try await Self.feed(renderer, codec: codec, from: 0)
        let recorder = try MonitorRecorder(daemon)
        try #require(try await recorder.waitForMore(seconds: 0.2), "the monitor stopped recording")
        let markHost = HostClock.now
        let markFrame = recorder.recordedFrames
        // Time 0 in 300 ms; at 1.5 s (a boundary observer), stop, flush, and go on from 3 s.
        let start = markHost + 300_000_000
        synchronizer.setRate(1, time: .zero, atHostTime: CMTime(value: CMTimeValue(start), timescale: 1_000_000_000))
        let paused = try await waitUntil(timeout: 10) { done in
            let observer = synchronizer.addBoundaryTimeObserver(forTimes: [NSValue(time: CMTime(value: 3, timescale: 2))], queue: nil) {
                synchronizer.rate = 0
                done()
            }
            return { synchronizer.removeTimeObserver(observer) }
        }
        try #require(paused, "the synchronizer did not reach 1.5 s")
        #expect(abs(synchronizer.currentTime().seconds - 1.5) < 0.02)
        renderer.stopRequestingMediaData()
        reader.cancelReading()
        renderer.flush()
        reader = try await Self.feed(renderer, codec: codec, from: 3)
        let resume = HostClock.now + 200_000_000
        synchronizer.setRate(1, time: CMTime(value: 3, timescale: 1), atHostTime: CMTime(value: CMTimeValue(resume), timescale: 1_000_000_000))
        try #require(try await recorder.waitForMore(seconds: 1.5), "the monitor stopped recording")
        synchronizer.rate = 0
        let heard = Self.onsets(recorder.stop(), markFrame: markFrame, markHost: markHost)
        #expect(renderer.status == .rendering && renderer.error == nil)
        // Beeps at 0 and 1 s from the start, none at 2 s (skipped), 3 s at the resume, 4 s after.
        let expected = [Double(start) / 1e9, Double(start) / 1e9 + 1, Double(resume) / 1e9, Double(resume) / 1e9 + 1]
        #expect(heard.count == expected.count, "beeps heard at \(heard.map { $0 - Double(start) / 1e9 }) s from the start")
        for (when, due) in zip(heard, expected) {
            #expect(abs(when - due) < 0.04, "a beep was heard \(Int((when - due) * 1000)) ms from its time")
        }
    }

    /// At rate 2 and at 0.5 each beep is heard when the synchronizer's time reaches it (within
    /// 40 ms), lasting half or twice its 100 ms; its 1 kHz tone keeps its pitch with the default
    /// algorithm (time-domain stretching), and follows the rate with `.varispeed` (2 kHz).
    @Test(arguments: [(2.0, AVAudioTimePitchAlgorithm.timeDomain, 1000.0), (2.0, .varispeed, 2000.0), (0.5, .timeDomain, 1000.0)])
    func atOtherRatesEachBeepIsHeardAtItsTimeWithItsPitchAsTheAlgorithmSays(rate: Double, algorithm: AVAudioTimePitchAlgorithm,
                                                                          pitch: Double) async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let renderer = PulseAudioDiscovery.$server.withValue(daemon.server) { AVSampleBufferAudioRenderer() }
        #expect(renderer.audioTimePitchAlgorithm == .timeDomain)
        renderer.audioTimePitchAlgorithm = algorithm
        let synchronizer = AVSampleBufferRenderSynchronizer()
        synchronizer.addRenderer(renderer)
        let reader = try await Self.feed(renderer, codec: "pcm_s16le", from: 0)
        defer { reader.cancelReading() }
        let recorder = try MonitorRecorder(daemon)
        try #require(try await recorder.waitForMore(seconds: 0.2), "the monitor stopped recording")
        let markHost = HostClock.now
        let markFrame = recorder.recordedFrames
        let start = markHost + 300_000_000
        synchronizer.setRate(Float(rate), time: .zero, atHostTime: CMTime(value: CMTimeValue(start), timescale: 1_000_000_000))
        // Beeps at 0–4 s of the file: at rate 2 all five, at 0.5 the first three.
        let beeps = rate > 1 ? 5 : 3
        try #require(try await recorder.waitForMore(seconds: 0.5 + Double(beeps - 1) / rate), "the monitor stopped recording")
        synchronizer.rate = 0
        let samples = recorder.stop()
        let heard = Self.onsets(samples, markFrame: markFrame, markHost: markHost)
        #expect(renderer.status == .rendering && renderer.error == nil)
        #expect(heard.count == beeps, "beeps heard at \(heard.map { $0 - Double(start) / 1e9 }) s from the start")
        // Stretching cross-fades windows of some tens of milliseconds, which blurs a beep's
        // edges: each is measured by its energy, from 50 ms before its onset to 150 ms after
        // its end. Its middle (the energy's centroid) is heard when the synchronizer's time
        // reaches the middle of the beep; its energy over its power in the 20 ms about the
        // middle is its length, 100 ms / rate within a quarter (the cross-fades add 10–20 %;
        // not stretched it would be 100 ms); the rising zero crossings there give its pitch.
        for (beep, onset) in heard.enumerated() {
            let first = markFrame + Int(((onset - Double(markHost) / 1e9 - 0.05) * 48_000).rounded())
            let frames = first..<min(first + Int((0.3 + 0.1 / rate) * 48_000), samples.count / 2)
            let energy = frames.reduce(0.0) { $0 + Double(samples[$1 * 2] * samples[$1 * 2]) }
            let centroid = frames.reduce(0.0) { $0 + Double($1) * Double(samples[$1 * 2] * samples[$1 * 2]) } / energy
            let middle = Double(markHost) / 1e9 + (centroid - Double(markFrame)) / 48_000
            let due = Double(start) / 1e9 + (Double(beep) + 0.05) / rate
            #expect(abs(middle - due) < 0.04, "beep \(beep) was heard \(Int((middle - due) * 1000)) ms from its time")
            let around = (Int(centroid) - 480)..<(Int(centroid) + 480)
            let power = around.reduce(0.0) { $0 + Double(samples[$1 * 2] * samples[$1 * 2]) } / Double(around.count)
            let length = energy / power / 48_000
            #expect(abs(length - 0.1 / rate) < 0.025 / rate, "beep \(beep) lasted \(Int(length * 1000)) ms")
            let rising = around.dropFirst().filter { samples[($0 - 1) * 2] < 0 && samples[$0 * 2] >= 0 }
            let frequency = Double(rising.count - 1) * 48_000 / Double((rising.last ?? 0) - (rising.first ?? 0))
            #expect(abs(frequency - pitch) < pitch * 0.05, "beep \(beep)'s tone was \(frequency) Hz")
        }
    }

    /// A sound card with a clock of its own: a PulseAudio pipe sink that a thread empties at
    /// `speed` times real time on the host clock, keeping what it reads (48 kHz stereo float).
    final class PipeCard: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var stopped = false
        private var read: [Float] = []

        /// Starts reading the pipe at `path`.
        init(_ path: String, speed: Double) throws {
            let descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { throw FixtureError(message: "cannot open the pipe sink's \(path)") }
            let thread = Thread { [self] in
                let start = HostClock.now
                var frames = 0
                var chunk = [Float](repeating: 0, count: 48_000)
                while !lock.withLock({ stopped }) {
                    let due = Int(Double(HostClock.now - start) / 1e9 * 48_000 * speed)
                    var wanted = min(due - frames, chunk.count / 2)
                    while wanted > 0 {
                        let got = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress!, wanted * 8) }
                        guard got > 0 else { break }
                        lock.withLock { read += chunk[0..<(got / 4)] }
                        frames += got / 8
                        wanted -= got / 8
                    }
                    usleep(2000)
                }
                close(descriptor)
                done.signal()
            }
            thread.start()
        }

        /// Stops reading; what was read, interleaved.
        func stop() -> [Float] {
            lock.withLock { stopped = true }
            done.wait()
            return lock.withLock { read }
        }
    }

    /// The sound device drives the synchronizer, as on Apple platforms: on a card whose clock
    /// runs 1 % fast against the host's, the synchronizer's time moves 1 % faster than the host
    /// clock, and what the card plays has each beep 48,000 of its frames after the one before
    /// (within 1 ms), without the cut that putting the stream back to the host's time would make
    /// (it would drift 10 ms a second).
    @Test func theFirstAudioRenderersSoundCardDrivesTheSynchronizersTime() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let pipe = Fixtures.folder.appendingPathComponent("card-\(UUID().uuidString)").path
        _ = try daemon.pactl(["load-module", "module-pipe-sink", "sink_name=fast_card", "file=\(pipe)", "format=float32le",
                              "rate=48000", "channels=2"])
        let card = try PipeCard(pipe, speed: 1.01)
        let renderer = PulseAudioDiscovery.$server.withValue(daemon.server) { AVSampleBufferAudioRenderer() }
        renderer.audioOutputDeviceUniqueID = "fast_card"
        let synchronizer = AVSampleBufferRenderSynchronizer()
        synchronizer.addRenderer(renderer)
        let reader = try await Self.feed(renderer, codec: "pcm_s16le", from: 0)
        defer { reader.cancelReading() }
        let start = HostClock.now + 300_000_000
        synchronizer.setRate(1, time: .zero, atHostTime: CMTime(value: CMTimeValue(start), timescale: 1_000_000_000))
        // The speed from 1.5 s to 4.5 s of host time (once the stream plays steadily).
        try await Task.sleep(nanoseconds: 300_000_000 + 1_500_000_000)
        let (early, earlyHost) = (synchronizer.currentTime().seconds, HostClock.now)
        try await Task.sleep(nanoseconds: 3_000_000_000)
        let (late, lateHost) = (synchronizer.currentTime().seconds, HostClock.now)
        synchronizer.rate = 0
        let played = card.stop()
        let speed = (late - early) / (Double(lateHost - earlyHost) / 1e9)
        #expect(abs(speed - 1.01) < 0.002, "the synchronizer ran at \(speed) of the host clock")
        var onsets: [Int] = []
        var quiet = 0
        for frame in 0..<(played.count / 2) {
            if abs(played[frame * 2]) > 0.1 {
                if quiet >= 2400 { onsets.append(frame) }
                quiet = 0
            } else {
                quiet += 1
            }
        }
        #expect(onsets.count == 5, "beeps at frames \(onsets)")
        let spacing = zip(onsets, onsets.dropFirst()).map { $1 - $0 }
        #expect(spacing.allSatisfy { abs($0 - 48_000) <= 48 }, "beeps \(spacing) frames apart")
        #expect(renderer.status == .rendering && renderer.error == nil)
    }

    /// The sound ends before the pictures do (1 s of sound, played 2 s): the synchronizer's
    /// time runs on after it, on the host clock, as the device that drove it has nothing more
    /// to play.
    @Test func theSynchronizersTimeRunsOnAfterTheSoundEnds() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let renderer = PulseAudioDiscovery.$server.withValue(daemon.server) { AVSampleBufferAudioRenderer() }
        let synchronizer = AVSampleBufferRenderSynchronizer()
        synchronizer.addRenderer(renderer)
        let asset = AVURLAsset(url: try Self.beeps("pcm_s16le"))
        let reader = try AVAssetReader(asset: asset)
        reader.timeRange = CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 1))
        let output = AVAssetReaderTrackOutput(track: try #require(try await asset.loadTracks(withMediaType: .audio).first), outputSettings: nil)
        reader.add(output)
        #expect(reader.startReading())
        while let buffer = output.copyNextSampleBuffer() { renderer.enqueue(buffer) }
        let start = HostClock.now
        synchronizer.setRate(1, time: .zero, atHostTime: CMTime(value: CMTimeValue(start), timescale: 1_000_000_000))
        try await Task.sleep(nanoseconds: 2_000_000_000)
        let elapsed = Double(HostClock.now - start) / 1e9
        let time = synchronizer.currentTime().seconds
        synchronizer.rate = 0
        #expect(abs(time - elapsed) < 0.03, "at \(time) s after \(elapsed) s of host time")
    }

    @Test func aCodecWithoutADecoderFailsTheRendererUntilAFlush() throws {
        var description = AudioStreamBasicDescription(mSampleRate: 44_100, mFormatID: 0x7A7A_7A7A, mFormatFlags: 0, mBytesPerPacket: 0,
                                                      mFramesPerPacket: 1024, mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0,
                                                      mReserved: 0)
        var format: CMAudioFormatDescription?
        #expect(CMAudioFormatDescriptionCreate(allocator: nil, asbd: &description, layoutSize: 0, layout: nil, magicCookieSize: 0,
                                               magicCookie: nil, extensions: nil, formatDescriptionOut: &format) == noErr)
        let buffer = try CMSampleBuffer(dataBuffer: try CMBlockBuffer(length: 64), formatDescription: format, numSamples: 1,
                                        sampleTimings: [CMSampleTimingInfo(duration: CMTime(value: 1024, timescale: 44_100),
                                                                           presentationTimeStamp: .zero, decodeTimeStamp: .invalid)],
                                        sampleSizes: [64])
        let renderer = AVSampleBufferAudioRenderer()
        renderer.enqueue(buffer)
        #expect(renderer.status == .failed && (renderer.error as? AVError)?.code == .decoderNotFound, "\(String(describing: renderer.error))")
        #expect(!renderer.isReadyForMoreMediaData)
        renderer.flush()
        #expect(renderer.status == .unknown && renderer.error == nil)
    }
}
