import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Compositions exported, shown in images and read at random times, checked with ffprobe and
/// against ffmpeg's decode of the source frames the edit maps to.
@Suite(HeavyLoad.Scope(), .timeLimit(.minutes(10))) struct AVCompositionExportTests {
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

    /// A 2 s 30 fps clip of `source` stored 320x240 and shown turned a quarter clockwise, with
    /// the track matrix an iPhone writes for portrait video (the picture turned, then moved
    /// back into view). ffmpeg makes the pictures; the writer stores them with the matrix.
    static func portraitClip(_ source: String) throws -> URL {
        let plain = try Fixtures.make("guide-\(source).mp4", ["-f", "lavfi", "-i", "\(source)=size=320x240:rate=30", "-t", "2",
                                                               "-c:v", "libx264", "-crf", "12", "-bf", "0", "-pix_fmt", "yuv420p"])
        let url = plain.deletingPathExtension().appendingPathExtension("portrait.mov")
        Fixtures.lock.lock()
        defer { Fixtures.lock.unlock() }
        if FileManager.default.fileExists(atPath: url.path) { return url }
        let asset = AVURLAsset(url: plain)
        let track = try #require(asset.tracks(withMediaType: .video).first)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: nil)
        reader.add(output)
        let partial = url.deletingLastPathComponent().appendingPathComponent("partial-" + url.lastPathComponent)
        let writer = try AVAssetWriter(outputURL: partial, fileType: .mov)
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: nil,
                                       sourceFormatHint: track.formatDescriptions.first as! CMFormatDescription?)
        input.transform = CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 240, ty: 0)
        writer.add(input)
        reader.startReading()
        writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        // The input asks for samples whenever it can take more; after the last, it is finished.
        let copied = waitUntil(timeout: 60) { done in
            input.requestMediaDataWhenReady(on: DispatchQueue(label: "portrait clip")) {
                while input.isReadyForMoreMediaData {
                    guard let sample = output.copyNextSampleBuffer() else {
                        input.markAsFinished()
                        done()
                        return
                    }
                    #expect(input.append(sample))
                }
            }
            return nil
        }
        try #require(copied, "the writer did not take the clip within 60 s")
        let finished = waitUntil(timeout: 60) { done in
            writer.finishWriting { done() }
            return nil
        }
        try #require(finished && writer.status == .completed, "\(String(describing: writer.error))")
        try FileManager.default.moveItem(at: partial, to: url)
        return url
    }

    @Test func guideCombiningMultipleAssets() async throws {
        let firstVideoAsset = AVURLAsset(url: try Self.portraitClip("testsrc2"))
        let secondVideoAsset = AVURLAsset(url: try Self.portraitClip("smptebars"))
        let audioAsset = AVURLAsset(url: try Fixtures.make("guide-audio.m4a", ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                                                                                "-t", "5", "-c:a", "aac"]))

        // "Creating the Composition", "Adding the Assets".
        let mutableComposition = AVMutableComposition()
        let videoCompositionTrack = try #require(mutableComposition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid))
        let audioCompositionTrack = try #require(mutableComposition.addMutableTrack(withMediaType: .audio, preferredTrackID: kCMPersistentTrackID_Invalid))
        let firstVideoAssetTrack = firstVideoAsset.tracks(withMediaType: .video)[0]
        let secondVideoAssetTrack = secondVideoAsset.tracks(withMediaType: .video)[0]
        try videoCompositionTrack.insertTimeRange(CMTimeRangeMake(start: .zero, duration: firstVideoAssetTrack.timeRange.duration),
                                                  of: firstVideoAssetTrack, at: .zero)
        try videoCompositionTrack.insertTimeRange(CMTimeRangeMake(start: .zero, duration: secondVideoAssetTrack.timeRange.duration),
                                                  of: secondVideoAssetTrack, at: firstVideoAssetTrack.timeRange.duration)
        try audioCompositionTrack.insertTimeRange(
            CMTimeRangeMake(start: .zero, duration: CMTimeAdd(firstVideoAssetTrack.timeRange.duration, secondVideoAssetTrack.timeRange.duration)),
            of: audioAsset.tracks(withMediaType: .audio)[0], at: .zero)

        // "Checking the Video Orientations".
        var isFirstVideoPortrait = false
        let firstTransform = firstVideoAssetTrack.preferredTransform
        if firstTransform.a == 0 && firstTransform.d == 0 && (firstTransform.b == 1.0 || firstTransform.b == -1.0)
            && (firstTransform.c == 1.0 || firstTransform.c == -1.0) {
            isFirstVideoPortrait = true
        }
        var isSecondVideoPortrait = false
        let secondTransform = secondVideoAssetTrack.preferredTransform
        if secondTransform.a == 0 && secondTransform.d == 0 && (secondTransform.b == 1.0 || secondTransform.b == -1.0)
            && (secondTransform.c == 1.0 || secondTransform.c == -1.0) {
            isSecondVideoPortrait = true
        }
        #expect(isFirstVideoPortrait && isSecondVideoPortrait)

        // "Applying the Video Composition Layer Instructions".
        let firstVideoCompositionInstruction = AVMutableVideoCompositionInstruction()
        firstVideoCompositionInstruction.timeRange = CMTimeRangeMake(start: .zero, duration: firstVideoAssetTrack.timeRange.duration)
        let secondVideoCompositionInstruction = AVMutableVideoCompositionInstruction()
        secondVideoCompositionInstruction.timeRange = CMTimeRangeMake(
            start: firstVideoAssetTrack.timeRange.duration,
            duration: CMTimeAdd(firstVideoAssetTrack.timeRange.duration, secondVideoAssetTrack.timeRange.duration))
        let firstVideoLayerInstruction = AVMutableVideoCompositionLayerInstruction(assetTrack: videoCompositionTrack)
        firstVideoLayerInstruction.setTransform(firstTransform, at: .zero)
        let secondVideoLayerInstruction = AVMutableVideoCompositionLayerInstruction(assetTrack: videoCompositionTrack)
        secondVideoLayerInstruction.setTransform(secondTransform, at: firstVideoAssetTrack.timeRange.duration)
        firstVideoCompositionInstruction.layerInstructions = [firstVideoLayerInstruction]
        secondVideoCompositionInstruction.layerInstructions = [secondVideoLayerInstruction]
        let mutableVideoComposition = AVMutableVideoComposition()
        mutableVideoComposition.instructions = [firstVideoCompositionInstruction, secondVideoCompositionInstruction]

        // "Setting the Render Size and Frame Duration".
        var naturalSizeFirst: CGSize, naturalSizeSecond: CGSize
        if isFirstVideoPortrait {
            naturalSizeFirst = CGSize(width: firstVideoAssetTrack.naturalSize.height, height: firstVideoAssetTrack.naturalSize.width)
            naturalSizeSecond = CGSize(width: secondVideoAssetTrack.naturalSize.height, height: secondVideoAssetTrack.naturalSize.width)
        } else {
            naturalSizeFirst = firstVideoAssetTrack.naturalSize
            naturalSizeSecond = secondVideoAssetTrack.naturalSize
        }
        let renderWidth = max(naturalSizeFirst.width, naturalSizeSecond.width)
        let renderHeight = max(naturalSizeFirst.height, naturalSizeSecond.height)
        mutableVideoComposition.renderSize = CGSize(width: renderWidth, height: renderHeight)
        mutableVideoComposition.frameDuration = CMTimeMake(value: 1, timescale: 30)

        // "Exporting the Composition" (to a file rather than the camera roll).
        let exporter = try #require(AVAssetExportSession(asset: mutableComposition, presetName: AVAssetExportPresetHighestQuality))
        let url = ExportOracle.outputURL("guide-combined.mov")
        exporter.outputURL = url
        exporter.outputFileType = .mov
        exporter.shouldOptimizeForNetworkUse = true
        exporter.videoComposition = mutableVideoComposition
        await exporter.export()
        try #require(exporter.status == .completed, "\(String(describing: exporter.error))")

        // Upright 240x320 pictures: ffmpeg's decode of each source turned by its matrix (its
        // autorotation of these files is transpose=clock), one after the other.
        let video = try #require(try ExportOracle.streams(url).first { $0["codec_type"] as? String == "video" })
        #expect(video["width"] as? Int == 240 && video["height"] as? Int == 320)
        let ours = try ExportOracle.frames(url, width: 240, height: 320)
        let expected = try ExportOracle.frames(firstVideoAsset.url, width: 240, height: 320, filters: "transpose=clock")
            + ExportOracle.frames(secondVideoAsset.url, width: 240, height: 320, filters: "transpose=clock")
        try #require(ours.count == 120 && expected.count == 120, "ours \(ours.count) frames, expected \(expected.count)")
        #expect(ExportOracle.worstPSNR(ours, expected) >= 35)
        let audio = try #require(try ExportOracle.streams(url).first { $0["codec_type"] as? String == "audio" })
        #expect(abs((Double(audio["duration"] as? String ?? "") ?? 0) - 4) < 0.05)
    }

    @Test func aSourceCutShortFailsTheExportAndLeavesNothing() async throws {
        // A copy of the fixture, inserted whole, then cut to a third behind the composition's back.
        let source = Fixtures.folder.appendingPathComponent("\(UUID().uuidString)-source.mp4")
        try FileManager.default.copyItem(at: try Fixtures.h264AAC(), to: source)
        let composition = AVMutableComposition()
        let asset = AVURLAsset(url: source)
        try composition.insertTimeRange(CMTimeRange(start: .zero, duration: asset.duration), of: asset, at: .zero)
        try composition.insertTimeRange(CMTimeRange(start: .zero, duration: asset.duration), of: asset, at: asset.duration)
        let handle = try FileHandle(forWritingTo: source)
        try handle.truncate(atOffset: UInt64(try FileManager.default.attributesOfItem(atPath: source.path)[.size] as! Int / 3))
        try handle.close()

        let session = try #require(AVAssetExportSession(asset: composition, presetName: AVAssetExportPresetMediumQuality))
        let output = ExportOracle.outputURL("cut-short-composition.mp4")
        session.outputURL = output
        session.outputFileType = .mp4
        session.videoComposition = AVMutableVideoComposition(propertiesOf: composition)
        await session.export()
        #expect(session.status == .failed)
        #expect(session.error is AVError, "\(String(describing: session.error))")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
