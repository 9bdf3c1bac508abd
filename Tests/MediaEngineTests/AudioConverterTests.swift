import CFFmpeg
import Foundation
import Testing
import TestSupport
import TestSupport
import OpenCoreMedia
@testable import MediaEngine

/// Decoded audio converted to linear PCM sample buffers, checked against `ffmpeg`'s own
/// conversion of the same file (same decoder, same libswresample defaults).
@Suite(.timeLimit(.minutes(10))) struct AudioConverterTests {
    /// Decodes stream `index` of `url` and converts every frame, then flushes.
    static func convertAll(_ url: URL, stream index: Int, to format: PCMFormat,
                           converter: AudioConverter? = nil, flush: Bool = true) throws -> [CMSampleBuffer] {
        let demuxer = try Demuxer(url: url)
        let decoder = try demuxer.makeDecoder(forStream: index)
        let timeBase = demuxer.timeBase(ofStream: index)
        let converter = converter ?? AudioConverter(output: format)
        var buffers: [CMSampleBuffer] = []
        func drain() throws {
            while let frame = try decoder.receiveFrame() {
                if let buffer = try converter.convert(frame, timeBase: timeBase) { buffers.append(buffer) }
            }
        }
        while let packet = try demuxer.readPacket() {
            guard packet.streamIndex == index else { continue }
            while try !decoder.send(packet) { try drain() }
            try drain()
        }
        _ = try decoder.send(nil)
        try drain()
        if flush, let last = try converter.flush() { buffers.append(last) }
        return buffers
    }

    /// The bytes of every buffer, concatenated.
    static func bytes(_ buffers: [CMSampleBuffer]) throws -> Data {
        var data = Data()
        for buffer in buffers {
            let block = try #require(buffer.dataBuffer)
            data += try block.withUnsafeMutableBytes { Data($0) }
        }
        return data
    }

    /// Little-endian 16-bit samples.
    static func int16s(_ data: Data) -> [Int16] {
        data.withUnsafeBytes { raw in (0..<(raw.count / 2)).map { Int16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * $0, as: Int16.self)) } }
    }

    /// Native 32-bit float samples.
    static func floats(_ data: Data) -> [Float] {
        data.withUnsafeBytes { raw in (0..<(raw.count / 4)).map { raw.loadUnaligned(fromByteOffset: 4 * $0, as: Float.self) } }
    }

    /// Pearson correlation of two equally long series.
    static func correlation(_ a: [Double], _ b: [Double]) -> Double {
        let n = Double(a.count)
        let meanA = a.reduce(0, +) / n, meanB = b.reduce(0, +) / n
        var cov = 0.0, varA = 0.0, varB = 0.0
        for (x, y) in zip(a, b) {
            cov += (x - meanA) * (y - meanB)
            varA += (x - meanA) * (x - meanA)
            varB += (y - meanB) * (y - meanB)
        }
        return cov / (varA * varB).squareRoot()
    }

    /// A 1 s stereo AAC file: 440 Hz on the left, a quieter 1 kHz on the right.
    static func stereoTones() throws -> URL {
        try Fixtures.make("tones-lr.m4a", ["-f", "lavfi", "-i",
                                           "aevalsrc=0.8*sin(440*2*PI*t)|0.4*sin(1000*2*PI*t):s=48000:d=1",
                                           "-c:a", "aac", "-b:a", "192k"])
    }

    /// Timestamps are exact and continuous: buffer n starts where buffer n-1 ended, every
    /// sample lasts 1/rate, and the first starts at the first frame's time.
    static func expectContinuous(_ buffers: [CMSampleBuffer], rate: Int32, start: CMTime) throws {
        var expected = start
        for buffer in buffers {
            #expect(buffer.presentationTimeStamp == expected)
            #expect(buffer.presentationTimeStamp.timescale == rate)
            let timing = try buffer.sampleTimingInfos()
            #expect(timing.count == 1)
            #expect(timing.first?.duration == CMTime(value: 1, timescale: rate))
            #expect(buffer.duration == CMTime(value: Int64(buffer.numSamples), timescale: rate))
            expected = CMTimeAdd(expected, CMTime(value: Int64(buffer.numSamples), timescale: rate))
        }
    }

    @Test func downmixesAndResamplesAACLikeFFmpeg() throws {
        let url = try Fixtures.h264AAC()
        let format = PCMFormat(sampleRate: 44_100, channelCount: 1, bitsPerChannel: 16)
        let buffers = try Self.convertAll(url, stream: 1, to: format)
        let ours = Self.int16s(try Self.bytes(buffers))
        let theirs = Self.int16s(try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-map", "0:a",
                                                             "-ac", "1", "-ar", "44100", "-f", "s16le", "-"]))
        // 94 AAC frames of 1024 samples at 48 kHz = 96256 samples; at 44.1 kHz that is
        // 88435.2, which libswresample rounds up once drained, as ffmpeg does.
        #expect(theirs.count == 88_436)
        #expect(ours.count == theirs.count)
        #expect(buffers.reduce(0) { $0 + $1.numSamples } == ours.count)
        let n = min(ours.count, theirs.count)
        let r = Self.correlation(ours.prefix(n).map(Double.init), theirs.prefix(n).map(Double.init))
        #expect(r > 0.999, "correlation \(r)")
        let rms = (zip(ours, theirs).map { Double($0) - Double($1) }.map { $0 * $0 }.reduce(0, +) / Double(n)).squareRoot()
        #expect(rms < 2, "RMS difference \(rms) of 16-bit samples")

        let description = try #require(buffers.first?.formatDescription)
        #expect(description.mediaType == .audio)
        #expect(CMFormatDescriptionGetMediaSubType(description) == kAudioFormatLinearPCM)
        let asbd = try #require(description.audioStreamBasicDescription)
        #expect(asbd == AudioStreamBasicDescription(
            mSampleRate: 44_100, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
            mBytesPerPacket: 2, mFramesPerPacket: 1, mBytesPerFrame: 2, mChannelsPerFrame: 1,
            mBitsPerChannel: 16, mReserved: 0))
        #expect(description.audioChannelLayout?.mChannelLayoutTag == kAudioChannelLayoutTag_Mono)
        // One format description for the whole stream.
        #expect(buffers.allSatisfy { $0.formatDescription === description })
        try Self.expectContinuous(buffers, rate: 44_100, start: CMTime(value: 0, timescale: 44_100))
    }

    @Test func float32NonInterleavedIsPlanarAndExact() throws {
        let url = try Self.stereoTones()
        let format = PCMFormat(sampleRate: 48_000, channelCount: 2, bitsPerChannel: 32, isFloat: true,
                               isNonInterleaved: true)
        let buffers = try Self.convertAll(url, stream: 0, to: format)
        let interleaved = Self.floats(try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path,
                                                                  "-f", "f32le", "-"]))
        let left = stride(from: 0, to: interleaved.count, by: 2).map { interleaved[$0] }
        let right = stride(from: 1, to: interleaved.count, by: 2).map { interleaved[$0] }
        var ourLeft: [Float] = [], ourRight: [Float] = []
        for buffer in buffers {
            let samples = Self.floats(try Self.bytes([buffer]))
            let count = buffer.numSamples
            #expect(samples.count == 2 * count)
            ourLeft += samples[0..<count]
            ourRight += samples[count..<(2 * count)]
            #expect(buffer.totalSampleSize == 8 * count)
        }
        // No rate change: the samples are the decoder's, bit for bit.
        let sameLeft = ourLeft == left, sameRight = ourRight == right
        #expect(sameLeft && ourLeft.count == 48_128, "left: \(ourLeft.count) samples")
        #expect(sameRight, "right channel differs")
        let asbd = try #require(buffers.first?.formatDescription?.audioStreamBasicDescription)
        #expect(asbd.mFormatFlags == kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved)
        #expect(asbd.mBytesPerFrame == 4 && asbd.mBytesPerPacket == 4 && asbd.mChannelsPerFrame == 2)
        #expect(asbd.mBitsPerChannel == 32)
    }

    @Test func aSineKeepsItsFrequencyThroughResampling() throws {
        let url = try Self.stereoTones()
        for rate in [22_050.0, 44_100.0, 96_000.0] {
            let format = PCMFormat(sampleRate: rate, channelCount: 2, bitsPerChannel: 16)
            let samples = Self.int16s(try Self.bytes(try Self.convertAll(url, stream: 0, to: format)))
            let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
            let right = stride(from: 1, to: samples.count, by: 2).map { samples[$0] }
            // Count sign changes over the steady middle 0.5 s (away from the codec's edges).
            func crossings(_ channel: [Int16]) -> Int {
                let middle = channel[Int(rate * 0.25)..<Int(rate * 0.75)]
                return zip(middle, middle.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
            }
            #expect(abs(crossings(left) - 440) <= 2, "left at \(rate) Hz: \(crossings(left)) crossings")
            #expect(abs(crossings(right) - 1000) <= 2, "right at \(rate) Hz: \(crossings(right)) crossings")
        }
    }

    @Test func timestampsFollowTheFirstFrameAtTheOutputRate() throws {
        // A stream that starts at 0.5 s: the first output sample is at 0.5 s exactly.
        let url = try Fixtures.make("late-start.mkv", ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=1",
                                                        "-output_ts_offset", "0.5", "-c:a", "pcm_s16le"])
        let demuxer = try Demuxer(url: url)
        let decoder = try demuxer.makeDecoder(forStream: 0)
        let timeBase = demuxer.timeBase(ofStream: 0)
        let converter = AudioConverter(output: PCMFormat(sampleRate: 32_000, channelCount: 1))
        var buffers: [CMSampleBuffer] = []
        var firstFrameTime: CMTime?
        while let packet = try demuxer.readPacket() {
            _ = try decoder.send(packet)
            while let frame = try decoder.receiveFrame() {
                if firstFrameTime == nil { firstFrameTime = CMTime(ffmpegTimestamp: frame.pointer.pointee.pts, timeBase: timeBase) }
                if let buffer = try converter.convert(frame, timeBase: timeBase) { buffers.append(buffer) }
            }
        }
        if let last = try converter.flush() { buffers.append(last) }
        #expect(firstFrameTime == CMTime(value: 500, timescale: 1000))
        try Self.expectContinuous(buffers, rate: 32_000, start: CMTime(value: 16_000, timescale: 32_000))
        #expect(buffers.reduce(0) { $0 + $1.numSamples } == 32_000)
        // A second flush has nothing left.
        #expect(try converter.flush() == nil)
    }

    @Test func integerDepthsAndBigEndianMatchFFmpegsEncoders() throws {
        let url = try Self.stereoTones()
        let cases: [(PCMFormat, String)] = [
            (PCMFormat(sampleRate: 48_000, channelCount: 2, bitsPerChannel: 8), "s8"),
            (PCMFormat(sampleRate: 48_000, channelCount: 2, bitsPerChannel: 16, isBigEndian: true), "s16be"),
            (PCMFormat(sampleRate: 48_000, channelCount: 2, bitsPerChannel: 24), "s24le"),
            (PCMFormat(sampleRate: 48_000, channelCount: 2, bitsPerChannel: 24, isBigEndian: true), "s24be"),
            (PCMFormat(sampleRate: 48_000, channelCount: 2, bitsPerChannel: 32, isBigEndian: true), "s32be"),
            (PCMFormat(sampleRate: 48_000, channelCount: 2, bitsPerChannel: 64, isFloat: true, isBigEndian: true), "f64be"),
        ]
        for (format, muxer) in cases {
            let ours = try Self.bytes(try Self.convertAll(url, stream: 0, to: format))
            let theirs = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-f", muxer, "-"])
            #expect(ours.count == theirs.count, "\(muxer)")
            // Compared as one Bool: a failing diff of megabytes would take minutes to print.
            let same = ours == theirs
            #expect(same, "\(muxer) samples differ")
            let asbd = format.audioStreamBasicDescription
            #expect(Int(asbd.mBytesPerFrame) == format.bitsPerChannel / 8 * 2)
            #expect((asbd.mFormatFlags & kAudioFormatFlagIsBigEndian != 0) == format.isBigEndian)
        }
    }

    @Test func aChangeOfInputFormatRebuildsTheResamplerWithoutLosingSamples() throws {
        // 1 s at 48 kHz, then (same converter, no reset) 1 s at 44.1 kHz, both to 32 kHz.
        let first = try Self.stereoTones()
        let second = try Fixtures.make("tone-44k.m4a", ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=1",
                                                        "-ac", "2", "-c:a", "aac"])
        let format = PCMFormat(sampleRate: 32_000, channelCount: 2)
        let converter = AudioConverter(output: format)
        let a = try Self.convertAll(first, stream: 0, to: format, converter: converter, flush: false)
        let b = try Self.convertAll(second, stream: 0, to: format, converter: converter)
        let countA = Self.int16s(try Self.bytes(try Self.convertAll(first, stream: 0, to: format))).count / 2
        let countB = Self.int16s(try Self.bytes(try Self.convertAll(second, stream: 0, to: format))).count / 2
        #expect((a + b).reduce(0) { $0 + $1.numSamples } == countA + countB)
        try Self.expectContinuous(a + b, rate: 32_000, start: CMTime(value: 0, timescale: 32_000))
    }

    @Test func formatsFFmpegCannotProduceAreRejected() throws {
        #expect(throws: EngineError.self) { try PCMFormat(sampleRate: 48_000, channelCount: 2, bitsPerChannel: 16, isFloat: true).avSampleFormat }
        #expect(throws: EngineError.self) { try PCMFormat(sampleRate: 44_100.5, channelCount: 2).validate() }
        #expect(throws: EngineError.self) { try PCMFormat(sampleRate: 48_000, channelCount: 0).validate() }
        #expect(throws: EngineError.self) { try PCMFormat(sampleRate: 48_000, channelCount: 2, bitsPerChannel: 12).validate() }
        #expect(try PCMFormat(sampleRate: 48_000, channelCount: 2, bitsPerChannel: 24, isNonInterleaved: true).avSampleFormat == AV_SAMPLE_FMT_S32P)
        #expect(try PCMFormat(sampleRate: 48_000, channelCount: 2, bitsPerChannel: 8).avSampleFormat == AV_SAMPLE_FMT_U8)

        let url = try Self.stereoTones()
        #expect(throws: EngineError.self) {
            _ = try Self.convertAll(url, stream: 0, to: PCMFormat(sampleRate: 48_000, channelCount: 2, bitsPerChannel: 20))
        }
    }
}
