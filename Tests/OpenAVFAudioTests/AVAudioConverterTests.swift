import Foundation
import OpenCoreMedia
import Testing
import OpenAVFAudio
import TestSupport

/// AVAudioConverter against ffmpeg's own conversions of the same sound (libswresample through
/// `ffmpeg -af aresample/pan`, and its sample format conversions): every sample.
@Suite(.timeLimit(.minutes(10))) struct AVAudioConverterTests {
    /// 2 s of a stereo sound, a different tone in each channel, at 44.1 kHz, as 32-bit float WAV.
    static func source() throws -> URL {
        try Fixtures.make("converter-source.wav", ["-f", "lavfi", "-i", "aevalsrc=0.6*sin(2*PI*440*t)|0.4*sin(2*PI*1000*t):s=44100:d=2",
                                                   "-c:a", "pcm_f32le"])
    }

    /// ffmpeg's output for `url` through `filter` as interleaved floats.
    static func ffmpeg(_ url: URL, filter: String) throws -> [Float] {
        let data = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-af", filter, "-f", "f32le", "-c:a", "pcm_f32le", "-"])
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// The whole file in its processing format (non-interleaved float).
    static func read(_ url: URL) throws -> AVAudioPCMBuffer {
        let file = try AVAudioFile(forReading: url)
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(file.length)))
        try file.read(into: buffer)
        return buffer
    }

    /// A buffer's valid frames as interleaved floats.
    static func interleaved(_ buffer: AVAudioPCMBuffer) -> [Float] {
        let channels = Int(buffer.format.channelCount), frames = Int(buffer.frameLength)
        guard let data = buffer.floatChannelData else { return [] }
        var samples = [Float](repeating: 0, count: channels * frames)
        for frame in 0..<frames {
            for channel in 0..<channels {
                samples[frame * channels + channel] = buffer.format.isInterleaved ? data[0][frame * channels + channel] : data[channel][frame]
            }
        }
        return samples
    }

    /// The signal-to-noise ratio of `measured` against `reference`, in dB, over the shorter.
    static func snr(_ measured: [Float], _ reference: [Float]) -> Double {
        let count = min(measured.count, reference.count)
        var signal = 0.0, noise = 0.0
        for index in 0..<count {
            signal += Double(reference[index]) * Double(reference[index])
            let difference = Double(measured[index]) - Double(reference[index])
            noise += difference * difference
        }
        return noise == 0 ? .infinity : 10 * log10(signal / noise)
    }

    /// An input block that gives `source` in pieces of `chunk` frames, then ends the stream.
    static func inputBlock(from source: AVAudioPCMBuffer, chunk: Int) -> AVAudioConverterInputBlock {
        var offset = 0
        return { _, inputStatus in
            guard offset < Int(source.frameLength) else {
                inputStatus.pointee = .endOfStream
                return nil
            }
            let count = min(chunk, Int(source.frameLength) - offset)
            let piece = AVAudioPCMBuffer(pcmFormat: source.format, frameCapacity: AVAudioFrameCount(count))!
            for channel in 0..<Int(source.format.channelCount) {
                piece.floatChannelData![channel].update(from: source.floatChannelData![channel] + offset, count: count)
            }
            piece.frameLength = AVAudioFrameCount(count)
            offset += count
            inputStatus.pointee = .haveData
            return piece
        }
    }

    /// Converts `source` through the input block in pieces of `chunk` frames into output
    /// buffers of `outputFrames`, until the end of the stream; the output as interleaved floats.
    static func pull(_ converter: AVAudioConverter, from source: AVAudioPCMBuffer, chunk: Int, outputFrames: Int) throws -> [Float] {
        var result: [Float] = []
        var calls = 0
        let input = inputBlock(from: source, chunk: chunk)
        while calls < 10_000 {
            calls += 1
            let output = try #require(AVAudioPCMBuffer(pcmFormat: converter.outputFormat, frameCapacity: AVAudioFrameCount(outputFrames)))
            var error: NSError?
            let status = converter.convert(to: output, error: &error, withInputFrom: input)
            #expect(error == nil && status != .error, "\(String(describing: error))")
            result += interleaved(output)
            if status == .endOfStream { break }
        }
        return result
    }

    @Test func resamplingFrom44100To48000MatchesFFmpeg() throws {
        let url = try Self.source()
        let source = try Self.read(url)
        let target = try #require(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2))
        let converter = try #require(AVAudioConverter(from: source.format, to: target))
        #expect(converter.sampleRateConverterQuality == AVAudioQuality.high.rawValue)
        // Odd pieces in, odd buffers out: the same stream as one conversion.
        let converted = try Self.pull(converter, from: source, chunk: 999, outputFrames: 1_237)
        // ffmpeg with the converter's filter (64 taps at .high quality).
        let expected = try Self.ffmpeg(url, filter: "aresample=48000:filter_size=64")
        #expect(abs(converted.count - expected.count) <= 2 * 2, "\(converted.count / 2) frames, ffmpeg \(expected.count / 2)")
        let snr = Self.snr(converted, expected)
        #expect(snr >= 90, "SNR \(snr) dB against ffmpeg")
        // 2 s at 48 kHz.
        #expect(abs(converted.count / 2 - 96_000) <= 2)
    }

    @Test func downmixingStereoToMonoMatchesFFmpegsPan() throws {
        let url = try Self.source()
        let source = try Self.read(url)
        let mono = try #require(AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 1))
        let converter = try #require(AVAudioConverter(from: source.format, to: mono))
        converter.downmix = true
        let output = try #require(AVAudioPCMBuffer(pcmFormat: mono, frameCapacity: source.frameLength))
        try converter.convert(to: output, from: source)
        #expect(output.frameLength == source.frameLength)
        let expected = try Self.ffmpeg(url, filter: "pan=mono|c0=0.5*c0+0.5*c1")
        let snr = Self.snr(Self.interleaved(output), expected)
        #expect(snr >= 90, "SNR \(snr) dB against ffmpeg's pan")
        // Without downmix the first channel is taken: the left tone alone.
        let plain = try #require(AVAudioConverter(from: source.format, to: mono))
        #expect(plain.channelMap == [0])
        let left = try #require(AVAudioPCMBuffer(pcmFormat: mono, frameCapacity: source.frameLength))
        try plain.convert(to: left, from: source)
        #expect(Self.snr(Self.interleaved(left), Array(UnsafeBufferPointer(start: source.floatChannelData![0], count: Int(source.frameLength)))) >= 120)
    }

    @Test func sampleFormatsConvertAsFFmpegDoes() throws {
        let url = try Self.source()
        let source = try Self.read(url)
        // Float to interleaved 16-bit integers: ffmpeg's pcm_s16le conversion of the same file, sample for sample.
        let int16 = try #require(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 44_100, channels: 2, interleaved: true))
        let converter = try #require(AVAudioConverter(from: source.format, to: int16))
        let output = try #require(AVAudioPCMBuffer(pcmFormat: int16, frameCapacity: source.frameLength))
        try converter.convert(to: output, from: source)
        let data = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-f", "s16le", "-c:a", "pcm_s16le", "-"])
        let expected = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let produced = Array(UnsafeBufferPointer(start: output.int16ChannelData![0], count: Int(output.frameLength) * 2))
        #expect(produced == expected)
        // And back: every 16-bit value is exact in float.
        let back = try #require(AVAudioConverter(from: int16, to: source.format))
        let floats = try #require(AVAudioPCMBuffer(pcmFormat: source.format, frameCapacity: output.frameLength))
        try back.convert(to: floats, from: output)
        #expect(Self.interleaved(floats) == expected.map { Float($0) / 32_768 })
    }

    @Test func aChannelMapSwapsChannels() throws {
        let source = try Self.read(try Self.source())
        let converter = try #require(AVAudioConverter(from: source.format, to: source.format))
        converter.channelMap = [1, 0]
        let output = try #require(AVAudioPCMBuffer(pcmFormat: source.format, frameCapacity: source.frameLength))
        try converter.convert(to: output, from: source)
        let frames = Int(source.frameLength)
        #expect(Array(UnsafeBufferPointer(start: output.floatChannelData![0], count: frames))
            == Array(UnsafeBufferPointer(start: source.floatChannelData![1], count: frames)))
        #expect(Array(UnsafeBufferPointer(start: output.floatChannelData![1], count: frames))
            == Array(UnsafeBufferPointer(start: source.floatChannelData![0], count: frames)))
    }

    /// No data for now: what could be converted, `.inputRanDry`, and the stream goes on from
    /// there; the end: what the resampler held, then `.endOfStream`, again and again.
    @Test func inputThatRunsDryAndEndsIsReportedAsApplesIs() throws {
        let source = try Self.read(try Self.source())
        let target = try #require(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2))
        let converter = try #require(AVAudioConverter(from: source.format, to: target))
        let output = try #require(AVAudioPCMBuffer(pcmFormat: target, frameCapacity: 100_000))
        var given = false
        var error: NSError?
        let first = converter.convert(to: output, error: &error) { _, status in
            if given {
                status.pointee = .noDataNow
                return nil
            }
            given = true
            status.pointee = .haveData
            return source
        }
        #expect(first == .inputRanDry && output.frameLength > 90_000 && output.frameLength < 96_000, "\(first) \(output.frameLength)")
        var total = Int(output.frameLength)
        let second = converter.convert(to: output, error: &error) { _, status in
            status.pointee = .endOfStream
            return nil
        }
        total += Int(output.frameLength)
        #expect(second == .haveData && abs(total - 96_000) <= 2, "\(second) \(total)")
        let third = converter.convert(to: output, error: &error) { _, status in
            status.pointee = .endOfStream
            return nil
        }
        #expect(third == .endOfStream && output.frameLength == 0)
        // After reset, a new stream.
        converter.reset()
        given = false
        #expect(converter.convert(to: output, error: &error) { _, status in
            if given { status.pointee = .endOfStream; return nil }
            given = true
            status.pointee = .haveData
            return source
        } == .haveData)
        #expect(abs(Int(output.frameLength) - 96_000) <= 2)
    }

    /// The input block may use the converter (it is called while the converter works).
    @Test func theInputBlockMayUseTheConverter() throws {
        let source = try Self.read(try Self.source())
        let converter = try #require(AVAudioConverter(from: source.format, to: source.format))
        let output = try #require(AVAudioPCMBuffer(pcmFormat: source.format, frameCapacity: source.frameLength))
        var error: NSError?
        var given = false
        let status = converter.convert(to: output, error: &error) { _, inputStatus in
            converter.channelMap = [1, 0]
            if given { inputStatus.pointee = .endOfStream; return nil }
            given = true
            inputStatus.pointee = .haveData
            return source
        }
        #expect(status == .haveData && output.frameLength == source.frameLength && converter.channelMap == [1, 0])
    }

    @Test func badInputGivesApplesErrors() throws {
        let source = try Self.read(try Self.source())
        let target = try #require(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2))
        // convert(to:from:) changes no rate.
        let resampler = try #require(AVAudioConverter(from: source.format, to: target))
        let output = try #require(AVAudioPCMBuffer(pcmFormat: target, frameCapacity: 200_000))
        #expect(throws: NSError.self) { try resampler.convert(to: output, from: source) }
        do {
            try resampler.convert(to: output, from: source)
        } catch let error as NSError {
            #expect(error.domain == NSOSStatusErrorDomain && error.code == Int(kAudioConverterErr_OperationNotSupported))
        }
        // An output buffer too small, a buffer of another format.
        let same = try #require(AVAudioConverter(from: source.format, to: source.format))
        let small = try #require(AVAudioPCMBuffer(pcmFormat: source.format, frameCapacity: 10))
        #expect(throws: NSError.self) { try same.convert(to: small, from: source) }
        var error: NSError?
        let wrong = try #require(AVAudioPCMBuffer(pcmFormat: target, frameCapacity: 10))
        #expect(same.convert(to: wrong, error: &error) { _, status in status.pointee = .endOfStream; return nil } == .error)
        #expect(error?.code == Int(kAudio_ParamError))
        error = nil
        #expect(resampler.convert(to: output, error: &error) { _, status in status.pointee = .haveData; return wrong } == .error)
        #expect(error?.code == Int(kAudio_ParamError))
    }
}
