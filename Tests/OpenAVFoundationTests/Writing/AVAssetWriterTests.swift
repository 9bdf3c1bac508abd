import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Files written by AVAssetWriter, checked with ffprobe and ffmpeg's decode.
@Suite(.timeLimit(.minutes(10))) struct AVAssetWriterTests {
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
            appended.append(PixelComparison.packed(pixels, bytesPerPixel: 4))
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
            #expect(PixelComparison.psnr(decoded, appended[index]) >= 35, "frame \(index)")
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

    /// Apple's single-pass rules: one pass description of all the media from `startWriting()`,
    /// the pass block called at its start and once more, with no description, after
    /// `markCurrentPassAsFinished()`, which also stops a `requestMediaDataWhenReady` loop.
    @Test func aSinglePassOfAllTheMedia() async throws {
        let url = Self.outputURL("one-pass.m4a")
        let writer = try AVAssetWriter(outputURL: url, fileType: .m4a)
        let input = AVAssetWriterInput(mediaType: .audio, outputSettings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 48000,
                                                                            AVNumberOfChannelsKey: 1])
        input.performsMultiPassEncodingIfSupported = true
        writer.add(input)
        #expect(input.currentPassDescription == nil)
        #expect(writer.startWriting())
        writer.startSession(atSourceTime: .zero)
        #expect(!input.canPerformMultiplePasses)
        let ranges = try #require(input.currentPassDescription).sourceTimeRanges.map(\.timeRangeValue)
        #expect(ranges == [CMTimeRange(start: .zero, duration: .positiveInfinity)])

        let queue = DispatchQueue(label: "passes")
        let (calls, continuation) = AsyncStream.makeStream(of: Bool.self)
        input.respondToEachPassDescription(on: queue) { continuation.yield(input.currentPassDescription != nil) }
        var iterator = calls.makeAsyncIterator()
        #expect(await iterator.next() == true)
        input.markCurrentPassAsFinished()
        #expect(await iterator.next() == false)
        #expect(input.currentPassDescription == nil)
        // A request made before a pass ends never calls its block.
        final class Calls: @unchecked Sendable { var count = 0 }
        let requested = Calls()
        queue.suspend()
        input.requestMediaDataWhenReady(on: queue) { requested.count += 1 }
        input.markCurrentPassAsFinished()
        queue.resume()
        queue.sync {}
        #expect(requested.count == 0)
        input.markAsFinished()
        writer.cancelWriting()
    }

    /// A pull loop (`while input.isReadyForMoreMediaData { append }`) appends a bounded number
    /// of samples per call of its block, as Apple's input says it is not ready while its
    /// encoder's queue is full: the block returns, other work on its queue runs in between (here
    /// a cancel, which ends the writing long before the clip is used up), and it is called again.
    @Test func aPullLoopAppendsABoundedNumberOfSamplesPerCall() async throws {
        let writer = try AVAssetWriter(outputURL: Self.outputURL("pulled.mp4"), fileType: .mp4)
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 64, AVVideoHeightKey: 48])
        let adaptor = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input, sourcePixelBufferAttributes: nil)
        writer.add(input)
        writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        final class Pull: @unchecked Sendable {
            var perCall: [Int] = []
            var appended = 0
        }
        let pull = Pull()
        let queue = DispatchQueue(label: "pulled clip")
        let total = 600
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            input.requestMediaDataWhenReady(on: queue) {
                var count = 0
                while input.isReadyForMoreMediaData, pull.appended < total {
                    var buffer: CVPixelBuffer?
                    CVPixelBufferPoolCreatePixelBuffer(nil, adaptor.pixelBufferPool!, &buffer)
                    adaptor.append(buffer!, withPresentationTime: CMTime(value: Int64(pull.appended), timescale: 30))
                    pull.appended += 1
                    count += 1
                }
                pull.perCall.append(count)
                if pull.perCall.count == 2 {
                    // Queued behind this call: runs before the block's next call.
                    queue.async {
                        writer.cancelWriting()
                        done.resume()
                    }
                }
                if pull.appended == total { done.resume() }
            }
        }
        queue.sync {}
        #expect(pull.perCall.count >= 2 && pull.perCall.allSatisfy { $0 <= AVAssetWriterInput.samplesPerRequest }, "\(pull.perCall)")
        #expect(pull.appended < total, "the whole clip went in before the cancel was seen")
        #expect(writer.status == .cancelled)
    }

    /// `isReadyForMoreMediaData` is key-value observable: each change is reported where it
    /// happens, in order (writing starts, a request block uses up its allowance, the block
    /// returns, the input finishes), and only changes.
    @Test func readinessIsReportedToItsObservers() async throws {
        let writer = try AVAssetWriter(outputURL: Self.outputURL("observed.mp4"), fileType: .mp4)
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 64, AVVideoHeightKey: 48])
        let adaptor = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input, sourcePixelBufferAttributes: nil)
        writer.add(input)
        final class Seen: @unchecked Sendable {
            let lock = NSLock()
            var values: [Bool] = []
            /// How many samples had been appended at each report.
            var appendedAt: [Int] = []
            var appended = 0
        }
        let seen = Seen()
        let observation = input.observe(\.isReadyForMoreMediaData, options: [.initial, .new]) { _, change in
            seen.lock.withLock {
                seen.values.append(change.newValue ?? true)
                seen.appendedAt.append(seen.appended)
            }
        }
        writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        let queue = DispatchQueue(label: "observed clip")
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            input.requestMediaDataWhenReady(on: queue) {
                let total = AVAssetWriterInput.samplesPerRequest * 3 / 2
                while input.isReadyForMoreMediaData, seen.lock.withLock({ seen.appended }) < total {
                    var buffer: CVPixelBuffer?
                    CVPixelBufferPoolCreatePixelBuffer(nil, adaptor.pixelBufferPool!, &buffer)
                    let index = seen.lock.withLock { seen.appended }
                    adaptor.append(buffer!, withPresentationTime: CMTime(value: Int64(index), timescale: 30))
                    seen.lock.withLock { seen.appended += 1 }
                }
                // The second call (the first used up its allowance and returned) ends the clip.
                if seen.lock.withLock({ seen.appended }) == total {
                    input.markAsFinished()
                    done.resume()
                }
            }
        }
        await writer.finishWriting()
        observation.invalidate()
        #expect(writer.status == .completed)
        // Not ready before writing; ready; full after the allowance; ready again once the block
        // returned; not ready once finished.
        #expect(seen.values == [false, true, false, true, false], "\(seen.values)")
        // The allowance runs out as the last sample of the first call is appended.
        let perCall = AVAssetWriterInput.samplesPerRequest
        #expect(seen.appendedAt == [0, 0, perCall - 1, perCall, perCall * 3 / 2], "\(seen.appendedAt)")
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

    /// The top-level box types of an MP4/MOV file, in order.
    static func topLevelBoxes(_ url: URL) throws -> [String] {
        let data = try Data(contentsOf: url)
        var boxes: [String] = [], offset = 0
        while offset + 8 <= data.count {
            var size = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if size == 1 { size = data[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) } }
            boxes.append(String(decoding: data[offset + 4..<offset + 8], as: UTF8.self))
            guard size >= 8 else { break }
            offset += size
        }
        return boxes
    }

    @Test func guideReencodingExample() async throws {
        // "Reencoding Assets": a reader and a writer, audio and video each on its own
        // serialization queue with requestMediaDataWhenReady, finishing when both are done.
        let source = try Fixtures.h264AAC()
        let asset = AVURLAsset(url: source)
        let assetReader = try AVAssetReader(asset: asset)
        let url = Self.outputURL("reencoded.mov")
        let assetWriter = try AVAssetWriter(outputURL: url, fileType: .mov)
        let videoTrack = try #require(try await asset.loadTracks(withMediaType: .video).first)
        let audioTrack = try #require(try await asset.loadTracks(withMediaType: .audio).first)
        let decompressionAudioSettings: [String: Any] = [AVFormatIDKey: kAudioFormatLinearPCM]
        let assetReaderAudioOutput = AVAssetReaderTrackOutput(track: audioTrack, outputSettings: decompressionAudioSettings)
        assetReader.add(assetReaderAudioOutput)
        let decompressionVideoSettings: [String: Any] = [
            kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_422YpCbCr8,
            kCVPixelBufferIOSurfacePropertiesKey as String: [String: Any](),
        ]
        let assetReaderVideoOutput = AVAssetReaderTrackOutput(track: videoTrack, outputSettings: decompressionVideoSettings)
        assetReader.add(assetReaderVideoOutput)
        var stereoChannelLayout = AudioChannelLayout()
        stereoChannelLayout.mChannelLayoutTag = kAudioChannelLayoutTag_Stereo
        let channelLayoutAsData = withUnsafeBytes(of: &stereoChannelLayout) { Data($0) }
        let compressionAudioSettings: [String: Any] = [
            AVFormatIDKey: kAudioFormatMPEG4AAC, AVEncoderBitRateKey: 128000, AVSampleRateKey: 44100,
            AVChannelLayoutKey: channelLayoutAsData, AVNumberOfChannelsKey: 2,
        ]
        let assetWriterAudioInput = AVAssetWriterInput(mediaType: .audio, outputSettings: compressionAudioSettings)
        assetWriter.add(assetWriterAudioInput)
        let videoFormatDescription = try #require(videoTrack.formatDescriptions.first as! CMFormatDescription?)
        let dimensions = CMVideoFormatDescriptionGetDimensions(videoFormatDescription)
        let compressionSettings: [String: Any] = [AVVideoAverageBitRateKey: 1_000_000, AVVideoMaxKeyFrameIntervalKey: 30]
        let videoSettings: [String: Any] = [
            AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: Int(dimensions.width), AVVideoHeightKey: Int(dimensions.height),
            AVVideoCompressionPropertiesKey: compressionSettings,
        ]
        let assetWriterVideoInput = AVAssetWriterInput(mediaType: .video, outputSettings: videoSettings,
                                                       sourceFormatHint: videoFormatDescription)
        assetWriter.add(assetWriterVideoInput)

        #expect(assetReader.startReading())
        #expect(assetWriter.startWriting())
        assetWriter.startSession(atSourceTime: .zero)
        let group = DispatchGroup()
        for (input, output, name) in [(assetWriterAudioInput, assetReaderAudioOutput, "audio"), (assetWriterVideoInput, assetReaderVideoOutput, "video")] {
            group.enter()
            let done = Collected()
            input.requestMediaDataWhenReady(on: DispatchQueue(label: "rwSerializationQueue.\(name)")) {
                var completedOrFailed = false
                while input.isReadyForMoreMediaData && !completedOrFailed {
                    if let sampleBuffer = output.copyNextSampleBuffer() {
                        completedOrFailed = !input.append(sampleBuffer)
                    } else {
                        completedOrFailed = true
                    }
                }
                if completedOrFailed {
                    input.markAsFinished()
                    if done.append((.zero, .succeeded, .zero)) == 1 { group.leave() }
                }
            }
        }
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in group.notify(queue: .global()) { finished.resume() } }
        await assetWriter.finishWriting()
        #expect(assetReader.status == .completed && assetWriter.status == .completed, "\(String(describing: assetWriter.error))")
        let streams = try #require(try Fixtures.probe(url)["streams"] as? [[String: Any]])
        #expect(Set(streams.compactMap { $0["codec_name"] as? String }) == ["h264", "aac"])
        let audio = try #require(streams.first { $0["codec_name"] as? String == "aac" })
        #expect(audio["sample_rate"] as? String == "44100" && audio["channels"] as? Int == 2)
        let video = try #require(streams.first { $0["codec_name"] as? String == "h264" })
        #expect(video["nb_frames"] as? String == "50")
    }

    @Test func aacKeepsTheToneAndItsLength() async throws {
        let source = try Fixtures.make("writer-tone.wav", ["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000", "-t", "2", "-c:a", "pcm_s16le"])
        let asset = AVURLAsset(url: source)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: asset.tracks[0], outputSettings: [AVFormatIDKey: kAudioFormatLinearPCM])
        reader.add(output)
        let url = Self.outputURL("tone.m4a")
        let writer = try AVAssetWriter(outputURL: url, fileType: .m4a)
        let input = AVAssetWriterInput(mediaType: .audio, outputSettings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 48000, AVNumberOfChannelsKey: 1])
        writer.add(input)
        reader.startReading()
        writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        while let sample = output.copyNextSampleBuffer() { #expect(input.append(sample)) }
        input.markAsFinished()
        await writer.finishWriting()
        #expect(writer.status == .completed)
        let decoded = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-f", "s16le", "-ac", "1", "-ar", "48000", "-"])
        let samples = decoded.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(abs(samples.count - 96000) <= 1024)
        // 1 kHz for 2 s: 4000 zero crossings.
        let crossings = zip(samples, samples.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        #expect(abs(crossings - 4000) < 40)
    }

    /// Writes `frames` small H.264 frames with the given writer options.
    static func writeClip(_ url: URL, frames: Int, configure: (AVAssetWriter) -> Void) async throws -> AVAssetWriter {
        let writer = try AVAssetWriter(outputURL: url, fileType: url.pathExtension == "mov" ? .mov : .mp4)
        configure(writer)
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 64, AVVideoHeightKey: 48])
        let adaptor = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input, sourcePixelBufferAttributes: nil)
        writer.add(input)
        writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        for index in 0..<frames {
            var buffer: CVPixelBuffer?
            CVPixelBufferPoolCreatePixelBuffer(nil, adaptor.pixelBufferPool!, &buffer)
            drawFrame(buffer!, index: index)
            adaptor.append(buffer!, withPresentationTime: CMTime(value: Int64(index), timescale: 30))
        }
        await writer.finishWriting()
        return writer
    }

    /// `AVVideoAverageBitRateKey` is met as Apple's encoder meets it: within 15 % over clips
    /// of 1 s and longer, for a moving test picture and a detailed one (ffprobe measures the
    /// written stream). x264's averaging undershot short clips by up to 30 %.
    @Test(arguments: [("testsrc2", 1), ("testsrc2", 3), ("mandelbrot", 1), ("mandelbrot", 3)])
    func theAverageBitRateIsMet(source: String, seconds: Int) async throws {
        let clip = try Fixtures.make("\(source)-\(seconds)s.mp4", [
            "-f", "lavfi", "-i", "\(source)=size=640x480:rate=30", "-t", "\(seconds)", "-c:v", "libx264", "-qp", "0",
            "-preset", "ultrafast", "-pix_fmt", "yuv420p",
        ])
        let asset = AVURLAsset(url: clip)
        let reader = try AVAssetReader(asset: asset)
        let frames = AVAssetReaderTrackOutput(track: asset.tracks(withMediaType: .video)[0], outputSettings: [
            kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange,
        ])
        reader.add(frames)
        #expect(reader.startReading())
        let url = Self.outputURL("bit-rate-\(source)-\(seconds).mp4")
        let writer = try AVAssetWriter(outputURL: url, fileType: .mp4)
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: [
            AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 640, AVVideoHeightKey: 480,
            AVVideoCompressionPropertiesKey: [AVVideoAverageBitRateKey: 1_000_000],
        ])
        writer.add(input)
        writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        while let sample = frames.copyNextSampleBuffer() { #expect(input.append(sample)) }
        input.markAsFinished()
        await writer.finishWriting()
        #expect(writer.status == .completed)
        let stream = try #require((try Fixtures.probe(url)["streams"] as? [[String: Any]])?.first)
        let bitRate = try #require((stream["bit_rate"] as? String).flatMap(Double.init))
        #expect(abs(bitRate / 1_000_000 - 1) <= 0.15, "\(source), \(seconds) s: \(Int(bitRate)) bit/s for 1,000,000 asked")
    }

    @Test func optimizedForNetworkUsePutsTheMovieHeaderFirst() async throws {
        let plain = Self.outputURL("plain.mp4"), fast = Self.outputURL("fast.mp4")
        _ = try await Self.writeClip(plain, frames: 30) { _ in }
        _ = try await Self.writeClip(fast, frames: 30) { $0.shouldOptimizeForNetworkUse = true }
        let (plainBoxes, fastBoxes) = (try Self.topLevelBoxes(plain), try Self.topLevelBoxes(fast))
        #expect(plainBoxes.firstIndex(of: "moov")! > plainBoxes.firstIndex(of: "mdat")!)
        #expect(fastBoxes.firstIndex(of: "moov")! < fastBoxes.firstIndex(of: "mdat")!)
    }

    @Test func fragmentIntervalWritesFragments() async throws {
        let url = Self.outputURL("fragments.mp4")
        let writer = try await Self.writeClip(url, frames: 90) { $0.movieFragmentInterval = CMTime(value: 1, timescale: 1) }
        #expect(writer.status == .completed)
        #expect(try Self.topLevelBoxes(url).filter { $0 == "moof" }.count >= 3)
        let frames = try Self.frames(url)
        #expect(frames.count == 90)
    }

    @Test func metadataTagsReachTheFile() async throws {
        let url = Self.outputURL("tagged.mov")
        _ = try await Self.writeClip(url, frames: 5) { writer in
            let title = AVMutableMetadataItem()
            title.identifier = .commonIdentifierTitle
            title.value = "Written on Linux" as NSString
            let location = AVMutableMetadataItem()
            location.identifier = .commonIdentifierLocation
            location.value = "+48.8577+002.2950/" as NSString
            let created = AVMutableMetadataItem()
            created.identifier = .commonIdentifierCreationDate
            created.value = "2024-05-01T12:00:00Z" as NSString
            writer.metadata = [title, location, created]
        }
        let tags = try #require((try Fixtures.probe(url)["format"] as? [String: Any])?["tags"] as? [String: Any])
        #expect(tags["title"] as? String == "Written on Linux")
        #expect((tags["location"] as? String)?.hasPrefix("+48.8577+002.2950") == true)
        // And our own reader sees them as Apple's would.
        let common = try await AVURLAsset(url: url).load(.commonMetadata)
        #expect(AVMetadataItem.metadataItems(from: common, filteredByIdentifier: .commonIdentifierTitle).first?.stringValue == "Written on Linux")
        #expect(try await AVURLAsset(url: url).load(.creationDate)?.dateValue == ISO8601DateFormatter().date(from: "2024-05-01T12:00:00Z"))
    }

    /// Items with QuickTime metadata identifiers are written as QuickTime metadata (`mdta`
    /// keys) and read back with the same identifier, key space, data type and value, as Apple
    /// writes them; a common item beside them goes under its QuickTime metadata key. ffprobe
    /// sees the keys in the file.
    @Test func quickTimeMetadataItemsReadBackUnderTheirIdentifiers() async throws {
        let url = Self.outputURL("quicktime-metadata.mov")
        _ = try await Self.writeClip(url, frames: 5) { writer in
            let location = AVMutableMetadataItem()
            location.identifier = .quickTimeMetadataLocationISO6709
            location.value = "+48.8577+002.2950+035.000/" as NSString
            location.dataType = kCMMetadataBaseDataType_UTF8 as String
            let title = AVMutableMetadataItem()
            title.identifier = .commonIdentifierTitle
            title.value = "Tower" as NSString
            writer.metadata = [location, title]
        }
        let tags = try #require((try Fixtures.probe(url)["format"] as? [String: Any])?["tags"] as? [String: Any])
        #expect(tags["com.apple.quicktime.location.ISO6709"] as? String == "+48.8577+002.2950+035.000/", "\(tags)")
        #expect(tags["com.apple.quicktime.title"] as? String == "Tower", "\(tags)")
        let metadata = try await AVURLAsset(url: url).load(.metadata)
        let read = try #require(AVMetadataItem.metadataItems(from: metadata, filteredByIdentifier: .quickTimeMetadataLocationISO6709).first)
        #expect(read.keySpace == .quickTimeMetadata && read.stringValue == "+48.8577+002.2950+035.000/")
        #expect(read.dataType == kCMMetadataBaseDataType_UTF8 as String)
        let common = try await AVURLAsset(url: url).load(.commonMetadata)
        #expect(AVMetadataItem.metadataItems(from: common, filteredByIdentifier: .commonIdentifierTitle).first?.stringValue == "Tower")
    }

    /// Apple's writer names no encoder in the files it writes; FFmpeg's muxer adds "Lavf…"
    /// unless told otherwise. ffprobe finds no encoder tag in a plain, a fast-start and a
    /// fragmented movie, and the software the caller names when it names one.
    @Test(arguments: ["plain.mov", "fast.mp4", "fragmented.mp4"])
    func filesNameNoEncoderUnlessAsked(name: String) async throws {
        let url = Self.outputURL("no-encoder-" + name)
        _ = try await Self.writeClip(url, frames: 5) { writer in
            if name.hasPrefix("fast") { writer.shouldOptimizeForNetworkUse = true }
            if name.hasPrefix("fragmented") { writer.movieFragmentInterval = CMTime(value: 1, timescale: 10) }
        }
        let tags = (try Fixtures.probe(url)["format"] as? [String: Any])?["tags"] as? [String: Any] ?? [:]
        #expect(tags["encoder"] == nil, "\(tags)")

        let named = Self.outputURL("named-encoder-" + name)
        _ = try await Self.writeClip(named, frames: 5) { writer in
            let software = AVMutableMetadataItem()
            software.identifier = .commonIdentifierSoftware
            software.value = "Studio 3" as NSString
            writer.metadata = [software]
        }
        let namedTags = (try Fixtures.probe(named)["format"] as? [String: Any])?["tags"] as? [String: Any] ?? [:]
        #expect(namedTags["encoder"] as? String == "Studio 3", "\(namedTags)")
    }

    @Test func trackTransformAndLanguageAreStored() async throws {
        let url = Self.outputURL("rotated.mov")
        let writer = try AVAssetWriter(outputURL: url, fileType: .mov)
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 64, AVVideoHeightKey: 48])
        input.transform = CGAffineTransform(rotationAngle: .pi / 2)
        input.languageCode = "fra"
        let adaptor = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input, sourcePixelBufferAttributes: nil)
        writer.add(input)
        writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        var buffer: CVPixelBuffer?
        CVPixelBufferPoolCreatePixelBuffer(nil, adaptor.pixelBufferPool!, &buffer)
        adaptor.append(buffer!, withPresentationTime: .zero)
        await writer.finishWriting()
        let track = try #require(try await AVURLAsset(url: url).loadTracks(withMediaType: .video).first)
        let t = try await track.load(.preferredTransform)
        #expect(abs(t.a) < 1e-4 && abs(t.b - 1) < 1e-4 && abs(t.c + 1) < 1e-4 && abs(t.d) < 1e-4)
        #expect(track.languageCode == "fra")
    }
}

@Suite(.timeLimit(.minutes(10))) struct AVAssetWriterRefusalTests {
    @Test func unusableSettingsFailStartWritingWithAnAVError() throws {
        let url = AVAssetWriterTests.outputURL("odd.mp4")
        let writer = try AVAssetWriter(outputURL: url, fileType: .mp4)
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 63, AVVideoHeightKey: 48])
        #expect(!writer.canAdd(input))
        writer.add(input)
        #expect(!writer.startWriting())
        #expect(writer.status == .failed)
        #expect((writer.error as? AVError)?.code == .unsupportedOutputSettings)
        #expect(((writer.error as? AVError)?.userInfo[NSLocalizedFailureReasonErrorKey] as? String)?.contains("63x48") == true)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func unusableReaderSettingsFailStartReading() throws {
        let asset = AVURLAsset(url: try Fixtures.h264AAC())
        let reader = try AVAssetReader(asset: asset)
        reader.add(AVAssetReaderTrackOutput(track: asset.tracks(withMediaType: .video)[0], outputSettings: ["NotAKey": 1]))
        #expect(!reader.startReading())
        #expect((reader.error as? AVError)?.code == .unsupportedOutputSettings)
    }
}

@Suite(.timeLimit(.minutes(10))) struct AVAssetWriterProfileTests {
    @Test func profileLevelAndKeyFrameIntervalReachTheStream() async throws {
        let url = AVAssetWriterTests.outputURL("profile.mp4")
        let writer = try AVAssetWriter(outputURL: url, fileType: .mp4)
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: [
            AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 128, AVVideoHeightKey: 96,
            AVVideoCompressionPropertiesKey: [
                AVVideoProfileLevelKey: AVVideoProfileLevelH264Main31, AVVideoMaxKeyFrameIntervalKey: 10,
                AVVideoAllowFrameReorderingKey: false,
            ] as [String: Any],
        ])
        let adaptor = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input, sourcePixelBufferAttributes: nil)
        writer.add(input)
        writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        for index in 0..<30 {
            var buffer: CVPixelBuffer?
            CVPixelBufferPoolCreatePixelBuffer(nil, adaptor.pixelBufferPool!, &buffer)
            AVAssetWriterTests.drawFrame(buffer!, index: index)
            adaptor.append(buffer!, withPresentationTime: CMTime(value: Int64(index), timescale: 30))
        }
        await writer.finishWriting()
        let stream = try #require((try Fixtures.probe(url)["streams"] as? [[String: Any]])?.first)
        #expect(stream["profile"] as? String == "Main")
        #expect(stream["level"] as? Int == 31)
        #expect(stream["has_b_frames"] as? Int == 0)
        let keys = try AVAssetReaderTests.probeEntries(url, stream: 0, section: "packet", fields: "pts,flags")
            .enumerated().filter { $0.element[1].hasPrefix("K") }.map(\.offset)
        #expect(keys == [0, 10, 20])
    }
}
