import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// AVAssetExportSession: the guide's example, trims against ffmpeg's decode, progress, and
/// every fault the export must survive.
@Suite(HeavyLoad.Scope(), .timeLimit(.minutes(10))) struct AVAssetExportSessionTests {
    /// 6 s of 640x360 at 25 fps, H.264 with B-frames and a key frame every second, with AAC.
    static func clip() throws -> URL {
        try Fixtures.make("export-clip.mp4", [
            "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
            "-t", "6", "-ac", "2", "-c:v", "libx264", "-bf", "2", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac",
            "-metadata", "title=Export Test", "-metadata", "location=+48.8577+002.2950/",
        ])
    }

    @Test func guideTrimmingAndTranscodingAMovie() async throws {
        // "Trimming and Transcoding a Movie": check the preset, set the URL, type and time
        // range, export asynchronously and switch on the status.
        let anAsset = AVURLAsset(url: try Self.clip())
        let compatiblePresets = AVAssetExportSession.exportPresets(compatibleWith: anAsset)
        try #require(compatiblePresets.contains(AVAssetExportPresetLowQuality))
        let exportSession = try #require(AVAssetExportSession(asset: anAsset, presetName: AVAssetExportPresetLowQuality))
        let url = ExportOracle.outputURL("guide.mov")
        exportSession.outputURL = url
        exportSession.outputFileType = .mov
        let start = CMTimeMakeWithSeconds(1.0, preferredTimescale: 600)
        let duration = CMTimeMakeWithSeconds(3.0, preferredTimescale: 600)
        exportSession.timeRange = CMTimeRangeMake(start: start, duration: duration)
        let outcome: AVAssetExportSession.Status = await withCheckedContinuation { done in
            exportSession.exportAsynchronously {
                switch exportSession.status {
                case .failed: done.resume(returning: .failed)
                case .cancelled: done.resume(returning: .cancelled)
                default: done.resume(returning: exportSession.status)
                }
            }
        }
        #expect(outcome == .completed, "\(String(describing: exportSession.error))")
        #expect(abs(try ExportOracle.duration(url) - 3) < 0.03)
        #expect(try ExportOracle.streams(url).first?["width"] as? Int == 224)
        #expect(try ExportOracle.frameTimes(url).count == 75)
    }

    @Test func passthroughTrimIsFrameExact() async throws {
        let source = try Self.clip()
        // 1.32 s is frame 33, between the key frames at 1 s and 2 s; B-frames on both sides.
        let (session, url) = try await ExportOracle.export(source, preset: AVAssetExportPresetPassthrough, fileType: .mp4, name: "trim.mp4") {
            $0.timeRange = CMTimeRange(start: CMTime(value: 33, timescale: 25), duration: CMTime(value: 50, timescale: 25))
        }
        try #require(session.status == .completed, "\(String(describing: session.error))")
        #expect(abs(try ExportOracle.duration(url) - 2) < 0.001)
        let frames = try ExportOracle.frames(url, width: 640, height: 360)
        let sourceFrames = try ExportOracle.frames(source, width: 640, height: 360)
        try #require(frames.count == 50, "decoded \(frames.count) frames")
        // The very same pictures: nothing was re-encoded.
        #expect(frames == Array(sourceFrames[33..<83]))
        #expect(try ExportOracle.frameTimes(url).first == 0)
        // The stored packets are the source's, byte for byte, in order.
        let packets = try ExportOracle.packetHashes(url, stream: "v:0")
        let sourcePackets = try ExportOracle.packetHashes(source, stream: "v:0")
        let first = try #require(sourcePackets.firstIndex(of: packets[0]))
        #expect(Array(sourcePackets[first..<first + packets.count]) == packets)
        #expect(try ExportOracle.packetHashes(url, stream: "a:0").allSatisfy(Set(try ExportOracle.packetHashes(source, stream: "a:0")).contains))

        // The asset agrees with ffprobe on the duration and the first picture.
        let asset = AVURLAsset(url: url)
        #expect(try await asset.load(.duration) == CMTime(value: 2, timescale: 1))
        let track = try #require(try await asset.loadTracks(withMediaType: .video).first)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8Planar])
        reader.add(output)
        reader.startReading()
        let firstSample = try #require(output.copyNextSampleBuffer())
        #expect(firstSample.presentationTimeStamp == .zero)
        #expect(PixelComparison.rawVideo(try #require(firstSample.imageBuffer)) == sourceFrames[33])
        reader.cancelReading()
    }

    @Test func reencodedTrimStartsAtTheAskedFrame() async throws {
        let source = try Self.clip()
        let (session, url) = try await ExportOracle.export(source, preset: AVAssetExportPreset1280x720, fileType: .mp4, name: "trim-encoded.mp4") {
            $0.timeRange = CMTimeRange(start: CMTime(value: 33, timescale: 25), duration: CMTime(value: 50, timescale: 25))
        }
        try #require(session.status == .completed, "\(String(describing: session.error))")
        #expect(abs(try ExportOracle.duration(url) - 2) < 0.03)
        let times = try ExportOracle.frameTimes(url)
        #expect(times.count == 50 && times.first == 0)
        let frames = try ExportOracle.frames(url, width: 640, height: 360)
        let sourceFrames = try ExportOracle.frames(source, width: 640, height: 360)
        try #require(frames.count == 50)
        for (index, frame) in frames.enumerated() {
            let psnr = PixelComparison.psnr(frame, sourceFrames[33 + index])
            // The right frame, not a neighbour: each source frame differs from the next.
            let neighbour = PixelComparison.psnr(frame, sourceFrames[34 + index])
            #expect(psnr >= 35 && psnr > neighbour + 3, "frame \(index): \(psnr) dB, next frame \(neighbour) dB")
        }
    }

    @Test func sizePresetsFitTheBoxAndNeverUpscale() async throws {
        #expect(ExportPreset.fittedSize(width: 1920, height: 1080, box: (640, 480)) == (640, 360))
        #expect(ExportPreset.fittedSize(width: 1280, height: 720, box: (1920, 1080)) == (1280, 720))
        #expect(ExportPreset.fittedSize(width: 1080, height: 1920, box: (1280, 720)) == (720, 1280))
        #expect(ExportPreset.fittedSize(width: 640, height: 480, box: (568, 320)) == (426, 320))
        let wide = try Fixtures.make("export-720p.mp4", ["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-t", "1", "-c:v", "libx264"])
        let (session, url) = try await ExportOracle.export(wide, preset: AVAssetExportPreset640x480, fileType: .mp4, name: "640.mp4")
        try #require(session.status == .completed)
        let video = try #require(try ExportOracle.streams(url).first)
        #expect(video["width"] as? Int == 640 && video["height"] as? Int == 360)
        let psnr = ExportOracle.worstPSNR(try ExportOracle.frames(url, width: 640, height: 360),
                                          try ExportOracle.frames(wide, width: 640, height: 360))
        #expect(psnr >= 35, "\(psnr) dB")
    }

    @Test func progressOnlyGrowsAndEndsAtOne() async throws {
        let source = try Self.clip()
        let session = try #require(AVAssetExportSession(asset: AVURLAsset(url: source), presetName: AVAssetExportPreset960x540))
        session.outputURL = ExportOracle.outputURL("progress.mp4")
        session.outputFileType = .mp4
        // Progress as another thread sees it, sampled until the export ends.
        let samples = ProgressSamples()
        let watcher = Thread {
            while !samples.stopped {
                samples.add(session.progress)
                usleep(2000)  // the sampling period, a duration: progress is looked at every 2 ms
            }
        }
        watcher.start()
        let sequence = session.states(updateInterval: 0.05)
        let states = Task { () -> [AVAssetExportSession.State] in
            var seen: [AVAssetExportSession.State] = []
            for await state in sequence { seen.append(state) }
            return seen
        }
        await session.export()
        samples.stop()
        #expect(session.status == .completed)
        #expect(session.progress == 1)
        let seen = samples.values
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 <= $1 }, "progress went back")
        #expect(seen.contains { $0 > 0 && $0 < 1 }, "no progress between 0 and 1 was seen")
        // The sequence ended by itself when the export did, after reporting progress.
        let seenStates = await states.value
        let fractions = seenStates.compactMap { state -> Double? in
            if case .exporting(let progress) = state { return progress.fractionCompleted }
            return nil
        }
        #expect(!fractions.isEmpty && zip(fractions, fractions.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func aSessionNotStartedIsPending() async throws {
        let session = try #require(AVAssetExportSession(asset: AVURLAsset(url: try Self.clip()), presetName: AVAssetExportPresetPassthrough))
        var states = session.states().makeAsyncIterator()
        guard case .pending = await states.next() else {
            Issue.record("a new session's first state is not pending")
            return
        }
        #expect(session.status == .unknown && session.progress == 0 && session.error == nil)
    }

    @Test func existingFileIsNeverOverwritten() async throws {
        let url = ExportOracle.outputURL("existing.mp4")
        try Data("keep me".utf8).write(to: url)
        let session = try #require(AVAssetExportSession(asset: AVURLAsset(url: try Self.clip()), presetName: AVAssetExportPresetPassthrough))
        session.outputURL = url
        session.outputFileType = .mp4
        await session.export()
        #expect(session.status == .failed)
        #expect((session.error as? AVError)?.code == .fileAlreadyExists)
        #expect(try String(contentsOf: url, encoding: .utf8) == "keep me")
    }

    @Test func unsupportedPresetAndFileTypeFailClearly() async throws {
        let asset = AVURLAsset(url: try Self.clip())
        #expect(await AVAssetExportSession.compatibility(ofExportPreset: AVAssetExportPresetAppleM4A, with: asset, outputFileType: .mov) == false)
        #expect(await AVAssetExportSession.compatibility(ofExportPreset: AVAssetExportPresetAppleProRes422LPCM, with: asset, outputFileType: .mp4) == false)
        #expect(await AVAssetExportSession.compatibility(ofExportPreset: AVAssetExportPresetAppleProRes422LPCM, with: asset, outputFileType: .mov))
        #expect(AVAssetExportSession(asset: asset, presetName: "NoSuchPreset") == nil)
        let session = try #require(AVAssetExportSession(asset: asset, presetName: AVAssetExportPresetAppleProRes422LPCM))
        #expect(await session.compatibleFileTypes == [.mov])
        let url = ExportOracle.outputURL("prores.mp4")
        session.outputURL = url
        session.outputFileType = .mp4
        await session.export()
        #expect(session.status == .failed)
        #expect((session.error as? AVError)?.code == .operationNotSupportedForPreset)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        // A video-only asset has no audio to export as M4A.
        let silent = AVURLAsset(url: try Fixtures.make("export-silent.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "1", "-c:v", "libx264"]))
        #expect(!AVAssetExportSession.exportPresets(compatibleWith: silent).contains(AVAssetExportPresetAppleM4A))
    }

    @Test func fullDiskFailsAndLeavesNothing() async throws {
        // A real file system that fills up: the partial file is removed.
        let folder = Fixtures.folder.appendingPathComponent("small-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = try Fixtures.run("mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", folder.path])
        defer { _ = try? Fixtures.run("umount", [folder.path]) }
        let session = try #require(AVAssetExportSession(asset: AVURLAsset(url: try Self.clip()), presetName: AVAssetExportPresetHighestQuality))
        session.outputURL = folder.appendingPathComponent("out.mp4")
        session.outputFileType = .mp4
        await session.export()
        #expect(session.status == .failed)
        #expect((session.error as? AVError)?.code == .diskFull, "\(String(describing: session.error))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func cancelStopsPromptlyAndRemovesTheFile() async throws {
        let source = try Fixtures.make("export-long.mp4", ["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-t", "20", "-c:v", "libx264", "-preset", "ultrafast"])
        let session = try #require(AVAssetExportSession(asset: AVURLAsset(url: source), presetName: AVAssetExportPresetHighestQuality))
        let url = ExportOracle.outputURL("cancelled.mp4")
        session.outputURL = url
        session.outputFileType = .mp4
        // The time the completion handler runs: what the export promises, whatever the test
        // runner's own threads are doing.
        let ended = TimeBox()
        let finished = Task {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                session.exportAsynchronously {
                    ended.time = Date()
                    done.resume()
                }
            }
        }
        // Cancel once the export is under way and has written something.
        let cancelled = Self.whenProgress(of: session, passes: 0.05) { session.cancelExport() }
        await finished.value
        let took = try #require(ended.time).timeIntervalSince(try #require(cancelled.time))
        #expect(took < 2, "cancelling took \(took) s")
        #expect(session.status == .cancelled)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        do {
            try await session.export(to: ExportOracle.outputURL("again.mp4"), as: .mp4)
            Issue.record("a finished session exported again")
        } catch {}
    }

    /// Runs `action` on a thread of its own as soon as the export's progress passes
    /// `fraction`, and records when: the test runner's shared threads, which other suites may
    /// keep busy, play no part in when it happens.
    static func whenProgress(of session: AVAssetExportSession, passes fraction: Float,
                             _ action: @escaping @Sendable () -> Void) -> TimeBox {
        let fired = TimeBox()
        Thread {
            // Progress gives no notice (`states(updateInterval:)` itself samples it, on the runner's
            // threads): it is polled, until it passes the fraction or the export ends.
            while session.progress <= fraction && [.unknown, .waiting, .exporting].contains(session.status) { usleep(1000) }
            fired.time = Date()
            action()
        }.start()
        return fired
    }

    @Test func exportToThrowsCancellationWhenTheTaskIsCancelled() async throws {
        let source = try Fixtures.make("export-long.mp4", ["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-t", "20", "-c:v", "libx264", "-preset", "ultrafast"])
        let session = try #require(AVAssetExportSession(asset: AVURLAsset(url: source), presetName: AVAssetExportPresetHighestQuality))
        let url = ExportOracle.outputURL("task-cancelled.mp4")
        let task = Task { try await session.export(to: url, as: .mp4) }
        _ = Self.whenProgress(of: session, passes: 0.02) { task.cancel() }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(session.status == .cancelled)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func corruptSourceFailsWithTheDecodeError() async throws {
        // The clip with its media data zeroed: the movie header is intact, so it opens, and no
        // packet decodes.
        let source = try Self.clip()
        var bytes = try Data(contentsOf: source)
        let mdat = try #require(bytes.range(of: Data("mdat".utf8)))
        let size = bytes[mdat.lowerBound - 4..<mdat.lowerBound].reduce(0) { $0 << 8 | Int($1) }
        let end = mdat.lowerBound - 4 + size
        bytes.replaceSubrange(mdat.upperBound..<end, with: Data(count: end - mdat.upperBound))
        let corrupt = ExportOracle.outputURL("corrupt.mp4")
        try bytes.write(to: corrupt)
        let (session, url) = try await ExportOracle.export(corrupt, preset: AVAssetExportPreset640x480, fileType: .mp4, name: "from-corrupt.mp4")
        #expect(session.status == .failed)
        #expect((session.error as? AVError)?.code == .decodeFailed, "\(String(describing: session.error))")
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func fileLengthLimitKeepsAPlayableFileUnderIt() async throws {
        let limit: Int64 = 400_000
        let (session, url) = try await ExportOracle.export(try Self.clip(), preset: AVAssetExportPresetHighestQuality, fileType: .mp4, name: "limited.mp4") {
            $0.fileLengthLimit = limit
            #expect($0.estimatedOutputFileLength == limit)
            #expect($0.maxDuration < CMTime(value: 6, timescale: 1))
        }
        try #require(session.status == .completed, "\(String(describing: session.error))")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int64)
        #expect(size <= limit && size > limit / 3, "\(size) bytes")
        // Playable: ffmpeg decodes every frame without an error, and it is shorter than the source.
        let duration = try ExportOracle.duration(url)
        #expect(duration > 0.5 && duration < 6)
        #expect(try ExportOracle.frameTimes(url).count > 10)
        _ = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-xerror", "-i", url.path, "-f", "null", "-"])
    }

    @Test func estimatesFollowThePreset() throws {
        let session = try #require(AVAssetExportSession(asset: AVURLAsset(url: try Self.clip()), presetName: AVAssetExportPreset960x540))
        // 640x360 at 25 fps and 0.15 bits per pixel, and 160 kbit/s of AAC, for 6 s.
        let expected = (640.0 * 360 * 25 * 0.15 + 160_000) / 8 * 6
        #expect(abs(Double(session.estimatedOutputFileLength) - expected) < expected * 0.01)
        #expect(session.maxDuration == CMTime(value: 6, timescale: 1))
    }

    @Test func metadataIsCopiedAndFilteredForSharing() async throws {
        let source = try Self.clip()
        let (kept, keptURL) = try await ExportOracle.export(source, preset: AVAssetExportPresetPassthrough, fileType: .mp4, name: "kept.mp4")
        try #require(kept.status == .completed)
        let keptTags = try #require(try Fixtures.probe(keptURL)["format"] as? [String: Any])["tags"] as? [String: Any]
        #expect(keptTags?["title"] as? String == "Export Test")
        #expect(keptTags?["location"] as? String != nil)

        let (shared, sharedURL) = try await ExportOracle.export(source, preset: AVAssetExportPresetPassthrough, fileType: .mp4, name: "shared.mp4") {
            $0.metadataItemFilter = .forSharing()
        }
        try #require(shared.status == .completed)
        let sharedTags = try #require(try Fixtures.probe(sharedURL)["format"] as? [String: Any])["tags"] as? [String: Any]
        #expect(sharedTags?["title"] as? String == "Export Test")
        #expect(sharedTags?["location"] == nil)
    }

    @Test func fileTypeFollowsTheExtensionWhenNotSet() async throws {
        let session = try #require(AVAssetExportSession(asset: AVURLAsset(url: try Self.clip()), presetName: AVAssetExportPresetAppleM4A))
        let url = ExportOracle.outputURL("inferred.m4a")
        session.outputURL = url
        await session.export()
        #expect(session.status == .completed, "\(String(describing: session.error))")
        let streams = try ExportOracle.streams(url)
        #expect(streams.map { $0["codec_name"] as? String } == ["aac"])
    }
}

/// A time recorded on one thread and read on another after a hand-off.
final class TimeBox: @unchecked Sendable {
    var time: Date?
}

/// Progress values seen by a watching thread.
final class ProgressSamples: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [Float] = []
    private var done = false

    func add(_ value: Float) { lock.withLock { seen.append(value) } }
    func stop() { lock.withLock { done = true } }
    var stopped: Bool { lock.withLock { done } }
    var values: [Float] { lock.withLock { seen } }
}
