import Foundation
import OpenCoreMedia
import Testing
import OpenAVFAudio
import TestSupport

/// AVAudioFile writing, checked by ffmpeg and ffprobe: each file decodes with `ffmpeg -v error`
/// at the rate and channel count asked for, with the frames written (every sample equal for
/// PCM and Apple Lossless).
@Suite(.timeLimit(.minutes(10))) struct AVAudioFileWritingTests {
    /// The formats: file name, settings, whether the decode must equal the samples written.
    nonisolated(unsafe) static let cases: [(name: String, settings: [String: Any], exact: Bool)] = [
        ("s16.wav", [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2,
                     AVLinearPCMBitDepthKey: 16], false),
        ("f32.wav", [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2,
                     AVLinearPCMBitDepthKey: 32, AVLinearPCMIsFloatKey: true], true),
        ("s24.caf", [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 1,
                     AVLinearPCMBitDepthKey: 24], false),
        ("alac.m4a", [AVFormatIDKey: kAudioFormatAppleLossless, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2], false),
        ("aac.m4a", [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2,
                     AVEncoderBitRateKey: 128_000], false),
        ("s16.aiff", [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 22_050, AVNumberOfChannelsKey: 2,
                      AVLinearPCMBitDepthKey: 16, AVLinearPCMIsBigEndianKey: true], false),
        ("ogg.opus", [AVFormatIDKey: kAudioFormatOpus, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 1,
                      AVEncoderBitRateKey: 64_000], false),
        ("tone.flac", [AVFormatIDKey: kAudioFormatFLAC, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2], false),
        ("opus.mp4", [AVFormatIDKey: kAudioFormatOpus, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 2], false),
    ]

    /// A fresh path in the fixture folder.
    static func path(_ name: String) -> URL {
        Fixtures.folder.appendingPathComponent("written-\(UUID().uuidString)-\(name)")
    }

    /// ffmpeg's decode of a file as interleaved floats, and ffprobe's rate and channels.
    static func decode(_ url: URL) throws -> (samples: [Float], rate: Int, channels: Int) {
        let data = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-f", "f32le", "-c:a", "pcm_f32le", "-"])
        let probe = String(decoding: try Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries",
                                                                   "stream=sample_rate,channels", "-of", "csv=p=0", url.path]),
                           as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
        return (data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }, Int(probe[0]) ?? 0, Int(probe[1]) ?? 0)
    }

    @Test(arguments: cases.map(\.name))
    func writtenFilesDecodeWithTheRateChannelsAndLength(name: String) throws {
        let entry = try #require(Self.cases.first { $0.name == name })
        let url = Self.path(name)
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try AVAudioFile(forWriting: url, settings: entry.settings)
        let format = file.processingFormat
        #expect(format.isStandard)
        let rate = format.sampleRate, channels = Int(format.channelCount)
        let frames = Int(rate) // one second, in three buffers
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(frames)))
        let data = try #require(buffer.floatChannelData)
        var written: [Float] = []
        for frame in 0..<frames {
            for channel in 0..<channels {
                let value = Float(0.5 * sin(2 * Double.pi * Double(440 + 220 * channel) * Double(frame) / rate))
                data[channel][frame] = value
                written.append(value)
            }
        }
        for part in 0..<3 {
            let start = part * frames / 3, end = (part + 1) * frames / 3
            let piece = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(end - start)))
            for channel in 0..<channels {
                piece.floatChannelData![channel].update(from: data[channel] + start, count: end - start)
            }
            piece.frameLength = AVAudioFrameCount(end - start)
            try file.write(from: piece)
        }
        #expect(file.length == AVAudioFramePosition(frames))
        file.close()
        let decoded = try Self.decode(url)
        #expect(decoded.rate == Int(rate) && decoded.channels == channels, "\(name)")
        let decodedFrames = decoded.samples.count / channels
        if name.hasSuffix("aac.m4a") || name.contains("opus") {
            // Lossy codecs end on a whole packet.
            #expect(decodedFrames >= frames && decodedFrames < frames + 1024, "\(name): \(decodedFrames) frames")
        } else {
            #expect(decodedFrames == frames, "\(name): \(decodedFrames) frames")
            let tolerance: Float = entry.exact ? 0 : name.hasPrefix("s16") || name.hasPrefix("alac") || name.hasSuffix("flac") ? 1.0 / 32_768 : 1.0 / 8_388_608
            let difference = zip(decoded.samples, written).reduce(Float(0)) { max($0, abs($1.0 - $1.1)) }
            #expect(difference <= tolerance, "\(name)")
        }
        // And it reads back through AVAudioFile.
        let reading = try AVAudioFile(forReading: url)
        #expect(reading.processingFormat.sampleRate == rate && reading.processingFormat.channelCount == UInt32(channels))
    }

    @Test func anExistingFileIsReplaced() throws {
        let url = Self.path("replaced.wav")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(repeating: 1, count: 100_000).write(to: url)
        let file = try AVAudioFile(forWriting: url, settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 8_000,
                                                              AVNumberOfChannelsKey: 1])
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 800))
        buffer.frameLength = 800
        try file.write(from: buffer)
        file.close()
        #expect(try Self.decode(url).samples.count == 800)
    }

    @Test func unsupportedSettingsThrowApplesErrors() throws {
        let pcm: [String: Any] = [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2]
        func code(_ name: String, _ settings: [String: Any]) -> Int? {
            do {
                _ = try AVAudioFile(forWriting: Self.path(name), settings: settings)
                return nil
            } catch {
                #expect((error as NSError).domain == "com.apple.coreaudio.avfaudio")
                return (error as NSError).code
            }
        }
        #expect(code("x.xyz", pcm) == Int(kAudioFileUnsupportedFileTypeError))
        var aac = pcm
        aac[AVFormatIDKey] = kAudioFormatMPEG4AAC
        #expect(code("x.wav", aac) == Int(kAudioFileUnsupportedDataFormatError))
        var odd = pcm
        odd[AVLinearPCMBitDepthKey] = 12
        #expect(code("x.wav", odd) == Int(kAudioFileUnsupportedDataFormatError))
        #expect(code("x.wav", [AVFormatIDKey: kAudioFormatLinearPCM]) == Int(kAudioFileUnsupportedDataFormatError))
        #expect(code("missing-folder/x.wav", pcm) != nil)
    }
}
