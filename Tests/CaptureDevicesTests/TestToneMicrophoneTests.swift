import Foundation
import HostSystem
import Testing
import OpenCoreMedia
@testable import CaptureDevices

/// What the tests keep of one audio buffer.
struct AudioRecord: Sendable {
    var presentationTime: CMTime
    var duration: CMTime
    var sequenceNumber: UInt64
    var droppedBefore: Int
    var arrival: UInt64
    var sampleCount: Int
    var bufferPresentationTime: CMTime
    /// `CMSampleBufferGetDuration`: all the samples' duration.
    var sampleDuration: CMTime
    var streamDescription: AudioStreamBasicDescription?
    /// Per channel, the samples as fractions of full scale.
    var channels: [[Double]]

    init(_ sample: CaptureSample) {
        let buffer = sample.sampleBuffer!
        presentationTime = sample.presentationTime
        duration = sample.duration
        sequenceNumber = sample.sequenceNumber
        droppedBefore = sample.droppedBefore
        arrival = HostClock.now
        sampleCount = CMSampleBufferGetNumSamples(buffer)
        bufferPresentationTime = CMSampleBufferGetPresentationTimeStamp(buffer)
        sampleDuration = CMSampleBufferGetDuration(buffer)
        let description = CMSampleBufferGetFormatDescription(buffer)
        let asbd = description.flatMap { CMAudioFormatDescriptionGetStreamBasicDescription($0)?.pointee }
        streamDescription = asbd
        let channelCount = Int(asbd?.mChannelsPerFrame ?? 1)
        let isFloat = (asbd?.mFormatFlags ?? 0) & kAudioFormatFlagIsFloat != 0
        let data = CMSampleBufferGetDataBuffer(buffer)!
        let length = CMBlockBufferGetDataLength(data)
        var bytes = [UInt8](repeating: 0, count: length)
        CMBlockBufferCopyDataBytes(data, atOffset: 0, dataLength: length, destination: &bytes)
        channels = Array(repeating: [], count: channelCount)
        bytes.withUnsafeBytes { raw in
            for frame in 0..<sampleCount {
                for channel in 0..<channelCount {
                    let index = frame * channelCount + channel
                    channels[channel].append(isFloat
                        ? Double(raw.load(fromByteOffset: index * 4, as: Float.self))
                        : asbd?.mBitsPerChannel == 32
                        ? Double(raw.load(fromByteOffset: index * 4, as: Int32.self)) / 2_147_483_647
                        : Double(raw.load(fromByteOffset: index * 2, as: Int16.self)) / 32767)
                }
            }
        }
    }
}

/// Times (in samples, fractional) of the upward zero crossings of `signal`, linearly interpolated.
func risingZeroCrossings(_ signal: ArraySlice<Double>) -> [Double] {
    var crossings: [Double] = []
    var index = signal.startIndex
    while index + 1 < signal.endIndex {
        let (a, b) = (signal[index], signal[index + 1])
        if a < 0 && b >= 0 { crossings.append(Double(index) + a / (a - b)) }
        index += 1
    }
    return crossings
}

/// The frequency of a periodic signal from its rising zero crossings.
func frequency(_ signal: ArraySlice<Double>, rate: Int) -> Double {
    let crossings = risingZeroCrossings(signal)
    guard crossings.count >= 2 else { return 0 }
    return Double(crossings.count - 1) / ((crossings.last! - crossings.first!) / Double(rate))
}

extension RealTimeDeviceTests {
    @Suite(.timeLimit(.minutes(10))) struct TestToneMicrophoneTests {
        let microphone = TestToneMicrophone()

        @Test func offersTheFormatMatrix() {
            let formats = microphone.audioFormats
            #expect(formats.count == 8)
            #expect(Set(formats.map(\.sampleRate)) == [48_000, 44_100])
            #expect(Set(formats.map(\.channelCount)) == [1, 2])
            #expect(Set(formats.map(\.sampleFormat)) == [.float32, .int16])
            #expect(microphone.mediaKind == .audio && microphone.isVirtual)
        }

        @Test func rejectsWhatItCannotDo() throws {
            let collector = Collector { AudioRecord($0) }
            do {
                try microphone.start(format: .audio(CaptureAudioFormat(sampleRate: 96_000, channelCount: 2, sampleFormat: .float32)),
                                     frameDuration: nil, handler: collector.handler)
                Issue.record("96 kHz was accepted")
            } catch {
                #expect(error.reason == .unsupportedFormat)
            }
            do {
                try microphone.start(format: microphone.formats[0], frameDuration: CMTime(value: 2, timescale: 1),
                                     handler: collector.handler)
                Issue.record("2 s buffers were accepted")
            } catch {
                #expect(error.reason == .unsupportedFrameDuration)
            }
        }

        @Test(arguments: [CaptureAudioFormat(sampleRate: 48_000, channelCount: 2, sampleFormat: .float32),
                          CaptureAudioFormat(sampleRate: 44_100, channelCount: 1, sampleFormat: .int16)])
        func continuousToneWithABeepOnEveryWholeSecond(format: CaptureAudioFormat) throws {
            let rate = format.sampleRate
            let perBuffer = rate / 100
            let collector = Collector { AudioRecord($0) }
            try microphone.start(format: .audio(format), frameDuration: nil, handler: collector.handler)
            let count = 115  // 1.15 s: a whole second with at least 0.15 s after it
            let buffers = Array(collector.wait(for: count, timeout: 5).prefix(count))
            microphone.stop()
            try #require(buffers.count == count)

            // Buffers: 10 ms each, consecutive, the sample buffer's timing the sample's.
            let asbd = try #require(buffers[0].streamDescription)
            #expect(asbd.mSampleRate == Double(rate) && Int(asbd.mChannelsPerFrame) == format.channelCount)
            #expect(Int(asbd.mBitsPerChannel) == format.sampleFormat.bytesPerSample * 8)
            #expect(buffers.map(\.sequenceNumber) == Array(0..<UInt64(count)))
            #expect(buffers.allSatisfy { $0.droppedBefore == 0 && $0.sampleCount == perBuffer })
            #expect(buffers.allSatisfy { $0.duration == CMTime(value: CMTimeValue(perBuffer), timescale: CMTimeScale(rate)) })
            #expect(buffers.allSatisfy { $0.bufferPresentationTime == $0.presentationTime })
            #expect(buffers.allSatisfy { $0.sampleDuration == $0.duration })
            for (previous, next) in zip(buffers, buffers.dropFirst()) {
                #expect(next.presentationTime == previous.presentationTime + previous.duration, "continuous")
            }
            // Real time: a buffer comes after its last sample's time, promptly.
            let lateness = buffers.map { Int64($0.arrival) - nanoseconds($0.presentationTime + $0.duration) }
            #expect(lateness.allSatisfy { $0 >= 0 })
            #expect(lateness.sorted()[count / 2] < 10_000_000)

            // One signal, indexed by absolute sample number (host time × rate).
            let firstSample = CMTimeConvertScale(buffers[0].presentationTime, timescale: CMTimeScale(rate), method: .default).value
            #expect(CMTime(value: firstSample, timescale: CMTimeScale(rate)) == buffers[0].presentationTime)
            let signal = buffers.flatMap { $0.channels[0] }
            if format.channelCount == 2 { #expect(buffers.allSatisfy { $0.channels[0] == $0.channels[1] }) }
            let quantum = format.sampleFormat == .int16 ? 1.0 / 32767 : 1e-6

            // The whole second inside the capture, as an index into `signal`.
            let second = (firstSample + Int64(rate) - 1) / Int64(rate) * Int64(rate)
            let boundary = Int(second - firstSample)
            try #require(boundary + rate / 10 < signal.count)
            let beepLength = rate / 20

            // The beep starts on the whole-second sample (±1) and lasts 50 ms.
            let loud = signal.indices.filter { abs(signal[$0]) > 0.3 }
            let firstLoud = try #require(loud.first { $0 >= boundary - rate / 10 })
            #expect(abs(firstLoud - boundary) <= 1, "beep starts \(firstLoud - boundary) samples from the second")
            let lastLoud = try #require(loud.last { $0 < boundary + rate / 10 })
            #expect(lastLoud < boundary + beepLength && lastLoud >= boundary + beepLength - rate / 1000)
            let beepFrequency = frequency(signal[boundary..<(boundary + beepLength)], rate: rate)
            #expect(abs(beepFrequency - 1000) < 25, "beep at \(beepFrequency) Hz")

            // Outside the beep, the steady tone: 440 Hz at amplitude 0.1.
            let toneStart = boundary + beepLength + rate / 200
            let tone = signal[toneStart..<min(signal.count, boundary + rate)]  // before any next beep
            let toneFrequency = frequency(tone, rate: rate)
            #expect(abs(toneFrequency - 440) < 0.5, "tone at \(toneFrequency) Hz")
            #expect(abs(tone.map(abs).max()! - 0.1) < 0.001 + quantum)
            // Before the second, after the previous second's beep if the capture began inside it.
            let beforeStart = max(0, boundary - rate + beepLength + rate / 200)
            if boundary - beforeStart > rate / 20 {
                let before = signal[beforeStart..<boundary]
                #expect(abs(frequency(before, rate: rate) - 440) < 1)
                #expect(before.map(abs).max()! < 0.1 + quantum + 1e-6)
            }
            // Continuity across buffer edges: no step larger than the tone's largest.
            let largestStep = 2 * Double.pi * 440 / Double(rate) * 0.1 + 2 * quantum
            func inBeep(_ index: Int) -> Bool { (firstSample + Int64(index)) % Int64(rate) <= Int64(beepLength) }
            for edge in stride(from: perBuffer, to: signal.count, by: perBuffer) where !inBeep(edge) && !inBeep(edge - 1) {
                #expect(abs(signal[edge] - signal[edge - 1]) <= largestStep, "jump at sample \(edge)")
            }
        }

        @Test func stopReallyStops() throws {
            let collector = Collector { AudioRecord($0) }
            try microphone.start(format: microphone.formats[0], frameDuration: nil, handler: collector.handler)
            collector.wait(for: 5, timeout: 5)
            microphone.stop()
            #expect(!microphone.isRunning)
            let countAtStop = collector.records.count
            // Proving that nothing more comes needs a duration, not an event: 15 buffer durations.
            Thread.sleep(forTimeInterval: 0.15)
            #expect(collector.records.count == countAtStop)
        }
    }
}
