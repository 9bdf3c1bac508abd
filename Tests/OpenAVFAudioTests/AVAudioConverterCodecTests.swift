import Foundation
import OpenCoreMedia
import Testing
import OpenAVFAudio
import TestSupport

/// AVAudioConverter encoding and decoding, against ffmpeg: AAC packets it encodes are wrapped in
/// ADTS headers here and decoded by the `ffmpeg` CLI; an ADTS file the `ffmpeg` CLI encodes is
/// split into packets here and decoded through the converter, against ffmpeg's own decode.
@Suite(.timeLimit(.minutes(10))) struct AVAudioConverterCodecTests {
    /// The MPEG-4 sampling frequency indexes of ADTS and the AudioSpecificConfig.
    static let frequencies: [Double] = [96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8_000]

    /// `seconds` of a sine of `frequency` Hz at amplitude `amplitude` in every channel, as a
    /// standard (non-interleaved float) buffer.
    static func tone(frequency: Double, amplitude: Float, rate: Double, channels: AVAudioChannelCount, seconds: Double) throws -> AVAudioPCMBuffer {
        let format = try #require(AVAudioFormat(standardFormatWithSampleRate: rate, channels: channels))
        let frames = AVAudioFrameCount(rate * seconds)
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: frames))
        buffer.frameLength = frames
        for channel in 0..<Int(channels) {
            for frame in 0..<Int(frames) {
                buffer.floatChannelData![channel][frame] = amplitude * Float(sin(2 * Double.pi * frequency * Double(frame) / rate))
            }
        }
        return buffer
    }

    /// Encodes `source` in pieces of `chunk` frames into buffers of `packets` packets, until the
    /// end of the stream: the packets' bytes, and the statuses returned.
    static func encode(_ converter: AVAudioConverter, _ source: AVAudioPCMBuffer, chunk: Int, packets: AVAudioPacketCount) throws
        -> (packets: [Data], statuses: [AVAudioConverterOutputStatus]) {
        var result: [Data] = []
        var statuses: [AVAudioConverterOutputStatus] = []
        let input = AVAudioConverterTests.inputBlock(from: source, chunk: chunk)
        while statuses.last != .endOfStream, statuses.count < 10_000 {
            let output = AVAudioCompressedBuffer(format: converter.outputFormat, packetCapacity: packets,
                                                 maximumPacketSize: converter.maximumOutputPacketSize)
            var error: NSError?
            let status = converter.convert(to: output, error: &error, withInputFrom: input)
            #expect(status != .error, "\(String(describing: error))")
            if status == .error { break }
            statuses.append(status)
            let descriptions = try #require(output.packetDescriptions)
            var end = 0
            for index in 0..<Int(output.packetCount) {
                let description = descriptions[index]
                #expect(Int(description.mStartOffset) == end)
                end = Int(description.mStartOffset) + Int(description.mDataByteSize)
                result.append(Data(bytes: output.data + Int(description.mStartOffset), count: Int(description.mDataByteSize)))
            }
            #expect(end == Int(output.byteLength))
        }
        return (result, statuses)
    }

    /// An ADTS file of AAC-LC packets.
    static func adts(_ packets: [Data], rate: Double, channels: Int) throws -> URL {
        let index = try #require(frequencies.firstIndex(of: rate))
        var file = Data()
        for packet in packets {
            let length = packet.count + 7
            file.append(contentsOf: [0xFF, 0xF1, UInt8(1 << 6 | index << 2 | channels >> 2), UInt8((channels & 3) << 6 | length >> 11),
                                     UInt8((length >> 3) & 0xFF), UInt8((length & 7) << 5 | 0x1F), 0xFC])
            file.append(packet)
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("converter-\(UUID().uuidString).aac")
        try file.write(to: url)
        return url
    }

    /// The packets of an ADTS file, with its rate, channel count and AudioSpecificConfig.
    static func packets(ofADTS url: URL) throws -> (packets: [Data], rate: Double, channels: Int, cookie: Data) {
        let bytes = [UInt8](try Data(contentsOf: url))
        var packets: [Data] = []
        var offset = 0
        var rateIndex = 0, channels = 0, objectType = 2
        while offset + 7 <= bytes.count {
            try #require(bytes[offset] == 0xFF && bytes[offset + 1] & 0xF0 == 0xF0)
            let header = bytes[offset + 1] & 1 == 1 ? 7 : 9
            objectType = Int(bytes[offset + 2] >> 6) + 1
            rateIndex = Int(bytes[offset + 2] >> 2) & 0xF
            channels = Int(bytes[offset + 2] & 1) << 2 | Int(bytes[offset + 3] >> 6)
            let length = Int(bytes[offset + 3] & 3) << 11 | Int(bytes[offset + 4]) << 3 | Int(bytes[offset + 5] >> 5)
            packets.append(Data(bytes[(offset + header)..<(offset + length)]))
            offset += length
        }
        let config = UInt16(objectType) << 11 | UInt16(rateIndex) << 7 | UInt16(channels) << 3
        return (packets, frequencies[rateIndex], channels, Data([UInt8(config >> 8), UInt8(config & 0xFF)]))
    }

    /// The AAC format of a stream of `rate` and `channels`.
    static func aacFormat(rate: Double, channels: Int, cookie: Data?) throws -> AVAudioFormat {
        var description = AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatMPEG4AAC, mFormatFlags: 0, mBytesPerPacket: 0,
                                                      mFramesPerPacket: 1024, mBytesPerFrame: 0, mChannelsPerFrame: UInt32(channels),
                                                      mBitsPerChannel: 0, mReserved: 0)
        let format = try #require(AVAudioFormat(streamDescription: &description))
        format.magicCookie = cookie
        return format
    }

    /// Decodes `packets` of `format` through `converter` into buffers of `frames` frames, handing
    /// the block `perBuffer` packets at a time, until the end of the stream: interleaved floats.
    static func decode(_ converter: AVAudioConverter, _ packets: [Data], perBuffer: Int, frames: AVAudioFrameCount) throws -> [Float] {
        var next = 0
        var result: [Float] = []
        var status = AVAudioConverterOutputStatus.haveData
        var calls = 0
        let largest = packets.map(\.count).max() ?? 1
        while status != .endOfStream, calls < 10_000 {
            calls += 1
            let output = try #require(AVAudioPCMBuffer(pcmFormat: converter.outputFormat, frameCapacity: frames))
            var error: NSError?
            status = converter.convert(to: output, error: &error) { wanted, inputStatus in
                #expect(wanted > 0)
                guard next < packets.count else {
                    inputStatus.pointee = .endOfStream
                    return nil
                }
                let count = min(perBuffer, packets.count - next)
                let buffer = AVAudioCompressedBuffer(format: converter.inputFormat, packetCapacity: AVAudioPacketCount(count), maximumPacketSize: largest)
                var bytes = 0
                for packet in packets[next..<(next + count)] {
                    packet.withUnsafeBytes { (buffer.data + bytes).copyMemory(from: $0.baseAddress!, byteCount: packet.count) }
                    buffer.packetDescriptions![buffer.packetCount == 0 ? 0 : Int(buffer.packetCount)] = AudioStreamPacketDescription(
                        mStartOffset: Int64(bytes), mVariableFramesInPacket: 0, mDataByteSize: UInt32(packet.count))
                    buffer.packetCount += 1
                    bytes += packet.count
                }
                buffer.byteLength = UInt32(bytes)
                next += count
                inputStatus.pointee = .haveData
                return buffer
            }
            #expect(status != .error, "\(String(describing: error))")
            if status == .error { break }
            result += AVAudioConverterTests.interleaved(output)
        }
        return result
    }

    @Test func aacEncodedPacketsDecodeInFFmpegAsTheTone() throws {
        let source = try Self.tone(frequency: 1_000, amplitude: 0.5, rate: 44_100, channels: 2, seconds: 2)
        let aac = try #require(AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2]))
        let converter = try #require(AVAudioConverter(from: source.format, to: aac))
        #expect(converter.bitRate == 128_000 && converter.bitRateStrategy == AVAudioBitRateStrategy_LongTermAverage)
        converter.bitRate = 96_000
        #expect(converter.bitRate == 96_000)
        #expect(converter.applicableEncodeBitRates?.contains(96_000) == true && converter.availableEncodeBitRates?.contains(320_000) == true)
        #expect(converter.availableEncodeSampleRates?.contains(44_100) == true && converter.applicableEncodeSampleRates?.contains(48_000) == true)
        #expect(converter.availableEncodeChannelLayoutTags?.contains(NSNumber(value: kAudioChannelLayoutTag_Stereo)) == true)
        // AAC-LC (2), 44.1 kHz (index 4), 2 channels: the AudioSpecificConfig 0x12 0x10.
        #expect(converter.magicCookie?.prefix(2) == Data([0x12, 0x10]))
        #expect(converter.primeInfo.leadingFrames == 1024 && converter.maximumOutputPacketSize == 1536)
        let (packets, statuses) = try Self.encode(converter, source, chunk: 3_000, packets: 8)
        #expect(statuses.last == .endOfStream && statuses.dropLast().allSatisfy { $0 == .haveData })
        // Priming and the last partial frame: every input frame is in a packet.
        #expect(packets.count == (Int(source.frameLength) + 1024 + 1023) / 1024)
        let url = try Self.adts(packets, rate: 44_100, channels: 2)
        defer { try? FileManager.default.removeItem(at: url) }
        let data = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-af", "pan=mono|c0=c0", "-f", "f32le", "-c:a", "pcm_f32le", "-"])
        let decoded = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(decoded.count == packets.count * 1024)
        let steady = Array(decoded[4_096..<(decoded.count - 4_096)])
        #expect(abs(DecodedAudio.frequency(steady, sampleRate: 44_100) - 1_000) < 1)
        #expect(abs(DecodedAudio.rmsDecibels(steady) - DecodedAudio.rmsDecibels(UnsafeBufferPointer(start: source.floatChannelData![0] + 4_096, count: 70_000))) < 0.5)
        // Bytes per second near the bit rate asked for.
        let bitRate = Double(packets.reduce(0) { $0 + $1.count } * 8) / (Double(packets.count * 1024) / 44_100)
        #expect(abs(bitRate - 96_000) < 20_000, "\(bitRate)")
    }

    @Test func theEncoderChangesRateAndChannelsOnTheWay() throws {
        // 1 s of 48 kHz mono into 44.1 kHz stereo AAC: through the PCM path first, so the mono
        // channel goes to both at its level, as the default channel map has it.
        let source = try Self.tone(frequency: 1_000, amplitude: 0.5, rate: 48_000, channels: 1, seconds: 1)
        let aac = try #require(AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2]))
        let converter = try #require(AVAudioConverter(from: source.format, to: aac))
        let (packets, statuses) = try Self.encode(converter, source, chunk: 5_000, packets: 10)
        #expect(statuses.last == .endOfStream)
        #expect(abs(packets.count - (44_100 + 1_024 + 1_023) / 1_024) <= 1)
        let url = try Self.adts(packets, rate: 44_100, channels: 2)
        defer { try? FileManager.default.removeItem(at: url) }
        let data = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-af", "pan=mono|c0=c1", "-f", "f32le", "-c:a", "pcm_f32le", "-"])
        let right = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let steady = Array(right[4_096..<40_000])
        #expect(abs(DecodedAudio.frequency(steady, sampleRate: 44_100) - 1_000) < 1)
        #expect(abs(DecodedAudio.rmsDecibels(steady) - 20 * log10(0.5 / 2.0.squareRoot())) < 0.5)
    }

    @Test func ffmpegsAACDecodesThroughTheConverterAsFFmpegDecodesIt() throws {
        let url = try Fixtures.make("converter-tone.aac", ["-f", "lavfi", "-i", "aevalsrc=0.5*sin(2*PI*1000*t)|0.3*sin(2*PI*440*t):s=44100:d=1.5",
                                                          "-c:a", "aac", "-b:a", "128k"])
        let (packets, rate, channels, cookie) = try Self.packets(ofADTS: url)
        let format = try Self.aacFormat(rate: rate, channels: channels, cookie: cookie)
        let output = try #require(AVAudioFormat(standardFormatWithSampleRate: rate, channels: AVAudioChannelCount(channels)))
        let converter = try #require(AVAudioConverter(from: format, to: output))
        #expect(converter.magicCookie == cookie && converter.bitRate == 0 && converter.availableEncodeBitRates == nil)
        let samples = try Self.decode(converter, packets, perBuffer: 5, frames: 3_000)
        let data = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-f", "f32le", "-c:a", "pcm_f32le", "-"])
        let reference = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(samples.count == reference.count && samples.count == packets.count * 1024 * channels)
        #expect(AVAudioConverterTests.snr(samples, reference) > 90)
        // To 48 kHz mono 16-bit through the PCM path: the count scaled by the rate.
        let mono = try #require(AVAudioFormat(commonFormat: .pcmFormatFloat32, sampleRate: 48_000, channels: 1, interleaved: false))
        // The cookie set on the converter rather than the format, as Apple-platform code does.
        let resampling = try #require(AVAudioConverter(from: try Self.aacFormat(rate: rate, channels: channels, cookie: nil), to: mono))
        #expect(resampling.magicCookie == nil)
        resampling.magicCookie = cookie
        let resampled = try Self.decode(resampling, packets, perBuffer: 3, frames: 1_000)
        #expect(abs(Double(resampled.count) - Double(packets.count * 1024) * 48_000 / 44_100) <= 2)
        // The mono output takes the first channel, the 1 kHz tone at 0.5.
        let steady = Array(resampled[4_800..<60_000])
        #expect(abs(DecodedAudio.frequency(steady, sampleRate: 48_000) - 1_000) < 1)
        #expect(abs(DecodedAudio.rmsDecibels(steady) - 20 * log10(0.5 / 2.0.squareRoot())) < 0.5)
    }

    @Test func losslessAndOpusRoundTripThroughTheConverter() throws {
        let source = try Self.tone(frequency: 1_000, amplitude: 0.5, rate: 48_000, channels: 1, seconds: 1)
        for (formatID, minimumSNR) in [(kAudioFormatFLAC, 0.0), (kAudioFormatAppleLossless, 0.0), (kAudioFormatOpus, 15.0)] {
            let compressed = try #require(AVAudioFormat(settings: [AVFormatIDKey: formatID, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 1]))
            let encoder = try #require(AVAudioConverter(from: source.format, to: compressed))
            let (packets, statuses) = try Self.encode(encoder, source, chunk: 4_000, packets: 4)
            #expect(statuses.last == .endOfStream && !packets.isEmpty)
            var cookie = try #require(encoder.magicCookie)
            if formatID == kAudioFormatAppleLossless {
                // FFmpeg's cookie is the `alac` atom; Apple's, the bare 24-byte config inside it.
                #expect(cookie.count == 36 && cookie.dropFirst(4).prefix(4) == Data("alac".utf8))
                cookie = cookie.suffix(24)
            }
            let format = try #require(AVAudioFormat(settings: [AVFormatIDKey: formatID, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 1]))
            format.magicCookie = cookie
            let decoder = try #require(AVAudioConverter(from: format, to: source.format))
            let decoded = try Self.decode(decoder, packets, perBuffer: 2, frames: 2_000)
            // The Opus header carries the encoder's pre-skip, which the decoder drops; lossless
            // codecs have none.
            #expect(Int(encoder.primeInfo.leadingFrames) == (formatID == kAudioFormatOpus ? 312 : 0))
            try #require(decoded.count >= Int(source.frameLength), "\(formatID)")
            let middle = 2_000..<(Int(source.frameLength) - 2_000)
            let reference = middle.map { source.floatChannelData![0][$0] }
            let measured = Array(decoded[middle])
            if formatID != kAudioFormatOpus {
                // Lossless: the tone rounded to 16 bits.
                #expect(zip(measured, reference).allSatisfy { abs($0 - $1) <= 1.0 / 32_768 })
            } else {
                #expect(AVAudioConverterTests.snr(measured, reference) > minimumSNR, "\(AVAudioConverterTests.snr(measured, reference))")
            }
        }
    }

    @Test func inputThatRunsDryAndEndsIsReportedAsApplesIs() throws {
        let source = try Self.tone(frequency: 1_000, amplitude: 0.5, rate: 44_100, channels: 1, seconds: 3_000.0 / 44_100)
        let aac = try #require(AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 1]))
        let encoder = try #require(AVAudioConverter(from: source.format, to: aac))
        var packets: [Data] = []
        /// One conversion into a 16-packet buffer with `block`; its status, the packets kept.
        func convert(_ block: @escaping AVAudioConverterInputBlock) -> AVAudioConverterOutputStatus {
            let output = AVAudioCompressedBuffer(format: aac, packetCapacity: 16, maximumPacketSize: encoder.maximumOutputPacketSize)
            var error: NSError?
            let status = encoder.convert(to: output, error: &error, withInputFrom: block)
            #expect(error == nil)
            for index in 0..<Int(output.packetCount) {
                let description = output.packetDescriptions![index]
                packets.append(Data(bytes: output.data + Int(description.mStartOffset), count: Int(description.mDataByteSize)))
            }
            return status
        }
        // The input for now, then no more for now: what could be encoded, and input ran dry.
        var given = false
        #expect(convert { _, status in
            if given { status.pointee = .noDataNow; return nil }
            given = true
            status.pointee = .haveData
            return source
        } == .inputRanDry)
        #expect(packets.count < 4)
        // The end: the rest of the packets, then the end of the stream with nothing.
        #expect(convert { _, status in status.pointee = .endOfStream; return nil } == .haveData)
        #expect(packets.count == (3_000 + 1_024 + 1_023) / 1_024)
        #expect(convert { _, status in status.pointee = .endOfStream; return nil } == .endOfStream)
        // Decoding them: dry, then the samples, then the end.
        var description = AudioStreamBasicDescription(mSampleRate: 44_100, mFormatID: kAudioFormatMPEG4AAC, mFormatFlags: 0, mBytesPerPacket: 0,
                                                      mFramesPerPacket: 1024, mBytesPerFrame: 0, mChannelsPerFrame: 1, mBitsPerChannel: 0, mReserved: 0)
        let format = try #require(AVAudioFormat(streamDescription: &description))
        format.magicCookie = encoder.magicCookie
        let decoder = try #require(AVAudioConverter(from: format, to: source.format))
        let output = try #require(AVAudioPCMBuffer(pcmFormat: source.format, frameCapacity: 8_192))
        var error: NSError?
        #expect(decoder.convert(to: output, error: &error) { _, status in status.pointee = .noDataNow; return nil } == .inputRanDry)
        #expect(output.frameLength == 0)
        let decoded = try Self.decode(decoder, packets, perBuffer: 16, frames: 8_192)
        #expect(decoded.count == packets.count * 1_024)
        #expect(decoder.convert(to: output, error: &error) { _, status in status.pointee = .endOfStream; return nil } == .endOfStream)
    }

    @Test func convertingCompressedAudioFailsAsApplesDoes() throws {
        let pcm = try #require(AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2))
        let aac = try Self.aacFormat(rate: 44_100, channels: 2, cookie: Data([0x12, 0x10]))
        let mp3 = try #require(AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatMPEGLayer3, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2]))
        let opus = try #require(AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatOpus, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2]))
        // No compressed-to-compressed, no MP3 encoder, no Opus at 44.1 kHz.
        #expect(AVAudioConverter(from: aac, to: opus) == nil)
        #expect(AVAudioConverter(from: pcm, to: mp3) == nil)
        #expect(AVAudioConverter(from: pcm, to: opus) == nil)
        // convert(to:from:) is PCM only.
        let decoder = try #require(AVAudioConverter(from: aac, to: pcm))
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: pcm, frameCapacity: 1_024))
        do {
            try decoder.convert(to: buffer, from: buffer)
            Issue.record("convert(to:from:) decoded")
        } catch let error as NSError {
            #expect(error.domain == NSOSStatusErrorDomain && error.code == Int(kAudioConverterErr_OperationNotSupported))
        }
        // A PCM buffer handed to the decoder, a PCM output buffer for the encoder.
        var error: NSError?
        #expect(decoder.convert(to: buffer, error: &error) { _, status in status.pointee = .haveData; return buffer } == .error)
        #expect(error?.code == Int(kAudio_ParamError))
        error = nil
        let aacOut = try #require(AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2]))
        let encoder = try #require(AVAudioConverter(from: pcm, to: aacOut))
        #expect(encoder.convert(to: buffer, error: &error) { _, status in status.pointee = .endOfStream; return nil } == .error)
        #expect(error?.code == Int(kAudio_ParamError))
        // Garbage packets: the decoder's error, not a crash.
        error = nil
        let garbage = AVAudioCompressedBuffer(format: aac, packetCapacity: 1, maximumPacketSize: 64)
        garbage.packetDescriptions![0] = AudioStreamPacketDescription(mStartOffset: 0, mVariableFramesInPacket: 0, mDataByteSize: 64)
        garbage.packetCount = 1
        garbage.byteLength = 64
        memset(garbage.data, 0xA5, 64)
        var given = false
        let status = decoder.convert(to: buffer, error: &error) { _, inputStatus in
            if given { inputStatus.pointee = .endOfStream; return nil }
            given = true
            inputStatus.pointee = .haveData
            return garbage
        }
        #expect(status == .error && error?.domain == NSOSStatusErrorDomain && buffer.frameLength == 0)
    }
}
