import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Files written by AVAssetWriter, checked with ffprobe and ffmpeg's decode.
@Suite struct AVAssetWriterTests {
    static func outputURL(_ name: String) -> URL {
        Fixtures.folder.appendingPathComponent("\(UUID().uuidString)-\(name)")
    }

    /// A BGRA picture with a moving gradient and a frame-number band, so frames differ.
    static func drawFrame(_ buffer: CVPixelBuffer, index: Int) {
        CVPixelBufferLockBaseAddress(buffer, [])
        defer { CVPixelBufferUnlockBaseAddress(buffer, []) }
        let base = CVPixelBufferGetBaseAddress(buffer)!.assumingMemoryBound(to: UInt8.self)
        let stride = CVPixelBufferGetBytesPerRow(buffer)
        for y in 0..<CVPixelBufferGetHeight(buffer) {
            for x in 0..<CVPixelBufferGetWidth(buffer) {
                let p = base + y * stride + x * 4
                p[0] = UInt8(truncatingIfNeeded: x + index * 4)
                p[1] = UInt8(truncatingIfNeeded: y * 2)
                p[2] = UInt8(truncatingIfNeeded: (x / 16 + y / 16 + index) % 2 == 0 ? 200 : 40)
                p[3] = 255
            }
        }
    }

    static func frames(_ url: URL) throws -> [[String]] {
        try AVAssetReaderTests.probeEntries(url, stream: 0, section: "frame", fields: "best_effort_timestamp")
    }

    @Test func guideWritingAnAssetWithAPixelBufferAdaptor() async throws {
        // "Writing an Asset": a writer, a video input with H.264 settings, a pixel buffer
        // adaptor, a session from zero, appends, finish.
        let url = Self.outputURL("adaptor.mp4")
        let assetWriter = try AVAssetWriter(outputURL: url, fileType: .mp4)
        let videoSettings: [String: Any] = [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 320, AVVideoHeightKey: 240]
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: videoSettings)
        let adaptor = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input, sourcePixelBufferAttributes: [
            kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA,
        ])
        #expect(assetWriter.canAdd(input))
        assetWriter.add(input)
        #expect(adaptor.pixelBufferPool == nil)
        #expect(assetWriter.startWriting())
        assetWriter.startSession(atSourceTime: .zero)
        var appended: [[UInt8]] = []
        for index in 0..<60 {
            var buffer: CVPixelBuffer?
            CVPixelBufferPoolCreatePixelBuffer(nil, try #require(adaptor.pixelBufferPool), &buffer)
            let pixels = try #require(buffer)
            Self.drawFrame(pixels, index: index)
            appended.append(AVAssetReaderTests.packed(pixels, bytesPerPixel: 4))
            #expect(input.isReadyForMoreMediaData)
            #expect(adaptor.append(pixels, withPresentationTime: CMTime(value: Int64(index), timescale: 30)))
        }
        input.markAsFinished()
        await assetWriter.finishWriting()
        #expect(assetWriter.status == .completed, "\(String(describing: assetWriter.error))")

        let stream = try #require((try Fixtures.probe(url)["streams"] as? [[String: Any]])?.first)
        #expect(stream["codec_name"] as? String == "h264")
        #expect(stream["width"] as? Int == 320 && stream["height"] as? Int == 240)
        let timeBase = try AVAssetReaderTests.timeBase(url, stream: 0)
        let times = try Self.frames(url).map { AVAssetReaderTests.time($0[0], timeBase) }
        #expect(times == (0..<60).map { CMTime(value: Int64($0), timescale: 30) })
        // Pixels: ffmpeg's decode of frames 0 and 45 against what was appended.
        for index in [0, 45] {
            let decoded = [UInt8](try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-vf", "select=eq(n\\,\(index))",
                                                              "-frames:v", "1", "-pix_fmt", "bgra", "-f", "rawvideo", "-"]))
            #expect(AVAssetReaderTests.psnr(decoded, appended[index]) >= 35, "frame \(index)")
        }
    }

    @Test func sessionStartBecomesTimeZero() async throws {
        let url = Self.outputURL("offset.mov")
        let writer = try AVAssetWriter(outputURL: url, fileType: .mov)
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 64, AVVideoHeightKey: 48])
        let adaptor = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input, sourcePixelBufferAttributes: nil)
        writer.add(input)
        writer.startWriting()
        writer.startSession(atSourceTime: CMTime(value: 100, timescale: 1))
        for index in 0..<10 {
            var buffer: CVPixelBuffer?
            CVPixelBufferPoolCreatePixelBuffer(nil, adaptor.pixelBufferPool!, &buffer)
            Self.drawFrame(buffer!, index: index)
            adaptor.append(buffer!, withPresentationTime: CMTime(value: 100 * 25 + Int64(index), timescale: 25))
        }
        await writer.finishWriting()
        let timeBase = try AVAssetReaderTests.timeBase(url, stream: 0)
        #expect(try Self.frames(url).map { AVAssetReaderTests.time($0[0], timeBase) } == (0..<10).map { CMTime(value: Int64($0), timescale: 25) })
    }

    @Test func refusesToOverwriteAFile() throws {
        let url = Self.outputURL("exists.mp4")
        try Data("precious".utf8).write(to: url)
        do {
            _ = try AVAssetWriter(outputURL: url, fileType: .mp4)
            Issue.record("a writer opened an existing file")
        } catch AVError.fileAlreadyExists {}
        #expect(try String(contentsOf: url, encoding: .utf8) == "precious")
    }

    @Test func cancelWritingRemovesThePartialFile() throws {
        let url = Self.outputURL("cancelled.mp4")
        let writer = try AVAssetWriter(outputURL: url, fileType: .mp4)
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 64, AVVideoHeightKey: 48])
        let adaptor = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input, sourcePixelBufferAttributes: nil)
        writer.add(input)
        writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        var buffer: CVPixelBuffer?
        CVPixelBufferPoolCreatePixelBuffer(nil, adaptor.pixelBufferPool!, &buffer)
        adaptor.append(buffer!, withPresentationTime: .zero)
        writer.cancelWriting()
        #expect(writer.status == .cancelled)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func settingsThatCannotWorkAreRefused() throws {
        let mp4 = try AVAssetWriter(outputURL: Self.outputURL("refuse.mp4"), fileType: .mp4)
        #expect(!mp4.canApply(outputSettings: [AVVideoCodecKey: AVVideoCodecType.proRes422, AVVideoWidthKey: 64, AVVideoHeightKey: 48], forMediaType: .video))
        #expect(!mp4.canApply(outputSettings: [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 63, AVVideoHeightKey: 48], forMediaType: .video))
        #expect(!mp4.canApply(outputSettings: [AVVideoCodecKey: "nope", AVVideoWidthKey: 64, AVVideoHeightKey: 48], forMediaType: .video))
        #expect(!mp4.canApply(outputSettings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 12345, AVNumberOfChannelsKey: 2], forMediaType: .audio))
        #expect(mp4.canApply(outputSettings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44100, AVNumberOfChannelsKey: 2], forMediaType: .audio))
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 63, AVVideoHeightKey: 48])
        #expect(!mp4.canAdd(input))
        let mov = try AVAssetWriter(outputURL: Self.outputURL("refuse.mov"), fileType: .mov)
        #expect(mov.canApply(outputSettings: [AVVideoCodecKey: AVVideoCodecType.proRes422, AVVideoWidthKey: 64, AVVideoHeightKey: 48], forMediaType: .video))
    }

    @Test func passthroughRemuxKeepsEveryPacket() async throws {
        let source = try Fixtures.h264AAC()
        let asset = AVURLAsset(url: source)
        let reader = try AVAssetReader(asset: asset)
        let url = Self.outputURL("remux.mp4")
        let writer = try AVAssetWriter(outputURL: url, fileType: .mp4)
        var pairs: [(AVAssetReaderTrackOutput, AVAssetWriterInput)] = []
        for track in asset.tracks {
            let output = AVAssetReaderTrackOutput(track: track, outputSettings: nil)
            reader.add(output)
            let input = AVAssetWriterInput(mediaType: track.mediaType, outputSettings: nil,
                                           sourceFormatHint: track.formatDescriptions.first as! CMFormatDescription?)
            writer.add(input)
            pairs.append((output, input))
        }
        reader.startReading()
        writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        for (output, input) in pairs {
            while let sample = output.copyNextSampleBuffer() { #expect(input.append(sample)) }
            input.markAsFinished()
        }
        await writer.finishWriting()
        #expect(writer.status == .completed, "\(String(describing: writer.error))")
        for stream in 0..<2 {
            let fields = "pts,dts,size"
            let ours = try AVAssetReaderTests.probeEntries(url, stream: stream, section: "packet", fields: fields)
            let theirs = try AVAssetReaderTests.probeEntries(source, stream: stream, section: "packet", fields: fields)
            let scale = { (url: URL) throws -> (Int64, Int32) in try AVAssetReaderTests.timeBase(url, stream: stream) }
            let (ourBase, theirBase) = (try scale(url), try scale(source))
            #expect(ours.map { AVAssetReaderTests.time($0[0], ourBase) } == theirs.map { AVAssetReaderTests.time($0[0], theirBase) })
            #expect(ours.map { $0[2] } == theirs.map { $0[2] })
        }
    }
}
