import Foundation
import HostSystem
import Testing
import OpenCoreMedia
import TestSupport
@testable import CaptureDevices

extension RealTimeDeviceTests {
    /// PulseAudio sources against a real daemon the tests start (`PulseAudioDaemon`: a null
    /// sink on a private socket): ffmpeg's tone played into the sink with `paplay` and recorded
    /// from the sink's monitor, checked for frequency, level, duration and host-clock timing.
    @Suite(.timeLimit(.minutes(10))) struct PulseAudioMicrophoneTests {
        @Test func discoveryListsTheNullSinksMonitor() throws {
            let daemon = try PulseAudioDaemon()
            defer { daemon.stop() }
            let microphones = PulseAudioDiscovery.microphones(server: daemon.server)
            let monitor = try #require(microphones.first { $0.uniqueID == daemon.monitorName },
                                       "\(daemon.monitorName) not in \(microphones.map(\.uniqueID))")
            #expect(monitor.localizedName == "Monitor of \(daemon.sinkDescription)")
            #expect(monitor.isMonitor && !monitor.isVirtual && monitor.mediaKind == .audio && monitor.isConnected)
            #expect(monitor.audioFormats == [.float32, .int16].map {
                CaptureAudioFormat(sampleRate: daemon.sampleRate, channelCount: daemon.channelCount, sampleFormat: $0)
            })
            // The same object on every listing, and the registry lists it before the virtual devices.
            #expect(PulseAudioDiscovery.microphones(server: daemon.server).first { $0.uniqueID == daemon.monitorName } === monitor)
            let listed = PulseAudioDiscovery.$server.withValue(daemon.server) { CaptureDeviceRegistry.devices(for: .all) }
            let monitorIndex = try #require(listed.firstIndex { $0.uniqueID == daemon.monitorName })
            #expect(monitorIndex < listed.firstIndex { $0.isVirtual }!)
            let virtualOnly = PulseAudioDiscovery.$server.withValue(daemon.server) { CaptureDeviceRegistry.devices(for: .virtual) }
            #expect(virtualOnly.allSatisfy { $0.isVirtual })

            // A capture source (the server's sine generator) beside the monitor: the default
            // source is listed first, then inputs, then monitors.
            try daemon.pactl(["load-module", "module-sine-source", "source_name=openav_sine", "rate=\(daemon.sampleRate)"])
            try daemon.pactl(["set-default-source", daemon.monitorName])
            #expect(PulseAudioDiscovery.microphones(server: daemon.server).map(\.uniqueID) == [daemon.monitorName, "openav_sine"])
            try daemon.pactl(["set-default-source", "openav_sine"])
            let sine = PulseAudioDiscovery.microphones(server: daemon.server)
            #expect(sine.map(\.uniqueID) == ["openav_sine", daemon.monitorName])
            #expect(sine.first?.isMonitor == false && sine.first?.audioFormats.first?.sampleRate == daemon.sampleRate)

            // Without the server: nothing listed, at once; starting fails with an error.
            daemon.stop()
            let before = HostClock.now
            #expect(PulseAudioDiscovery.microphones(server: daemon.server).isEmpty)
            #expect(HostClock.now - before < PulseAudioDiscovery.timeout)
            #expect(throws: CaptureDeviceError.self) {
                try monitor.start(format: monitor.formats[0], frameDuration: nil) { _ in }
            }
            #expect(!monitor.isRunning)
        }

        @Test(arguments: [CaptureAudioSampleFormat.float32, .int16])
        func capturesTheTonePlayedIntoTheSink(sampleFormat: CaptureAudioSampleFormat) throws {
            try HeavyLoad.exclusively {
                let daemon = try PulseAudioDaemon()
                defer { daemon.stop() }
                let tone = try daemon.toneFile()
                let monitor = try #require(PulseAudioDiscovery.microphones(server: daemon.server)
                    .first { $0.uniqueID == daemon.monitorName })
                let format = CaptureAudioFormat(sampleRate: daemon.sampleRate, channelCount: daemon.channelCount,
                                                sampleFormat: sampleFormat)
                let collector = Collector { AudioRecord($0) }
                try monitor.start(format: .audio(format), frameDuration: nil, handler: collector.handler)
                defer { monitor.stop() }
                collector.wait(for: 10, timeout: 5)
                let launched = HostClock.now
                let paplay = try daemon.play(tone)
                paplay.waitUntilExit()
                #expect(paplay.terminationStatus == 0)
                // A quarter of a second more, counted in delivered buffers.
                let played = collector.records.count
                collector.wait(for: played + 25, timeout: 5)
                monitor.stop()
                let records = collector.records
                #expect(collector.errors.isEmpty)
                try #require(records.count > 200)
                let rate = daemon.sampleRate

                // Buffers: 10 ms, each starting where the previous ended unless drops were reported.
                #expect(records.allSatisfy { $0.sampleCount == rate / 100 && $0.duration == CMTime(value: Int64(rate / 100), timescale: Int32(rate)) })
                #expect(records.allSatisfy { $0.bufferPresentationTime == $0.presentationTime })
                let asbd = try #require(records[0].streamDescription)
                #expect(asbd.mSampleRate == Double(rate) && Int(asbd.mChannelsPerFrame) == daemon.channelCount)
                #expect(Int(asbd.mBitsPerChannel) == sampleFormat.bytesPerSample * 8)
                var discontinuities: [(buffer: Int, samples: Int64)] = []
                for (index, (previous, record)) in zip(records, records.dropFirst()).enumerated() {
                    #expect(record.sequenceNumber == previous.sequenceNumber + 1 + UInt64(record.droppedBefore))
                    let end = previous.presentationTime + previous.duration
                    if record.droppedBefore == 0, record.presentationTime != end {
                        discontinuities.append((index + 1, (record.presentationTime - end).value))
                    }
                }
                // PCMTimeline's one documented correction without a drop: a read measured more
                // than 5 ms before the continued timeline proves its anchor late (a measurement is
                // an upper bound), and the timeline steps back by less than a buffer. A monitor's
                // reads tighten when the sink's block size changes (here when paplay disconnects),
                // so one such step may come. Every other re-anchor must report its drop, and the
                // stamps must never be late (the lag check below).
                let steppedBack = discontinuities.filter { $0.samples < 0 && -$0.samples < Int64(rate / 100) }
                #expect(steppedBack.count <= 1 && discontinuities.count == steppedBack.count,
                        "buffers re-anchored without a drop (index, samples moved): \(discontinuities) of \(records.count)")

                // On the host clock: every buffer was recorded before it arrived, within what the
                // timeline promises (it continues while within `PCMTimeline.maximumDrift` of the
                // measured time, either way), and recently. (Seen: a buffer ending 3.4 ms after it
                // arrived, with the recorder's thread real-time, on a quiet machine.)
                let lags = records.map { Int64($0.arrival) - nanoseconds($0.presentationTime + $0.duration) }.sorted()
                let drift = Int64(PCMTimeline.maximumDrift.seconds * 1e9)
                #expect(lags.first! > -drift, "a buffer ended \(-lags.first!) ns after it arrived")
                #expect(lags[lags.count / 2] < 100_000_000, "median lag \(lags[lags.count / 2]) ns")

                // The tone: found where the samples are loud, its onset timed by the buffers' stamps.
                let threshold = pow(10, PulseAudioDaemon.tonePeakLevel / 20) / 2
                let samples = records.flatMap { $0.channels[0] }
                let onsetIndex = try #require(samples.firstIndex { abs($0) > threshold }, "no tone recorded")
                let endIndex = samples.lastIndex { abs($0) > threshold }!
                func hostTime(ofSample index: Int) -> Int64 {
                    let record = records[index / (rate / 100)]
                    return nanoseconds(record.presentationTime) + Int64(index % (rate / 100)) * 1_000_000_000 / Int64(rate)
                }
                // Not before paplay was launched, give or take what the timeline promises: it keeps
                // counting samples while within `maximumDrift` of the measured time, and a sink's
                // monitor hands on a part of a block when the sink starts a new input (seen: 244
                // frames, 5 ms, with the tone at their start, 9 ms after the launch).
                let onset = hostTime(ofSample: onsetIndex)
                #expect(onset > Int64(launched) - drift && onset < Int64(launched) + 1_000_000_000,
                        "the tone starts \(Double(onset - Int64(launched)) / 1e9) s after paplay was launched")
                // paplay's stream start and drain in the null sink cut a few milliseconds of the tone
                // (4 to 9 here), whatever records the monitor: 20 ms, less than two buffers.
                let duration = Double(hostTime(ofSample: endIndex) - onset) / 1e9
                #expect(abs(duration - Double(PulseAudioDaemon.toneSeconds)) < 0.02, "tone lasts \(duration) s by the stamps")
                if records.allSatisfy({ $0.droppedBefore == 0 }) {
                    // Nothing dropped: the stamps count exactly the samples delivered, but for the one
                    // step back allowed above when it falls inside the tone.
                    let buffer = rate / 100
                    let steps = discontinuities.filter { $0.buffer > onsetIndex / buffer && $0.buffer <= endIndex / buffer }
                    let stepped = steps.reduce(Int64(0)) { $0 + $1.samples } * 1_000_000_000 / Int64(rate)
                    let samplesLength = Int64(endIndex - onsetIndex) * 1_000_000_000 / Int64(rate)
                    #expect(abs(hostTime(ofSample: endIndex) - onset - samplesLength - stepped) <= 2,  // three roundings to ns
                            "stamps \(hostTime(ofSample: endIndex) - onset) ns apart for \(samplesLength) ns of samples, steps \(steps)")
                }

                // Frequency and level of the middle of the tone, on every channel.
                let middle = (onsetIndex + rate / 4)..<(endIndex - rate / 4)
                for channel in 0..<daemon.channelCount {
                    let signal = records.flatMap { $0.channels[channel] }[middle]
                    let hertz = frequency(signal, rate: rate)
                    #expect(abs(hertz - Double(PulseAudioDaemon.toneFrequency)) < 0.5, "channel \(channel): \(hertz) Hz")
                    let rms = (signal.reduce(0) { $0 + $1 * $1 } / Double(signal.count)).squareRoot()
                    let level = 20 * log10(rms)
                    #expect(abs(level - (PulseAudioDaemon.tonePeakLevel - 3.0103)) < 1, "channel \(channel): \(level) dBFS")
                }
            }
        }

        /// A consumer that stalls the device thread for half a second (the handler blocks) loses
        /// nothing: the server queues what the source records meanwhile, and the backlog, read in a
        /// burst afterwards, continues the timeline, with no drop reported. (Before the gap rule
        /// counted host time too, the burst's late measurements were taken for a gap: the timeline
        /// jumped half a second ahead, with 50 buffers reported dropped.) Only the design's
        /// sub-buffer latency corrections may move it (`PCMTimeline.maximumDrift`).
        @Test func aStalledConsumerCatchesUpWithoutGapsOrDrops() throws {
            try HeavyLoad.exclusively {
                let daemon = try PulseAudioDaemon()
                defer { daemon.stop() }
                try daemon.pactl(["load-module", "module-sine-source", "source_name=openav_sine", "rate=\(daemon.sampleRate)",
                                  "frequency=\(PulseAudioDaemon.toneFrequency)"])
                let sine = try #require(PulseAudioDiscovery.microphones(server: daemon.server).first { $0.uniqueID == "openav_sine" })
                let stalled = NSLock()
                nonisolated(unsafe) var stalls = 0
                let collector = Collector { sample -> AudioRecord in
                    if sample.sequenceNumber >= 50, stalled.withLock({ stalls += 1; return stalls == 1 }) {
                        Thread.sleep(forTimeInterval: 0.5)  // a duration: the consumer stalls once, on the device thread
                    }
                    return AudioRecord(sample)
                }
                let format = try #require(sine.formats.first)
                try sine.start(format: format, frameDuration: nil, handler: collector.handler)
                defer { sine.stop() }
                let records = collector.wait(for: 200, timeout: 10)
                sine.stop()
                try #require(records.count >= 200)
                #expect(records.allSatisfy { $0.droppedBefore == 0 }, "drops reported: \(records.map(\.droppedBefore).filter { $0 > 0 })")
                var jumps: [(buffer: Int, samples: Int64)] = []
                for (index, (previous, record)) in zip(records, records.dropFirst()).enumerated() {
                    let end = previous.presentationTime + previous.duration
                    if record.presentationTime != end { jumps.append((index + 1, (record.presentationTime - end).value)) }
                }
                #expect(jumps.allSatisfy { abs($0.samples) < Int64(daemon.sampleRate / 100) }, "re-anchored (index, samples moved): \(jumps)")
                // The sine source's samples ran on without a break: one frequency across the stall.
                let samples = records.flatMap { $0.channels[0] }
                let hertz = frequency(samples[...], rate: daemon.sampleRate)
                #expect(abs(hertz - Double(PulseAudioDaemon.toneFrequency)) < 0.5, "\(hertz) Hz")
            }
        }

        @Test func aServerGoingAwayEndsTheCaptureOnce() throws {
            let daemon = try PulseAudioDaemon()
            defer { daemon.stop() }
            let monitor = try #require(PulseAudioDiscovery.microphones(server: daemon.server)
                .first { $0.uniqueID == daemon.monitorName })
            let collector = Collector { $0.sequenceNumber }
            try monitor.start(format: monitor.formats[0], frameDuration: nil, handler: collector.handler)
            defer { monitor.stop() }
            try #require(collector.wait(for: 10, timeout: 5).count >= 10)
            daemon.stop()
            let deadline = Date().addingTimeInterval(5)
            while collector.errors.isEmpty, Date() < deadline { collector.wait(timeout: 0.1) { _ in false } }
            #expect(collector.errors.map(\.reason) == [.disconnected])
            #expect(!monitor.isRunning && !monitor.isConnected)
            let delivered = collector.records.count
            collector.wait(timeout: 0.2) { _ in false }
            #expect(collector.records.count == delivered && collector.errors.count == 1)
        }
    }
}
