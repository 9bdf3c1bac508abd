import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Compositions exported, shown in images and read at random times, checked with ffprobe and
/// against ffmpeg's decode of the source frames the edit maps to.
@Suite(HeavyLoad.Scope()) struct AVCompositionExportTests {
    /// Two ranges of the 2 s H.264 + AAC fixture, back to back: 0.4–1.4 s then 0.2–1.2 s.
    static func composition() throws -> (AVMutableComposition, URL) {
        let url = try Fixtures.h264AAC()
        let asset = AVURLAsset(url: url)
        let composition = AVMutableComposition()
        let second = CMTime(value: 1, timescale: 1)
        try composition.insertTimeRange(CMTimeRange(start: CMTime(value: 2, timescale: 5), duration: second), of: asset, at: .zero)
        try composition.insertTimeRange(CMTimeRange(start: CMTime(value: 1, timescale: 5), duration: second), of: asset, at: second)
        return (composition, url)
    }

    @Test func exportWritesTheEditedMovie() async throws {
        let (composition, source) = try Self.composition()
        let presets = AVAssetExportSession.exportPresets(compatibleWith: composition)
        #expect(presets.contains(AVAssetExportPresetMediumQuality))
        #expect(!presets.contains(AVAssetExportPresetPassthrough))
        let session = try #require(AVAssetExportSession(asset: composition, presetName: AVAssetExportPresetHighestQuality))
        let url = ExportOracle.outputURL("composition.mp4")
        session.outputURL = url
        session.outputFileType = .mp4
        await session.export()
        try #require(session.status == .completed, "\(String(describing: session.error))")

        let streams = try ExportOracle.streams(url)
        #expect(streams.map { $0["codec_type"] as? String } == ["video", "audio"])
        let times = try ExportOracle.frameTimes(url)
        #expect(times.count == 50)
        #expect(times.enumerated().allSatisfy { abs($0.element - Double($0.offset) / 25) < 0.001 })
        let audioDuration = Double(streams[1]["duration"] as? String ?? "") ?? 0
        #expect(abs(audioDuration - 2) < 0.05, "audio lasts \(audioDuration) s")

        // Frames 10–34 then 5–29 of the source, re-encoded.
        let ours = try ExportOracle.frames(url, width: 320, height: 240)
        let all = try ExportOracle.frames(source, width: 320, height: 240)
        let expected = Array(all[10..<35]) + Array(all[5..<30])
        try #require(ours.count == expected.count)
        #expect(ExportOracle.worstPSNR(ours, expected) >= 35)
    }

    @Test func passthroughExportOfACompositionFailsClearly() async throws {
        let (composition, _) = try Self.composition()
        let session = try #require(AVAssetExportSession(asset: composition, presetName: AVAssetExportPresetPassthrough))
        let url = ExportOracle.outputURL("composition-passthrough.mov")
        session.outputURL = url
        session.outputFileType = .mov
        await session.export()
        #expect(session.status == .failed)
        #expect(session.error != nil)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func imageGeneratorShowsTheMappedSourceFrame() async throws {
        let (composition, source) = try Self.composition()
        let generator = AVAssetImageGenerator(asset: composition)
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        // 1.48 s in the composition is 0.68 s of the source: frame 17.
        let (image, actual) = try await generator.image(at: CMTime(value: 37, timescale: 25))
        #expect(actual == CMTime(value: 37, timescale: 25))
        #expect(PixelComparison.psnr(AVAssetImageGeneratorTests.bytes(image), try AVAssetImageGeneratorTests.reference(source, frame: 17)) >= 35)
        // With the default tolerances too: the first segment at 0.6 s is 1.0 s of the source.
        let (early, _) = try await AVAssetImageGenerator(asset: composition).image(at: CMTime(value: 3, timescale: 5))
        #expect(early.width == 320 && early.height == 240)
    }

    @Test func randomAccessReadsTheEditedTimeline() throws {
        let (composition, source) = try Self.composition()
        let reader = try AVAssetReader(asset: composition)
        let output = AVAssetReaderTrackOutput(track: composition.tracks(withMediaType: .video)[0],
                                              outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        output.supportsRandomAccess = true
        reader.timeRange = CMTimeRange(start: CMTime(value: 22, timescale: 25), duration: CMTime(value: 2, timescale: 25))
        reader.add(output)
        reader.startReading()
        var times: [CMTime] = []
        var pictures: [[UInt8]] = []
        func drain() {
            while let sample = output.copyNextSampleBuffer() {
                times.append(sample.presentationTimeStamp)
                pictures.append(PixelComparison.packed(sample.imageBuffer!, bytesPerPixel: 4))
            }
        }
        drain()
        output.reset(forReadingTimeRanges: [NSValue(timeRange: CMTimeRange(start: CMTime(value: 40, timescale: 25), duration: CMTime(value: 1, timescale: 25)))])
        drain()
        output.markConfigurationAsFinal()
        #expect(reader.status == .completed)
        // 22, 23 (source 32, 33, across the cut at 25), then 40 (source 5 + 15 = 20).
        #expect(times == [22, 23, 40].map { CMTime(value: $0, timescale: 25) })
        for (picture, frame) in zip(pictures, [32, 33, 20]) {
            #expect(PixelComparison.psnr(picture, try AVAssetImageGeneratorTests.reference(source, frame: frame)) >= 35)
        }
    }
}
