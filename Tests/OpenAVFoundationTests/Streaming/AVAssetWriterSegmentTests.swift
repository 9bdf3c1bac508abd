import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// `AVAssetWriter(contentType:)` handing fragmented MP4 segments to its delegate, checked with
/// ffmpeg and ffprobe reading the segments joined, and through a playlist made from the reports.
@Suite(.timeLimit(.minutes(10))) struct AVAssetWriterSegmentTests {
    /// Collects a writer's segments.
    final class Collector: NSObject, AVAssetWriterDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var list: [(data: Data, type: AVAssetSegmentType, report: AVAssetSegmentReport?)] = []
        var segments: [(data: Data, type: AVAssetSegmentType, report: AVAssetSegmentReport?)] { lock.withLock { list } }

        func assetWriter(_ writer: AVAssetWriter, didOutputSegmentData segmentData: Data, segmentType: AVAssetSegmentType,
                         segmentReport: AVAssetSegmentReport?) {
            lock.withLock { list.append((segmentData, segmentType, segmentReport)) }
        }
    }

    /// The 6 s H.264 (a key frame every second, B-frames) + AAC movie.
    static func source() throws -> URL { StreamingFixtures.folder.appendingPathComponent(try StreamingFixtures.progressive()) }

    /// Passes every sample of the source through a segment writer set up by `configure`,
    /// calling `beforeAppending` with each video sample; the samples appended, by track.
    static func passThrough(into writer: AVAssetWriter, beforeAppending: (CMSampleBuffer) -> Void = { _ in }) async throws
        -> (video: [CMSampleBuffer], audio: [CMSampleBuffer]) {
        let asset = AVURLAsset(url: try source())
        let reader = try AVAssetReader(asset: asset)
        let videoTrack = try #require(try await asset.loadTracks(withMediaType: .video).first)
        let audioTrack = try #require(try await asset.loadTracks(withMediaType: .audio).first)
        let videoOut = AVAssetReaderTrackOutput(track: videoTrack, outputSettings: nil)
        let audioOut = AVAssetReaderTrackOutput(track: audioTrack, outputSettings: nil)
        reader.add(videoOut)
        reader.add(audioOut)
        let videoIn = AVAssetWriterInput(mediaType: .video, outputSettings: nil, sourceFormatHint: try await videoTrack.load(.formatDescriptions).first)
        let audioIn = AVAssetWriterInput(mediaType: .audio, outputSettings: nil, sourceFormatHint: try await audioTrack.load(.formatDescriptions).first)
        writer.add(videoIn)
        writer.add(audioIn)
        #expect(reader.startReading())
        #expect(writer.startWriting(), "\(String(describing: writer.error))")
        writer.startSession(atSourceTime: .zero)
        var appended: (video: [CMSampleBuffer], audio: [CMSampleBuffer]) = ([], [])
        // In time order across the tracks, as a capture or a reader hands them on.
        var nextVideo = videoOut.copyNextSampleBuffer(), nextAudio = audioOut.copyNextSampleBuffer()
        while nextVideo != nil || nextAudio != nil {
            if let video = nextVideo, nextAudio.map({ video.decodeTimeStamp <= $0.presentationTimeStamp }) ?? true {
                beforeAppending(video)
                #expect(videoIn.append(video))
                appended.video.append(video)
                nextVideo = videoOut.copyNextSampleBuffer()
            } else if let audio = nextAudio {
                #expect(audioIn.append(audio))
                appended.audio.append(audio)
                nextAudio = audioOut.copyNextSampleBuffer()
            }
        }
        videoIn.markAsFinished()
        audioIn.markAsFinished()
        await writer.finishWriting()
        #expect(writer.status == .completed, "\(String(describing: writer.error))")
        return appended
    }

    static func segmentWriter(interval: CMTime, delegate: Collector) -> AVAssetWriter {
        let writer = AVAssetWriter(contentType: UTType(AVFileType.mp4.rawValue)!)
        writer.outputFileTypeProfile = .mpeg4AppleHLS
        writer.preferredOutputSegmentInterval = interval
        writer.initialSegmentStartTime = .zero
        writer.delegate = delegate
        return writer
    }

    /// The bytes of a sample buffer's data.
    static func bytes(_ sample: CMSampleBuffer) throws -> Data {
        let block = try #require(sample.dataBuffer)
        var data = Data(count: block.dataLength)
        data.withUnsafeMutableBytes { _ = CMBlockBufferCopyDataBytes(block, atOffset: 0, dataLength: block.dataLength, destination: $0.baseAddress!) }
        return data
    }

    /// ffprobe's presentation times of the video frames of a file.
    static func framePTS(_ url: URL) throws -> [CMTime] {
        let base = String(decoding: try Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=time_base",
                                                                 "-of", "csv=p=0", url.path]), as: UTF8.self)
        let scale = try #require(Int32(base.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "/").last ?? ""))
        let text = String(decoding: try Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts",
                                                                 "-of", "csv=p=0", url.path]), as: UTF8.self)
        return text.split(separator: "\n").compactMap { Int64($0.split(separator: ",")[0]) }.map { CMTime(value: $0, timescale: scale) }
    }

    @Test func segmentsEveryTwoSecondsDecodeWithEveryTimeAsAppendedAndPlayThroughAPlaylist() async throws {
        let collector = Collector()
        let writer = Self.segmentWriter(interval: CMTime(value: 2, timescale: 1), delegate: collector)
        let appended = try await Self.passThrough(into: writer)
        let segments = collector.segments
        #expect(segments.map(\.type) == [.initialization, .separable, .separable, .separable])
        // The segments start on the key frames at 0, 2 and 4 s and last 2 s each.
        let videoReports = segments.dropFirst().compactMap { $0.report?.trackReports.first { $0.mediaType == .video } }
        #expect(videoReports.map(\.earliestPresentationTimeStamp.seconds) == [0, 2, 4])
        for report in videoReports {
            #expect(abs(report.duration.seconds - 2) < 0.001)
            #expect(report.trackID == 1)
            #expect(report.firstVideoSampleInformation?.isSyncSample == true)
        }
        #expect(segments.dropFirst().allSatisfy { $0.report?.trackReports.map(\.mediaType) == [.video, .audio] })
        // Each report's first video sample is there in its segment, byte for byte.
        for (segment, report) in zip(segments.dropFirst(), videoReports) {
            let info = try #require(report.firstVideoSampleInformation)
            let sample = try #require(appended.video.first { $0.presentationTimeStamp == info.presentationTimeStamp })
            let expected = try Self.bytes(sample)
            #expect(info.length == expected.count)
            #expect(segment.data.subdata(in: info.offset..<(info.offset + info.length)) == expected)
        }
        // Joined, they are one movie ffmpeg decodes with every frame at its appended time.
        let folder = Fixtures.folder.appendingPathComponent("segments-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let joined = folder.appendingPathComponent("joined.mp4")
        try segments.reduce(Data()) { $0 + $1.data }.write(to: joined)
        let expectedTimes = appended.video.map(\.presentationTimeStamp).sorted()
        let decoded = try Self.framePTS(joined)
        #expect(decoded.count == expectedTimes.count)
        #expect(zip(decoded, expectedTimes).allSatisfy { $0 == $1 }, "\(decoded.prefix(4)) against \(expectedTimes.prefix(4))")
        // A playlist made from the reports plays in ffmpeg, every frame.
        try segments[0].data.write(to: folder.appendingPathComponent("init.mp4"))
        var playlist = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-MAP:URI=\"init.mp4\"\n"
        for (index, (segment, report)) in zip(segments.dropFirst(), videoReports).enumerated() {
            try segment.data.write(to: folder.appendingPathComponent("\(index).m4s"))
            playlist += "#EXTINF:\(report.duration.seconds),\n\(index).m4s\n"
        }
        playlist += "#EXT-X-ENDLIST\n"
        let playlistURL = folder.appendingPathComponent("playlist.m3u8")
        try playlist.write(to: playlistURL, atomically: true, encoding: .utf8)
        let counted = String(decoding: try Fixtures.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                                                    "stream=nb_read_frames", "-of", "csv=p=0", playlistURL.path]), as: UTF8.self)
        #expect(counted.split(separator: "\n").first.map(String.init) == "\(appended.video.count)", "\(counted)")
    }

    @Test func anIndefiniteIntervalCutsOnlyAtFlushSegment() async throws {
        let collector = Collector()
        let writer = Self.segmentWriter(interval: .indefinite, delegate: collector)
        var keyFrames = 0
        let appended = try await Self.passThrough(into: writer) { video in
            // Before every key frame but the first: one segment per second.
            if video.isSyncSample(at: 0) {
                if keyFrames > 0 { writer.flushSegment() }
                keyFrames += 1
            }
        }
        let segments = collector.segments
        #expect(segments.count == 1 + keyFrames)
        let starts = segments.dropFirst().compactMap { $0.report?.trackReports.first { $0.mediaType == .video }?.earliestPresentationTimeStamp }
        let keyTimes = appended.video.filter { $0.isSyncSample(at: 0) }.map(\.presentationTimeStamp)
        #expect(starts == keyTimes)
    }

    /// Pictures encoded into segments of 2 s, with at most 60 pictures (2 s) between key frames,
    /// from a clip whose scene changes at 1.9 s and 3.9 s: the encoder puts a key frame at each
    /// scene change, which would move its next one past 2 s (and 4 s), but the segments still
    /// start at 0, 2 and 4 s, each on a key frame, as ffprobe reads the joined segments.
    @Test func encodedSegmentsStartWhereTheyAreDueDespiteSceneChanges() async throws {
        let clip = try Fixtures.make("scene-changes.mp4", [
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=1.9", "-f", "lavfi", "-i", "rgbtestsrc=size=320x240:rate=30:duration=2",
            "-f", "lavfi", "-i", "smptebars=size=320x240:rate=30:duration=2.1",
            "-filter_complex", "[0:v][1:v][2:v]concat=n=3:v=1:a=0,trim=duration=6", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
        ])
        let asset = AVURLAsset(url: clip)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: try #require(try await asset.loadTracks(withMediaType: .video).first),
                                              outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8Planar])
        reader.add(output)
        let collector = Collector()
        let writer = Self.segmentWriter(interval: CMTime(value: 2, timescale: 1), delegate: collector)
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: [
            AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 320, AVVideoHeightKey: 240,
            AVVideoCompressionPropertiesKey: [AVVideoMaxKeyFrameIntervalKey: 60, AVVideoExpectedSourceFrameRateKey: 30],
        ])
        writer.add(input)
        #expect(reader.startReading() && writer.startWriting())
        writer.startSession(atSourceTime: .zero)
        while let sample = output.copyNextSampleBuffer() { #expect(input.append(sample)) }
        input.markAsFinished()
        await writer.finishWriting()
        #expect(writer.status == .completed, "\(String(describing: writer.error))")
        let starts = collector.segments.dropFirst().compactMap { $0.report?.trackReports.first?.earliestPresentationTimeStamp.seconds }
        #expect(starts == [0, 2, 4])
        // The joined segments' key frames, by ffprobe: at 0, 2 and 4 s, and at the scene changes.
        let joined = Fixtures.folder.appendingPathComponent("scene-segments-\(UUID().uuidString).mp4")
        defer { try? FileManager.default.removeItem(at: joined) }
        try collector.segments.reduce(Data()) { $0 + $1.data }.write(to: joined)
        let text = String(decoding: try Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time,key_frame",
                                                                 "-of", "csv=p=0", joined.path]), as: UTF8.self)
        let keyTimes = text.split(separator: "\n").compactMap { line -> Double? in
            let fields = line.split(separator: ",")
            return fields.count == 2 && fields[0] == "1" ? Double(fields[1]) : nil
        }
        #expect([0.0, 2.0, 4.0].allSatisfy { time in keyTimes.contains { abs($0 - time) < 0.001 } }, "\(keyTimes)")
    }

    @Test func aSegmentWriterWithoutItsProfileOrDelegateFailsToStart() throws {
        let missingProfile = AVAssetWriter(contentType: .mpeg4Movie)
        let collector = Collector()
        missingProfile.delegate = collector
        missingProfile.add(AVAssetWriterInput(mediaType: .audio, outputSettings: nil))
        #expect(!missingProfile.startWriting())
        #expect((missingProfile.error as? AVError)?.code == .incorrectlyConfigured)
        let missingDelegate = AVAssetWriter(contentType: .mpeg4Movie)
        missingDelegate.outputFileTypeProfile = .mpeg4CMAFCompliant
        missingDelegate.add(AVAssetWriterInput(mediaType: .audio, outputSettings: nil))
        #expect(!missingDelegate.startWriting())
        #expect((missingDelegate.error as? AVError)?.code == .incorrectlyConfigured)
        #expect(UTType("public.mpeg-4") == .mpeg4Movie && UTType.mpeg4Movie.conforms(to: .movie))
        #expect(UTType(filenameExtension: "mov") == .quickTimeMovie)
    }

    /// A delegate that holds the first segment until let go, and what it received.
    final class SlowDelegate: NSObject, AVAssetWriterDelegate, @unchecked Sendable {
        private let condition = NSCondition()
        private var holding = true
        private var list: [Data] = []
        var received: [Data] { condition.withLock { list } }

        func assetWriter(_ writer: AVAssetWriter, didOutputSegmentData segmentData: Data, segmentType: AVAssetSegmentType,
                         segmentReport: AVAssetSegmentReport?) {
            condition.withLock {
                list.append(segmentData)
                while holding { condition.wait() }
            }
        }

        func letGo() {
            condition.withLock {
                holding = false
                condition.broadcast()
            }
        }
    }

    /// How many calls returned, for waiting on them.
    final class Returns: @unchecked Sendable {
        private let condition = NSCondition()
        private var count = 0

        func add() {
            condition.withLock {
                count += 1
                condition.broadcast()
            }
        }

        /// Whether `count` calls returned within `seconds`.
        func wait(for count: Int, seconds: Double) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            return condition.withLock {
                while self.count < count { guard condition.wait(until: deadline) else { return self.count >= count } }
                return true
            }
        }
    }

    /// The segments hand-off blocks: while the delegate holds the first segment, the muxer's
    /// thread hands on `SegmentDelivery.limits.count` more and then waits for room (nothing is
    /// dropped, and the delegate then gets every segment in order, the work queued after them
    /// last); cancelling the writer ends such a wait, dropping the segment that waited.
    @Test(arguments: [false, true]) func aDelegateThatFallsBehindMakesTheMuxerWaitUntilCancelled(cancelling: Bool) throws {
        let delegate = SlowDelegate()
        let writer = AVAssetWriter(contentType: UTType(AVFileType.mp4.rawValue)!)
        writer.delegate = delegate
        let delivery = SegmentDelivery(writer: writer, tracks: [])
        let limit = SegmentDelivery.limits.count
        let returns = Returns()
        let muxer = Thread {
            for index in 0...(limit + 1) {
                delivery.deliver(Data([UInt8(index % 256), 1, 2, 3]), isInitialization: index == 0, summaries: [])
                returns.add()
            }
        }
        muxer.start()
        #expect(returns.wait(for: limit + 1, seconds: 30), "the first segment and \(limit) waiting are handed on at once")
        // Nothing happens to end the wait but the delegate or a cancel: half a second shows it lasts.
        #expect(!returns.wait(for: limit + 2, seconds: 0.5), "the muxer waits for room")
        if cancelling {
            delivery.cancel()
            #expect(returns.wait(for: limit + 2, seconds: 30), "a cancel ends the wait")
        }
        delegate.letGo()
        #expect(returns.wait(for: limit + 2, seconds: 30))
        let finished = Returns()
        delivery.afterDelivered { finished.add() }
        #expect(finished.wait(for: 1, seconds: 30))
        let expected = (0...(cancelling ? limit : limit + 1)).map { Data([UInt8($0 % 256), 1, 2, 3]) }
        #expect(delegate.received == expected)
    }
}
