import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Samples read by AVAssetReader checked against ffprobe's packet and frame lists and ffmpeg's
/// own decode.
@Suite(.timeLimit(.minutes(10))) struct AVAssetReaderTests {
    /// ffprobe's entries for one stream: each line's comma-separated fields.
    static func probeEntries(_ url: URL, stream: Int, section: String, fields: String) throws -> [[String]] {
        let data = try Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "\(stream)", "-show_entries",
                                                "\(section)=\(fields)", "-of", "csv=p=0", url.path])
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            .filter { !$0.isEmpty && !$0[0].isEmpty }
    }

    /// A time in a stream's time base, as ffprobe prints it in units.
    static func time(_ units: String, _ timeBase: (Int64, Int32)) -> CMTime {
        guard let value = Int64(units) else { return .invalid }
        return CMTime(value: value * timeBase.0, timescale: timeBase.1)
    }

    /// The video stream's time base of the standard fixture (12800 for 25 fps in MP4).
    static func timeBase(_ url: URL, stream: Int) throws -> (Int64, Int32) {
        let streams = try #require(try Fixtures.probe(url)["streams"] as? [[String: Any]])
        let parts = try #require((streams[stream]["time_base"] as? String)?.split(separator: "/").compactMap { Int64($0) })
        return (parts[0], Int32(parts[1]))
    }

    static func readAll(_ output: AVAssetReaderOutput) -> [CMSampleBuffer] {
        var samples: [CMSampleBuffer] = []
        while let sample = output.copyNextSampleBuffer() { samples.append(sample) }
        return samples
    }

    @Test func guideReadingAnAssetExample() throws {
        // "Reading an Asset": create the reader, add a video output decoding to a pixel format,
        // read every sample, and handle the end by status.
        let someAsset = AVURLAsset(url: try Fixtures.h264AAC())
        let assetReader: AVAssetReader
        do {
            assetReader = try AVAssetReader(asset: someAsset)
        }
        let videoTracks = someAsset.tracks(withMediaType: .video)
        let videoTrack = try #require(videoTracks.first)
        let decompressionVideoSettings: [String: Any] = [
            kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_422YpCbCr8,
            kCVPixelBufferIOSurfacePropertiesKey as String: [String: Any](),
        ]
        let trackOutput = AVAssetReaderTrackOutput(track: videoTrack, outputSettings: decompressionVideoSettings)
        if assetReader.canAdd(trackOutput) { assetReader.add(trackOutput) }
        #expect(assetReader.startReading())
        var done = false
        var count = 0
        while !done {
            if let sampleBuffer = trackOutput.copyNextSampleBuffer() {
                let pixelBuffer = try #require(CMSampleBufferGetImageBuffer(sampleBuffer))
                #expect(CVPixelBufferGetPixelFormatType(pixelBuffer) == kCVPixelFormatType_422YpCbCr8)
                count += 1
            } else {
                switch assetReader.status {
                case .completed: done = true
                case .failed: Issue.record("reading failed: \(String(describing: assetReader.error))"); done = true
                default: done = true
                }
            }
        }
        #expect(count == 50)
        #expect(assetReader.status == .completed)
    }

    @Test func decodedVideoHasFFprobesFrameTimes() throws {
        let url = try Fixtures.h264AAC()
        let asset = AVURLAsset(url: url)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: asset.tracks(withMediaType: .video)[0],
                                              outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        output.alwaysCopiesSampleData = false
        reader.add(output)
        reader.startReading()
        let samples = Self.readAll(output)
        let timeBase = try Self.timeBase(url, stream: 0)
        let expected = try Self.probeEntries(url, stream: 0, section: "frame", fields: "best_effort_timestamp")
            .map { Self.time($0[0], timeBase) }
        #expect(samples.map(\.presentationTimeStamp) == expected)
        #expect(samples.allSatisfy { $0.duration == CMTime(value: 1, timescale: 25) })
        #expect(reader.status == .completed)

        // Pixels: the first frame against ffmpeg's own BGRA decode.
        let reference = [UInt8](try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-frames:v", "1",
                                                            "-pix_fmt", "bgra", "-f", "rawvideo", "-"]))
        let pixels = try #require(samples.first?.imageBuffer)
        #expect(PixelComparison.psnr(PixelComparison.packed(pixels, bytesPerPixel: 4), reference) >= 40)
    }

    @Test func passthroughHasFFprobesPacketsExactly() throws {
        let url = try Fixtures.h264AAC()
        let asset = AVURLAsset(url: url)
        let reader = try AVAssetReader(asset: asset)
        let video = AVAssetReaderTrackOutput(track: asset.tracks(withMediaType: .video)[0], outputSettings: nil)
        let audio = AVAssetReaderTrackOutput(track: asset.tracks(withMediaType: .audio)[0], outputSettings: nil)
        reader.add(video)
        reader.add(audio)
        reader.startReading()
        // Read the two outputs alternately, as two queues would.
        var videoSamples: [CMSampleBuffer] = [], audioSamples: [CMSampleBuffer] = []
        var videoDone = false, audioDone = false
        while !(videoDone && audioDone) {
            if !videoDone { if let s = video.copyNextSampleBuffer() { videoSamples.append(s) } else { videoDone = true } }
            if !audioDone { if let s = audio.copyNextSampleBuffer() { audioSamples.append(s) } else { audioDone = true } }
        }
        for (index, samples) in [(0, videoSamples), (1, audioSamples)] {
            let timeBase = try Self.timeBase(url, stream: index)
            // ffprobe prints these fields in its own order: pts, dts, duration, size, flags.
            let packets = try Self.probeEntries(url, stream: index, section: "packet", fields: "pts,dts,duration,size,flags")
            #expect(samples.count == packets.count)
            for (sample, packet) in zip(samples, packets) {
                #expect(sample.presentationTimeStamp == Self.time(packet[0], timeBase))
                #expect(sample.decodeTimeStamp == Self.time(packet[1], timeBase))
                #expect(sample.duration == Self.time(packet[2], timeBase))
                #expect(sample.totalSampleSize == Int(packet[3]))
                let notSync = (CMSampleBufferGetSampleAttachmentsArray(sample, createIfNecessary: false) as? [[String: Any]])?
                    .first?[kCMSampleAttachmentKey_NotSync as String] as? Bool ?? false
                #expect(notSync == !packet[4].hasPrefix("K"))
            }
        }
        #expect(videoSamples.first?.formatDescription?.mediaSubType == .h264)
        #expect(reader.status == .completed)
    }

    /// The first reader of an asset reads through the demuxer that loaded it; later readers,
    /// and readers of an asset whose load scanned every packet, open the file again. Each reads
    /// every packet ffprobe lists.
    @Test func everyReaderOfAnAssetReadsEveryPacketWhicheverDemuxerItUses() throws {
        let url = try Fixtures.h264AAC()
        let packets = try Self.probeEntries(url, stream: 0, section: "packet", fields: "pts")
        func readVideo(_ asset: AVURLAsset) throws -> Int {
            let reader = try AVAssetReader(asset: asset)
            let output = AVAssetReaderTrackOutput(track: asset.tracks(withMediaType: .video)[0], outputSettings: nil)
            reader.add(output)
            #expect(reader.startReading())
            let count = Self.readAll(output).count
            #expect(reader.status == .completed)
            return count
        }
        let asset = AVURLAsset(url: url)
        #expect(try readVideo(asset) == packets.count)
        // The first reader took the loading demuxer.
        guard case .success(let contents) = asset.loader.contentsBlocking() else { Issue.record("not loaded"); return }
        #expect(contents.spares.takeDemuxer(seeking: false) == nil)
        #expect(try readVideo(asset) == packets.count)
        let precise = AVURLAsset(url: url, options: [AVURLAssetPreferPreciseDurationAndTimingKey: true])
        #expect(try readVideo(precise) == packets.count)
    }

    @Test func audioDecodesToPCMOfTheAskedFormat() throws {
        let url = try Fixtures.h264AAC()
        let asset = AVURLAsset(url: url)
        let reader = try AVAssetReader(asset: asset)
        let settings: [String: Any] = [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 48000, AVNumberOfChannelsKey: 2,
                                       AVLinearPCMBitDepthKey: 16, AVLinearPCMIsFloatKey: false,
                                       AVLinearPCMIsBigEndianKey: false, AVLinearPCMIsNonInterleaved: false]
        let output = AVAssetReaderTrackOutput(track: asset.tracks(withMediaType: .audio)[0], outputSettings: settings)
        reader.add(output)
        reader.startReading()
        let samples = Self.readAll(output)
        let frames = samples.reduce(0) { $0 + $1.numSamples }
        let reference = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-f", "s16le", "-ac", "2", "-ar", "48000", "-"])
        #expect(frames == reference.count / 4)
        let asbd = try #require(samples.first?.formatDescription?.audioStreamBasicDescription)
        #expect(asbd.mSampleRate == 48000 && asbd.mChannelsPerFrame == 2 && asbd.mBitsPerChannel == 16)
        // Continuous, exact timestamps.
        var next = try #require(samples.first?.presentationTimeStamp)
        for sample in samples {
            #expect(sample.presentationTimeStamp == next)
            next = sample.presentationTimeStamp + CMTime(value: Int64(sample.numSamples), timescale: 48000)
        }
        #expect(reader.status == .completed)
    }

    /// Decoded audio is cut to the time range at the exact sample, at both ends, as Apple's
    /// reader cuts it (AAC packets of 1024 samples straddle both ends of a 0.5–1.5 s range at
    /// 44.1 kHz): 44,100 samples from sample 22,050, ffmpeg's decode there.
    @Test func decodedAudioIsCutToTheTimeRangeAtTheExactSample() throws {
        let url = try Fixtures.make("aac-44100.m4a", [
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100", "-t", "3", "-c:a", "aac",
        ])
        let reference = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-f", "f32le", "-ac", "1", "-"])
            .withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let asset = AVURLAsset(url: url)
        let reader = try AVAssetReader(asset: asset)
        reader.timeRange = CMTimeRange(start: CMTime(value: 1, timescale: 2), duration: CMTime(value: 1, timescale: 1))
        let output = AVAssetReaderTrackOutput(track: asset.tracks(withMediaType: .audio)[0], outputSettings: [
            AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 44100, AVNumberOfChannelsKey: 1,
            AVLinearPCMBitDepthKey: 32, AVLinearPCMIsFloatKey: true, AVLinearPCMIsNonInterleaved: false,
        ])
        reader.add(output)
        #expect(reader.startReading())
        let samples = Self.readAll(output)
        #expect(reader.status == .completed)
        #expect(samples.first?.presentationTimeStamp == CMTime(value: 22050, timescale: 44100))
        #expect(samples.reduce(0) { $0 + $1.numSamples } == 44100)
        var decoded: [Float] = []
        for sample in samples {
            let data = try #require(sample.dataBuffer).dataBytes()
            decoded += data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        }
        try #require(reference.count >= 66150)
        // Not bit-exact: decoding from the range's start draws different noise for the bands
        // the encoder coded as noise (PNS) than decoding from the file's start; a sample off
        // would differ by up to 0.0078 (the sine's steepest step).
        let worst = zip(decoded, reference[22050..<66150]).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst < 1e-3, "the cut samples differ from ffmpeg's by up to \(worst)")
    }

    @Test func timeRangeLimitsTheFrames() throws {
        let url = try Fixtures.h264AAC()
        let asset = AVURLAsset(url: url)
        let reader = try AVAssetReader(asset: asset)
        reader.timeRange = CMTimeRange(start: CMTime(value: 1, timescale: 2), duration: CMTime(value: 1, timescale: 2))
        let output = AVAssetReaderTrackOutput(track: asset.tracks(withMediaType: .video)[0],
                                              outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8Planar])
        reader.add(output)
        reader.startReading()
        let times = Self.readAll(output).map(\.presentationTimeStamp)
        // Frames whose display interval overlaps [0.5 s, 1 s): 12 (0.48–0.52 s) to 24.
        #expect(times == (12...24).map { CMTime(value: Int64($0), timescale: 25) })
        #expect(reader.status == .completed)
    }

    /// A reader that starts inside a group of pictures skips, undecoded, the frames before its
    /// start that no other frame refers to (as mpv's exact seeks do), and a reader after a
    /// finished one takes the demuxer and the decoder it gave back to the asset: each still
    /// delivers exactly ffmpeg's frames (the clip has one key frame and B-frames).
    @Test func readersFromInsideAGroupOfPicturesDeliverFFmpegsFramesWithTheSparesReused() throws {
        let url = try Fixtures.h264AAC()
        let reference = [UInt8](try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"]))
        let frameSize = 320 * 240 * 3 / 2
        let asset = AVURLAsset(url: url)
        let track = asset.tracks(withMediaType: .video)[0]
        // 1.3 s: frames 32 (1.28–1.32 s) to 39; 0.7 s: frames 17 to 24; 1.3 s again.
        for (tenths, first) in [(13, 32), (7, 17), (13, 32)] {
            let reader = try AVAssetReader(asset: asset)
            reader.timeRange = CMTimeRange(start: CMTime(value: Int64(tenths), timescale: 10), duration: CMTime(value: 3, timescale: 10))
            let output = AVAssetReaderTrackOutput(track: track, outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8Planar])
            reader.add(output)
            #expect(reader.startReading())
            let samples = Self.readAll(output)
            #expect(reader.status == .completed)
            #expect(samples.map(\.presentationTimeStamp) == (first..<(first + 8)).map { CMTime(value: Int64($0), timescale: 25) })
            for (index, sample) in samples.enumerated() {
                let frame = first + index
                let pixels = PixelComparison.rawVideo(try #require(CMSampleBufferGetImageBuffer(sample)))
                #expect(pixels[...] == reference[(frame * frameSize)..<((frame + 1) * frameSize)], "frame \(frame) from \(tenths)/10 s")
            }
        }
        // The last reader gave its decoder back.
        guard case .success(let contents) = asset.loader.contentsBlocking() else { Issue.record("not loaded"); return }
        let stream = try #require(contents.tracks.first { $0.mediaType == .video }).streamIndex
        #expect(contents.spares.takeDecoder(forStream: stream) != nil)
        #expect(contents.spares.takeDemuxer(seeking: true) != nil)
    }

    @Test func unsupportedSettingsCannotBeAdded() throws {
        let asset = AVURLAsset(url: try Fixtures.h264AAC())
        let reader = try AVAssetReader(asset: asset)
        let video = asset.tracks(withMediaType: .video)[0]
        #expect(!reader.canAdd(AVAssetReaderTrackOutput(track: video, outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: 0x7a7a_7a7a])))
        #expect(!reader.canAdd(AVAssetReaderTrackOutput(track: video, outputSettings: ["NotAKey": 1])))
        let audio = asset.tracks(withMediaType: .audio)[0]
        #expect(!reader.canAdd(AVAssetReaderTrackOutput(track: audio, outputSettings: [AVFormatIDKey: kAudioFormatMPEG4AAC])))
        #expect(reader.canAdd(AVAssetReaderTrackOutput(track: audio, outputSettings: nil)))
    }

    @Test func cancelledReaderDeliversNothingMore() throws {
        let asset = AVURLAsset(url: try Fixtures.h264AAC())
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: asset.tracks(withMediaType: .video)[0], outputSettings: nil)
        reader.add(output)
        reader.startReading()
        #expect(output.copyNextSampleBuffer() != nil)
        reader.cancelReading()
        #expect(output.copyNextSampleBuffer() == nil)
        #expect(reader.status == .cancelled)
    }

    @Test func readerOfAMissingFileThrows() {
        #expect(throws: AVError.self) { try AVAssetReader(asset: AVURLAsset(url: URL(fileURLWithPath: "/nonexistent.mp4"))) }
    }

    /// A file cut short (its header promises more than its data holds, as an interrupted copy or
    /// download leaves it) delivers every sample that is there, as many as ffprobe reads, then
    /// fails the reader with `.fileFailedToParse`, decoded or passed through: it never ends as if
    /// it were whole, so nothing made from it (an export, a conversion) is silently short.
    @Test(arguments: [false, true]) func aFileCutShortFailsTheReaderAfterWhatIsThere(decoded: Bool) throws {
        let whole = try Fixtures.make("cut-short-source.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-f", "lavfi",
                                                               "-i", "sine=sample_rate=48000", "-t", "4", "-c:v", "libx264", "-c:a", "aac",
                                                               "-movflags", "+faststart"])
        let data = try Data(contentsOf: whole)
        let url = Fixtures.folder.appendingPathComponent("cut-short.mp4")
        try data.prefix(data.count / 2).write(to: url)
        let readable = try #require(Int(String(decoding: try Fixtures.run("ffprobe", [
            "-v", "quiet", "-count_packets", "-select_streams", "v:0", "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", url.path,
        ]), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(readable > 10 && readable < 100, "ffprobe reads \(readable) of the 100 pictures")

        let asset = AVURLAsset(url: url)
        let reader = try AVAssetReader(asset: asset)
        let settings: [String: Any]? = decoded ? [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA] : nil
        let output = AVAssetReaderTrackOutput(track: try #require(asset.tracks(withMediaType: .video).first), outputSettings: settings)
        reader.add(output)
        #expect(reader.startReading())
        let samples = Self.readAll(output)
        if decoded {
            // The decoder holds back the pictures that refer to one past the cut.
            #expect(samples.count >= readable - 5 && samples.count <= readable)
        } else {
            #expect(samples.count == readable)
        }
        #expect(reader.status == .failed)
        #expect((reader.error as? AVError)?.code == .fileFailedToParse)
    }

    /// Flips, zeroes and cuts a real movie in many places: every read ends, with samples or an
    /// AVError, never a crash or a hang.
    @Test func corruptedMoviesEndCleanly() throws {
        let original = try Data(contentsOf: try Fixtures.h264AAC())
        var generator = SystemRandomNumberGenerator()
        var readTrials = 0
        for trial in 0..<40 {
            var data = original
            switch trial % 4 {
            case 0: // flip bytes
                for _ in 0..<32 { let i = Int.random(in: 0..<data.count, using: &generator); data[i] ^= 0xFF }
            case 1: // zero a block
                let start = Int.random(in: 0..<data.count - 512, using: &generator)
                data.replaceSubrange(start..<start + 512, with: Data(count: 512))
            case 2: // truncate
                data = data.prefix(Int.random(in: 0..<data.count, using: &generator))
            default: // shuffle two blocks
                let a = Int.random(in: 0..<data.count / 2 - 256, using: &generator), b = data.count / 2 + a / 2
                let block = data[a..<a + 256]
                data.replaceSubrange(a..<a + 256, with: data[b..<b + 256])
                data.replaceSubrange(b..<b + 256, with: block)
            }
            let url = Fixtures.folder.appendingPathComponent("corrupt-\(trial).mp4")
            try data.write(to: url)
            let asset = AVURLAsset(url: url)
            guard let reader = try? AVAssetReader(asset: asset) else { continue }
            for track in asset.tracks where track.mediaType == .video || track.mediaType == .audio {
                let settings: [String: Any]? = track.mediaType == .video
                    ? [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
                    : [AVFormatIDKey: kAudioFormatLinearPCM]
                let output = AVAssetReaderTrackOutput(track: track, outputSettings: settings)
                if reader.canAdd(output) { reader.add(output) }
            }
            guard !reader.outputs.isEmpty else { continue }
            if reader.startReading() {
                for output in reader.outputs { _ = Self.readAll(output) }
                readTrials += 1
            }
            #expect([.completed, .failed].contains(reader.status), "trial \(trial)")
            if reader.status == .failed { #expect(reader.error is AVError, "trial \(trial)") }
        }
        // Most damage leaves the index intact: the sweep must really read damaged media.
        #expect(readTrials >= 10, "only \(readTrials) of 40 damaged movies got as far as reading")
    }
}
