import Foundation
import HostSystem
import Testing
import TestSupport
@testable import OpenAVFoundation

/// `AVSampleBufferDisplayLayer` fed as a streaming client feeds it: the H.264 packets of a file
/// with B-frames read by a passthrough reader, shown on a control timebase the test moves. The
/// picture shown at a frame's time is that frame as ffmpeg decodes it, byte for byte.
@Suite(.serialized, .timeLimit(.minutes(3))) struct AVSampleBufferDisplayLayerTests {
    /// The video sample buffers of the fixture, as stored (compressed, in decode order).
    static func packets() async throws -> [CMSampleBuffer] {
        let asset = AVURLAsset(url: try Fixtures.h264AAC())
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: try #require(try await asset.loadTracks(withMediaType: .video).first), outputSettings: nil)
        reader.add(output)
        #expect(reader.startReading())
        var buffers: [CMSampleBuffer] = []
        while let buffer = output.copyNextSampleBuffer() { buffers.append(buffer) }
        return buffers
    }

    /// The luma plane of frame `index` (presentation order) as ffmpeg decodes the fixture: the
    /// first plane of its 320x240 4:2:0 picture, as decoded (no conversion).
    static func ffmpegLuma(frame index: Int) throws -> [UInt8] {
        let data = try Fixtures.run("ffmpeg", ["-v", "error", "-i", try Fixtures.h264AAC().path, "-vf", "select=eq(n\\,\(index))",
                                               "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"])
        return Array(data.prefix(320 * 240))
    }

    /// The luma plane of a shown picture (its first plane, row by row).
    static func luma(_ buffer: CVPixelBuffer) -> [UInt8] {
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let width = CVPixelBufferGetWidthOfPlane(buffer, 0), height = CVPixelBufferGetHeightOfPlane(buffer, 0)
        let stride = CVPixelBufferGetBytesPerRowOfPlane(buffer, 0)
        let base = CVPixelBufferGetBaseAddressOfPlane(buffer, 0)!.assumingMemoryBound(to: UInt8.self)
        return (0..<height).flatMap { row in Array(UnsafeBufferPointer(start: base + row * stride, count: width)) }
    }

    /// Requires `condition` to hold within `seconds` (checked every 20 ms: pictures are taken when
    /// asked for, as a window's redraw asks, and give no notice).
    static func eventually(seconds: TimeInterval, _ condition: () throws -> Bool) async throws {
        try #require(try await pollUntil(timeout: seconds, condition), "not within \(seconds) s")
    }

    /// A layer on a stopped control timebase at `time`.
    static func layer(at time: CMTime) throws -> (AVSampleBufferDisplayLayer, CMTimebase) {
        let timebase = try CMTimebase(sourceClock: CMClockGetHostTimeClock())
        try timebase.setTime(time)
        let layer = AVSampleBufferDisplayLayer()
        layer.controlTimebase = timebase
        return (layer, timebase)
    }

    @Test func thePictureShownAtAFramesTimeIsThatFrameAsFFmpegDecodesIt() async throws {
        let buffers = try await Self.packets()
        try #require(buffers.count == 50)
        let times = buffers.map(\.presentationTimeStamp).sorted()
        let (layer, timebase) = try Self.layer(at: times[0])
        for buffer in buffers { layer.enqueue(buffer) }
        try await Self.eventually(seconds: 20) { layer.isReadyForDisplay }
        #expect(layer.status == .rendering)
        // Forward through the clip (a picture passed is gone, as on Apple's layer), a time
        // between two frames' times among them: the earlier frame stays until the later's time.
        let stops: [(time: CMTime, frame: Int)] = [0, 1, 7].map { (times[$0], $0) }
            + [(times[10] + CMTime(value: 1, timescale: 100), 10)] + [24, 25, 49].map { (times[$0], $0) }
        for stop in stops {
            try timebase.setTime(stop.time)
            let expected = try Self.ffmpegLuma(frame: stop.frame)
            // The decoding queue may still be on its way to this frame.
            var shown: CVPixelBuffer?
            try await Self.eventually(seconds: 20) {
                shown = layer.sampleBufferRenderer.displayedPixelBuffer()
                return shown.map { Self.luma($0) == expected } ?? false
            }
            let picture = try #require(shown)
            #expect(CVPixelBufferGetWidth(picture) == 320 && CVPixelBufferGetHeight(picture) == 240)
        }
    }

    @Test func aStoppedTimebaseBeforeTheFirstFrameShowsNothingUntilItIsReachedOrShownImmediately() async throws {
        let buffers = try await Self.packets()
        let (layer, timebase) = try Self.layer(at: CMTime(value: -1, timescale: 1))
        layer.enqueue(buffers[0])
        try await Self.eventually(seconds: 10) { layer.isReadyForDisplay }
        #expect(layer.sampleBufferRenderer.displayedPixelBuffer() == nil)
        try timebase.setTime(buffers[0].presentationTimeStamp)
        #expect(layer.sampleBufferRenderer.displayedPixelBuffer() != nil)

        // A key frame marked to be shown at once is, whatever the timebase says.
        layer.flushAndRemoveImage()
        try timebase.setTime(CMTime(value: -1, timescale: 1))
        #expect(layer.sampleBufferRenderer.displayedPixelBuffer() == nil)
        buffers[0].sampleAttachments[0][.displayImmediately] = true
        layer.enqueue(buffers[0])
        try await Self.eventually(seconds: 10) { layer.sampleBufferRenderer.displayedPixelBuffer() != nil }
    }

    @Test func requestedDataIsEnqueuedWhileTheLayerIsReadyAndEveryPictureIsShownAsTheTimebaseRuns() async throws {
        let buffers = try await Self.packets()
        let times = buffers.map(\.presentationTimeStamp).sorted()
        let (layer, timebase) = try Self.layer(at: times[0])
        let fed = Locked((count: 0, unused: 0))
        nonisolated(unsafe) var remaining = buffers[...]  // read on the feeding queue alone
        layer.requestMediaDataWhenReady(on: DispatchQueue(label: "feeder")) {
            while layer.isReadyForMoreMediaData {
                guard let next = remaining.popFirst() else { return layer.stopRequestingMediaData() }
                layer.enqueue(next)
                fed.withLock { $0.count += 1 }
            }
        }
        // Stopped: the layer takes what it holds (and the one picture due, shown) and asks for no more.
        try await Self.eventually(seconds: 10) { !layer.isReadyForMoreMediaData && fed.withLock { $0.count } >= AVSampleBufferVideoRenderer.keptAhead }
        // Settled: no more fed for 300 ms. The layer holds its 15 and the picture shown; the
        // decoder holds back two more for B-frame reordering, which free room once.
        var held = -1
        for _ in 0..<10 where held != fed.withLock({ $0.count }) {
            held = fed.withLock { $0.count }
            try await Task.sleep(nanoseconds: 300_000_000)
        }
        #expect(held == fed.withLock { $0.count }, "the feeding did not stop")
        #expect(held <= AVSampleBufferVideoRenderer.keptAhead + 3 && held < buffers.count, "\(held) buffers were taken")
        #expect(!layer.isReadyForMoreMediaData)
        // Running four times as fast: pictures come due, and the feeding goes on to the end.
        try timebase.setRate(4)
        try await Self.eventually(seconds: 20) { fed.withLock { $0.count } == buffers.count }
        try await Self.eventually(seconds: 20) {
            layer.sampleBufferRenderer.displayedPixelBuffer().map { Self.luma($0) == (try? Self.ffmpegLuma(frame: 49)) } ?? false
        }
        #expect(timebase.time >= times[49])
    }

    @Test func aBufferNoDecoderTakesFailsTheLayerUntilAFlush() async throws {
        let buffers = try await Self.packets()
        let (layer, timebase) = try Self.layer(at: .zero)
        var unknown: CMFormatDescription?
        #expect(CMVideoFormatDescriptionCreate(allocator: nil, codecType: FourCharCode(fourCC: "xxxx"), width: 320, height: 240,
                                               extensions: nil, formatDescriptionOut: &unknown) == noErr)
        var timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: 25), presentationTimeStamp: .zero, decodeTimeStamp: .invalid)
        var size = 4
        var block: CMBlockBuffer?
        #expect(CMBlockBufferCreateWithMemoryBlock(allocator: nil, memoryBlock: nil, blockLength: 4, blockAllocator: nil, customBlockSource: nil,
                                                   offsetToData: 0, dataLength: 4, flags: kCMBlockBufferAssureMemoryNowFlag,
                                                   blockBufferOut: &block) == kCMBlockBufferNoErr)
        var bad: CMSampleBuffer?
        #expect(CMSampleBufferCreateReady(allocator: nil, dataBuffer: block, formatDescription: unknown, sampleCount: 1, sampleTimingEntryCount: 1,
                                          sampleTimingArray: &timing, sampleSizeEntryCount: 1, sampleSizeArray: &size, sampleBufferOut: &bad) == noErr)
        let posted = Locked(0)
        let observer = NotificationCenter.default.addObserver(forName: .AVSampleBufferDisplayLayerFailedToDecode, object: layer, queue: nil) { note in
            if note.userInfo?[AVSampleBufferDisplayLayerFailedToDecodeNotificationErrorKey] is AVError { posted.withLock { $0 += 1 } }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        layer.enqueue(try #require(bad))
        try await Self.eventually(seconds: 10) { layer.status == .failed }
        #expect((layer.error as? AVError)?.code == .decoderNotFound)
        try await Self.eventually(seconds: 5) { posted.withLock { $0 } == 1 }
        // Failed: enqueued buffers are ignored until a flush, then it renders again.
        layer.enqueue(buffers[0])
        #expect(!layer.isReadyForDisplay && !layer.isReadyForMoreMediaData)
        layer.flush()
        #expect(layer.status == .unknown && layer.error == nil)
        try timebase.setTime(buffers[0].presentationTimeStamp)
        layer.enqueue(buffers[0])
        try await Self.eventually(seconds: 10) { layer.sampleBufferRenderer.displayedPixelBuffer() != nil }
        #expect(layer.status == .rendering)
    }

    /// Bad input, as a stream that garbled or lost packets gives it. Buffers of random bytes
    /// under the stream's own format (random, with a plausible NAL length, with an impossible
    /// one) fail the layer with `decodeFailed` and the notification, until a flush. Packets in
    /// reverse decode order, or a stream that starts after its key frame, do not fail it: the
    /// decoder skips what it cannot use (VideoToolbox may fail instead). After each, a flush and
    /// the stream from its key frame show ffmpeg's frame 0 byte for byte.
    @Test func garbledBuffersFailTheLayerAndLostOnesDoNotAndAFlushRecovers() async throws {
        let buffers = try await Self.packets()
        let (layer, _) = try Self.layer(at: .zero)
        let first = try Self.ffmpegLuma(frame: 0)
        let failures = Locked(0)
        let observer = NotificationCenter.default.addObserver(forName: .AVSampleBufferDisplayLayerFailedToDecode, object: layer, queue: nil) { _ in
            failures.withLock { $0 += 1 }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        /// A flush, then the stream from its start: frame 0 is shown as ffmpeg decodes it.
        func recovers() throws {
            layer.flush()
            #expect(layer.status != .failed && layer.error == nil)
            for buffer in buffers.prefix(8) { layer.enqueue(buffer) }
            layer.sampleBufferRenderer.finishDecoding()
            let shown = try #require(layer.sampleBufferRenderer.displayedPixelBuffer(), "nothing shown after the flush")
            #expect(Self.luma(shown) == first)
            #expect(layer.status == .rendering)
        }
        var generator = SystemRandomNumberGenerator()
        for prefix: [UInt8] in [[], [0, 0, 0, 60], [0x7F, 0xFF, 0xFF, 0xFF]] {
            let bytes = prefix + (prefix.count..<64).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let block = try CMBlockBuffer(length: bytes.count)
            try bytes.withUnsafeBytes { try block.replaceDataBytes(with: $0) }
            let garbled = try CMSampleBuffer(dataBuffer: block, formatDescription: buffers[0].formatDescription, numSamples: 1,
                                             sampleTimings: [CMSampleTimingInfo(duration: CMTime(value: 1, timescale: 25),
                                                                                presentationTimeStamp: .zero, decodeTimeStamp: .zero)],
                                             sampleSizes: [bytes.count])
            let before = failures.withLock { $0 }
            layer.enqueue(garbled)
            layer.sampleBufferRenderer.finishDecoding()
            #expect(layer.status == .failed && (layer.error as? AVError)?.code == .decodeFailed, "\(prefix): \(String(describing: layer.error))")
            try await Self.eventually(seconds: 5) { failures.withLock { $0 } == before + 1 }
            try recovers()
        }
        for lost in [Array(buffers.prefix(12).reversed()), Array(buffers.prefix(12).dropFirst(3))] {
            layer.flush()
            for buffer in lost { layer.enqueue(buffer) }
            layer.sampleBufferRenderer.finishDecoding()
            #expect(layer.status == .rendering && layer.error == nil)
            try recovers()
        }
    }
}
