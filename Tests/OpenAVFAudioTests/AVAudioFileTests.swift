import Foundation
import OpenCoreMedia
import Testing
import OpenAVFAudio
import TestSupport

/// AVAudioFile reading files ffmpeg makes at test time, against ffmpeg's own decode of the same
/// file (`ffmpeg -f f32le`): every sample, the frame count, and frames after a seek.
@Suite(.timeLimit(.minutes(10))) struct AVAudioFileTests {
    /// A stereo source with a different tone in each channel, 2.5 s at 44.1 kHz.
    static let source = ["-f", "lavfi", "-i", "aevalsrc=0.6*sin(2*PI*440*t)|0.4*sin(2*PI*660*t):s=44100:d=2.5"]

    /// The formats: a file name, ffmpeg's encoding options, and whether the codec is lossless.
    static let formats: [(name: String, options: [String], lossless: Bool)] = [
        ("s16.wav", ["-c:a", "pcm_s16le"], true),
        ("f32.wav", ["-c:a", "pcm_f32le"], true),
        ("s24.aiff", ["-c:a", "pcm_s24be"], true),
        ("tone.flac", ["-c:a", "flac"], true),
        ("alac.m4a", ["-c:a", "alac"], true),
        ("aac.m4a", ["-c:a", "aac", "-b:a", "128k"], false),
        ("tone.mp3", ["-c:a", "libmp3lame", "-b:a", "128k"], false),
        ("tone.opus", ["-c:a", "libopus", "-b:a", "96k"], false),
        ("tone.ogg", ["-c:a", "libvorbis"], false),
    ]

    /// The file made for a format.
    static func file(_ name: String, _ options: [String]) throws -> URL {
        try Fixtures.make(name, source + options)
    }

    /// ffmpeg's decode of a file as interleaved 32-bit floats at the file's rate.
    static func ffmpegDecode(_ url: URL) throws -> [Float] {
        let data = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-f", "f32le", "-c:a", "pcm_f32le", "-"])
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// Reads `count` frames from the file's position as interleaved floats.
    static func read(_ file: AVAudioFile, frames count: Int) throws -> [Float] {
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(count)))
        try file.read(into: buffer)
        let channels = Int(file.processingFormat.channelCount)
        let data = try #require(buffer.floatChannelData)
        var samples: [Float] = []
        samples.reserveCapacity(Int(buffer.frameLength) * channels)
        for frame in 0..<Int(buffer.frameLength) {
            for channel in 0..<channels { samples.append(data[channel][frame * buffer.stride]) }
        }
        return samples
    }

    /// The largest difference between two sample lists of equal length.
    static func maxDifference(_ a: [Float], _ b: [Float]) -> Float {
        zip(a, b).reduce(0) { max($0, abs($1.0 - $1.1)) }
    }

    @Test(arguments: formats.map(\.name))
    func readsEverySampleAsFFmpegDecodesIt(name: String) throws {
        let format = try #require(Self.formats.first { $0.name == name })
        let url = try Self.file(format.name, format.options)
        let expected = try Self.ffmpegDecode(url)
        let file = try AVAudioFile(forReading: url)
        #expect(file.processingFormat.isStandard)
        #expect(file.processingFormat.channelCount == 2 && file.fileFormat.channelCount == 2)
        #expect(file.processingFormat.sampleRate == file.fileFormat.sampleRate)
        #expect(file.length == AVAudioFramePosition(expected.count / 2), "\(name): ffmpeg decodes \(expected.count / 2) frames")
        let samples = try Self.read(file, frames: Int(file.length) + 1000)
        #expect(samples.count == expected.count, "\(name)")
        #expect(file.framePosition == file.length)
        let tolerance: Float = format.lossless ? 0 : 1e-4
        #expect(Self.maxDifference(samples, expected) <= tolerance, "\(name)")
        // At the end, a read reads nothing.
        #expect(try Self.read(file, frames: 100).isEmpty)
    }

    @Test(arguments: formats.map(\.name))
    func seeksLandOnTheExactFrame(name: String) throws {
        let format = try #require(Self.formats.first { $0.name == name })
        let url = try Self.file(format.name, format.options)
        let expected = try Self.ffmpegDecode(url)
        let file = try AVAudioFile(forReading: url, commonFormat: .pcmFormatFloat32, interleaved: true)
        let tolerance: Float = format.lossless ? 0 : 1e-4
        for target in [70_001, 12_345, 0, 100_000] {
            file.framePosition = AVAudioFramePosition(target)
            #expect(file.framePosition == AVAudioFramePosition(target))
            let samples = try Self.read(file, frames: 2_000)
            let slice = Array(expected[(target * 2)..<min(expected.count, (target + 2_000) * 2)])
            #expect(samples.count == slice.count, "\(name) at \(target)")
            #expect(Self.maxDifference(samples, slice) <= tolerance, "\(name) at \(target)")
        }
    }

    @Test func integerProcessingFormatsAreBitExact() throws {
        let url = try Self.file("s16.wav", ["-c:a", "pcm_s16le"])
        let raw = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-f", "s16le", "-"])
        let expected = raw.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let file = try AVAudioFile(forReading: url, commonFormat: .pcmFormatInt16, interleaved: false)
        #expect(file.processingFormat.commonFormat == .pcmFormatInt16 && !file.processingFormat.isInterleaved)
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 200_000))
        try file.read(into: buffer, frameCount: 50_000)
        #expect(buffer.frameLength == 50_000)
        let data = try #require(buffer.int16ChannelData)
        #expect((0..<50_000).allSatisfy { data[0][$0] == expected[$0 * 2] && data[1][$0] == expected[$0 * 2 + 1] })
    }

    @Test func readsTheSoundOfAMovie() throws {
        let url = try Fixtures.make("movie.mp4", ["-f", "lavfi", "-i", "testsrc=size=64x48:rate=10:duration=2.5"] + Self.source
            + ["-c:v", "mpeg4", "-c:a", "aac", "-shortest"])
        let expected = try Self.ffmpegDecode(url)
        let file = try AVAudioFile(forReading: url)
        #expect(file.fileFormat.streamDescription.pointee.mFormatID == kAudioFormatMPEG4AAC)
        #expect(file.length == AVAudioFramePosition(expected.count / 2))
        let samples = try Self.read(file, frames: Int(file.length))
        #expect(samples.count == expected.count && Self.maxDifference(samples, expected) <= 1e-4)
    }

    @Test func aMissingFileThrowsAppleError() {
        let missing = Fixtures.folder.appendingPathComponent("no-such-file.wav")
        #expect(throws: (any Error).self) { try AVAudioFile(forReading: missing) }
        do {
            _ = try AVAudioFile(forReading: missing)
        } catch {
            let error = error as NSError
            #expect(error.domain == "com.apple.coreaudio.avfaudio" && error.code == Int(kAudioFileUnspecifiedError))
        }
    }

    @Test func badFilesThrowAndNeverCrash() throws {
        let garbage = Fixtures.folder.appendingPathComponent("garbage.wav")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: garbage)
        #expect(throws: (any Error).self) { try AVAudioFile(forReading: garbage) }

        let video = try Fixtures.make("video-only.mp4", ["-f", "lavfi", "-i", "testsrc=size=64x48:rate=10:duration=1",
                                                         "-c:v", "mpeg4"])
        do {
            _ = try AVAudioFile(forReading: video)
            Issue.record("a file without audio opened")
        } catch {
            #expect((error as NSError).code == Int(kAudioFileUnsupportedDataFormatError))
        }

        // A truncated FLAC file: either it does not open, or it reads what is there.
        let flac = try Self.file("tone.flac", ["-c:a", "flac"])
        let bytes = try Data(contentsOf: flac)
        let truncated = Fixtures.folder.appendingPathComponent("truncated.flac")
        try bytes.prefix(bytes.count / 2).write(to: truncated)
        if let file = try? AVAudioFile(forReading: truncated) {
            let samples = try? Self.read(file, frames: 200_000)
            #expect((samples?.count ?? 0) < 2 * 110_250)
        }
    }

    @Test func aBufferInAnotherFormatAndAClosedFileThrow() throws {
        let url = try Self.file("s16.wav", ["-c:a", "pcm_s16le"])
        let file = try AVAudioFile(forReading: url)
        let other = try #require(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 44_100, channels: 2, interleaved: true))
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: other, frameCapacity: 100))
        #expect(throws: (any Error).self) { try file.read(into: buffer) }
        file.close()
        #expect(!file.isOpen)
        let standard = try #require(AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 100))
        do {
            try file.read(into: standard)
            Issue.record("a closed file read")
        } catch {
            #expect((error as NSError).code == Int(kAudioFileNotOpenError))
        }
    }
}
