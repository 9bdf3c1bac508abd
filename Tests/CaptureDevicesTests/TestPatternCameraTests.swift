import Foundation
import HostSystem
import Testing
import OpenCoreMedia
import OpenCoreVideo
@testable import CaptureDevices

/// What the tests keep of one video frame (not the buffer itself, which goes back to the pool).
struct FrameRecord: Sendable {
    var presentationTime: CMTime
    var duration: CMTime
    var sequenceNumber: UInt64
    var droppedBefore: Int
    var drops: [CaptureDropRun]
    /// Host nanoseconds when the handler ran.
    var arrival: UInt64
    var baseAddress: Int
    var width: Int
    var height: Int
    var pixelFormat: OSType
    var barcode: Int?
    var isWhite: Bool
    /// CPU seconds of the device thread so far.
    var threadCPU: Double

    init(_ sample: CaptureSample, readBarcode: Bool = true) {
        let buffer = sample.pixelBuffer!
        presentationTime = sample.presentationTime
        duration = sample.duration
        sequenceNumber = sample.sequenceNumber
        droppedBefore = sample.droppedBefore
        drops = sample.drops
        arrival = HostClock.now
        baseAddress = Int(bitPattern: CVPixelBufferGetBaseAddressOfPlane(buffer, 0) ?? CVPixelBufferGetBaseAddress(buffer))
        width = CVPixelBufferGetWidth(buffer)
        height = CVPixelBufferGetHeight(buffer)
        pixelFormat = CVPixelBufferGetPixelFormatType(buffer)
        barcode = readBarcode ? FrameIndexBarcode.read(from: buffer) : nil
        isWhite = readBarcode ? Self.isWhite(buffer) : false
        threadCPU = threadCPUSeconds()
    }

    /// Whether points all over the picture (below the barcode band) are white.
    static func isWhite(_ buffer: CVPixelBuffer) -> Bool {
        let width = CVPixelBufferGetWidth(buffer)
        let height = CVPixelBufferGetHeight(buffer)
        var points: [(Int, Int)] = []
        for fy in [0.2, 0.5, 0.8, 0.99] {
            for fx in [0.0, 0.3, 0.5, 0.7, 0.99] { points.append((Int(fx * Double(width)), Int(fy * Double(height)))) }
        }
        if CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_32BGRA {
            let base = CVPixelBufferGetBaseAddress(buffer)!.assumingMemoryBound(to: UInt8.self)
            let stride = CVPixelBufferGetBytesPerRow(buffer)
            return points.allSatisfy { x, y in (0..<3).allSatisfy { base[y * stride + x * 4 + $0] >= 250 } }
        }
        let luma = CVPixelBufferGetBaseAddressOfPlane(buffer, 0)!.assumingMemoryBound(to: UInt8.self)
        let stride = CVPixelBufferGetBytesPerRowOfPlane(buffer, 0)
        return points.allSatisfy { x, y in luma[y * stride + x] >= 230 }
    }
}

extension RealTimeDeviceTests {
    @Suite(.timeLimit(.minutes(10))) struct TestPatternCameraTests {
        let camera = TestPatternCamera()

        func format(_ pixelFormat: OSType, _ width: Int, _ height: Int) -> CaptureFormat {
            .video(camera.videoFormats.first { $0.pixelFormat == pixelFormat && $0.width == width && $0.height == height }!)
        }

        @Test func offersTheFormatMatrix() {
            let formats = camera.videoFormats
            #expect(formats.count == 12)
            for (width, height, maxRate) in [(640, 480, 240.0), (1280, 720, 240), (1920, 1080, 60), (3840, 2160, 30)] {
                for pixelFormat in [kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
                                    kCVPixelFormatType_32BGRA] {
                    let match = formats.first { $0.pixelFormat == pixelFormat && $0.width == width && $0.height == height }
                    #expect(match?.frameRateRanges.first?.maxFrameRate == maxRate)
                    #expect(match?.frameRateRanges.first?.minFrameRate == 1)
                }
            }
            #expect(camera.formats.allSatisfy { $0.mediaKind == .video })
            #expect(camera.isConnected && camera.isVirtual && !camera.isRunning)
        }

        @Test func rejectsWhatItCannotDo() throws {
            let collector = Collector { FrameRecord($0) }
            do {
                try camera.start(format: format(kCVPixelFormatType_32BGRA, 1920, 1080),
                                 frameDuration: CMTime(value: 1, timescale: 120), handler: collector.handler)
                Issue.record("120 fps at 1920x1080 was accepted")
            } catch {
                #expect(error.reason == .unsupportedFrameDuration)
            }
            do {
                try camera.start(format: .video(CaptureVideoFormat(pixelFormat: kCVPixelFormatType_32BGRA, width: 800,
                                                                   height: 600, frameRateRanges: [])),
                                 frameDuration: nil, handler: collector.handler)
                Issue.record("800x600 was accepted")
            } catch {
                #expect(error.reason == .unsupportedFormat)
            }
            try camera.start(format: format(kCVPixelFormatType_32BGRA, 640, 480), frameDuration: nil, handler: collector.handler)
            defer { camera.stop() }
            do {
                try camera.start(format: format(kCVPixelFormatType_32BGRA, 640, 480), frameDuration: nil,
                                 handler: collector.handler)
                Issue.record("a second start was accepted")
            } catch {
                #expect(error.reason == .alreadyRunning)
            }
        }

        @Test func deliversFramesAtTheRequestedRateOnTheHostClock() throws {
            let collector = Collector { FrameRecord($0) }
            let startTime = HostClock.now
            try camera.start(format: format(kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, 640, 480),
                             frameDuration: CMTime(value: 1, timescale: 30), handler: collector.handler)
            let started = HostClock.now
            let frames = Array(collector.wait(for: 45, timeout: 5).prefix(45))
            camera.stop()
            try #require(frames.count == 45)
            let step = CMTime(value: 1, timescale: 30)
            #expect(frames.map(\.sequenceNumber) == Array(0..<45))
            #expect(frames.allSatisfy { $0.droppedBefore == 0 })
            #expect(frames.allSatisfy { $0.duration == step })
            for (previous, next) in zip(frames, frames.dropFirst()) {
                #expect(next.presentationTime - previous.presentationTime == step, "exactly one frame duration apart")
            }
            // On the host clock: the first frame is the first frame time after start (after
            // `start` returned: making the pattern's pool inside it was seen taking more than a
            // frame's time on a busy machine), and every frame arrives after its time, promptly.
            let first = nanoseconds(frames[0].presentationTime)
            #expect(first >= Int64(startTime) && first <= Int64(started) + 34_000_000,
                    "first frame \((first - Int64(startTime)) / 1_000_000) ms after start was called, \((Int64(started) - Int64(startTime)) / 1_000_000) ms to return")
            let lateness = frames.map { Int64($0.arrival) - nanoseconds($0.presentationTime) }
            #expect(lateness.allSatisfy { $0 >= 0 }, "never delivered before its time")
            #expect(lateness.sorted()[lateness.count / 2] < 10_000_000, "median lateness \(lateness.sorted()[lateness.count / 2]) ns")
            let span = Double(frames.last!.arrival - frames.first!.arrival) / 1e9
            #expect(abs(span - 44.0 / 30) < 0.05, "44 frame intervals took \(span) s")
            // Pool-backed: buffers are recycled, not allocated per frame.
            #expect(Set(frames.map(\.baseAddress)).count <= 3)
            #expect(frames.allSatisfy { $0.width == 640 && $0.height == 480 && $0.pixelFormat == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange })
            // The barcode carries the sequence number.
            #expect(frames.map(\.barcode) == frames.map { Int($0.sequenceNumber) })
        }

        @Test(arguments: [(kCVPixelFormatType_32BGRA, Int32(120)), (kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, Int32(240))])
        func highRatesKeepExactSpacingAndAccountForEveryFrame(pixelFormat: OSType, rate: Int32) throws {
            let collector = Collector { FrameRecord($0) }
            try camera.start(format: format(pixelFormat, 640, 480), frameDuration: CMTime(value: 1, timescale: rate),
                             handler: collector.handler)
            let frames = collector.wait(for: Int(rate), timeout: 5)
            camera.stop()
            try #require(frames.count >= Int(rate))
            for (previous, next) in zip(frames, frames.dropFirst()) {
                let gap = next.sequenceNumber - previous.sequenceNumber
                #expect(gap == UInt64(next.droppedBefore) + 1, "a sequence gap is exactly the reported drops")
                #expect(next.presentationTime - previous.presentationTime == CMTimeMultiply(CMTime(value: 1, timescale: rate), multiplier: Int32(gap)))
                #expect(next.barcode == Int(next.sequenceNumber))
            }
            let dropped = frames.reduce(0) { $0 + $1.droppedBefore }
            print("640x480 '\(pixelFormat.fourCharacterString)' at \(rate) fps: \(frames.count) frames, \(dropped) dropped")
            #expect(dropped <= frames.count / 10, "\(dropped) of \(frames.count) frames dropped")
        }

        /// The moving square's position, read back, is the frame's host time modulo 2 s (to its
        /// 2-pixel step); a flash frame has none.
        @Test func theMovingSquareTellsTheFramesHostTime() throws {
            let collector = Collector { sample -> (time: Double, phase: Double?) in
                let buffer = sample.pixelBuffer!
                CVPixelBufferLockBaseAddress(buffer, .readOnly)
                defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
                let bytes = UnsafeRawBufferPointer(start: CVPixelBufferGetBaseAddress(buffer),
                                                   count: CVPixelBufferGetDataSize(buffer))
                return (sample.presentationTime.seconds, MovingSquare.phase(bgra: bytes, width: 1280, height: 720,
                                                                           bytesPerRow: CVPixelBufferGetBytesPerRow(buffer)))
            }
            try camera.start(format: format(kCVPixelFormatType_32BGRA, 1280, 720), frameDuration: CMTime(value: 1, timescale: 30),
                             handler: collector.handler)
            let frames = collector.wait(for: 45, timeout: 5)
            camera.stop()
            try #require(frames.count >= 45)
            let step = 2.0 * 2 / Double(1280 - MovingSquare.side(forHeight: 720))
            for frame in frames {
                let isFlash = (frame.time * 30).rounded().truncatingRemainder(dividingBy: 30) == 0
                if isFlash {
                    #expect(frame.phase == nil, "a flash frame at \(frame.time) s shows a square")
                } else {
                    let phase = try #require(frame.phase, "no square at \(frame.time) s")
                    #expect(abs(phase - frame.time.truncatingRemainder(dividingBy: 2)) <= step, "\(phase) for \(frame.time)")
                }
            }
        }

        @Test func stopReallyStopsAndTheCameraRestarts() throws {
            let collector = Collector { FrameRecord($0, readBarcode: false) }
            try camera.start(format: format(kCVPixelFormatType_32BGRA, 640, 480),
                             frameDuration: CMTime(value: 1, timescale: 60), handler: collector.handler)
            collector.wait(for: 5, timeout: 5)
            camera.stop()
            #expect(!camera.isRunning)
            let countAtStop = collector.records.count
            // Proving that nothing more comes needs a duration, not an event: 12 frame durations.
            Thread.sleep(forTimeInterval: 0.2)
            #expect(collector.records.count == countAtStop)
            camera.stop()  // a second stop is harmless

            let again = Collector { FrameRecord($0, readBarcode: false) }
            try camera.start(format: format(kCVPixelFormatType_32BGRA, 640, 480),
                             frameDuration: CMTime(value: 1, timescale: 60), handler: again.handler)
            let restarted = again.wait(for: 3, timeout: 5)
            camera.stop()
            #expect(restarted.count >= 3)
            #expect(restarted.first?.sequenceNumber == 0)
        }

        @Test func aHandlerCanStopItsCamera() throws {
            let camera = self.camera
            let collector = Collector { sample -> UInt64 in
                if sample.sequenceNumber == 2 { camera.stop() }
                return sample.sequenceNumber
            }
            try camera.start(format: format(kCVPixelFormatType_32BGRA, 640, 480),
                             frameDuration: CMTime(value: 1, timescale: 100), handler: collector.handler)
            collector.wait(for: 3, timeout: 5)
            #expect(!camera.isRunning)
            Thread.sleep(forTimeInterval: 0.15)  // a duration, not an event: 15 frame durations in which nothing more comes
            #expect(collector.records == [0, 1, 2])
        }

        @Test func aSlowHandlerCausesReportedDrops() throws {
            let collector = Collector { sample -> FrameRecord in
                // A stall, a duration: ten frame durations on the device thread, once.
                if sample.sequenceNumber == 3 { Thread.sleep(forTimeInterval: 10.0 / 60) }
                return FrameRecord(sample)
            }
            try camera.start(format: format(kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, 640, 480),
                             frameDuration: CMTime(value: 1, timescale: 60), handler: collector.handler)
            let frames = collector.wait(for: 8, timeout: 5)
            camera.stop()
            let afterStall = try #require(frames.first { $0.sequenceNumber > 3 })
            #expect(afterStall.droppedBefore >= 8, "about 9 frames fell due during the stall")
            #expect(afterStall.drops.allSatisfy { $0.reason == .late }, "the thread was late, the pool had buffers")
            #expect(afterStall.sequenceNumber == 4 + UInt64(afterStall.droppedBefore))
            #expect(afterStall.barcode == Int(afterStall.sequenceNumber))
        }

        @Test func heldBuffersExhaustThePoolAndCauseReportedDrops() throws {
            final class Held: @unchecked Sendable {
                let lock = NSLock()
                var buffers: [CVPixelBuffer] = []
                var keep = true
            }
            let held = Held()
            let collector = Collector { sample -> FrameRecord in
                held.lock.withLock { if held.keep { held.buffers.append(sample.pixelBuffer!) } }
                return FrameRecord(sample, readBarcode: false)
            }
            try camera.start(format: format(kCVPixelFormatType_32BGRA, 1920, 1080),
                             frameDuration: CMTime(value: 1, timescale: 60), handler: collector.handler)
            defer { camera.stop() }
            // The pool gives out its limit (16 for 1080p BGRA), then the camera drops.
            let limit = collector.wait(for: 16, timeout: 5).count
            Thread.sleep(forTimeInterval: 0.15)  // a duration, not an event: 9 frame durations in which nothing comes
            #expect(collector.records.count == limit, "no frame while every buffer is held")
            held.lock.withLock {
                held.keep = false
                held.buffers.removeAll()
            }
            let frames = collector.wait(for: limit + 2, timeout: 5)
            camera.stop()
            let resumed = frames[limit]
            #expect(resumed.droppedBefore >= 5)
            #expect(resumed.drops.contains { $0.reason == .outOfBuffers && $0.count >= 5 }, "\(resumed.drops)")
            #expect(resumed.sequenceNumber == frames[limit - 1].sequenceNumber + 1 + UInt64(resumed.droppedBefore))
        }

        /// Frames every 1/30 s (flash exactly on the second) and every 3/40 s (flash on the first
        /// frame after it).
        @Test(arguments: [(CMTime(value: 1, timescale: 30), kCVPixelFormatType_32BGRA),
                          (CMTime(value: 3, timescale: 40), kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)])
        func flashFramesFallOnWholeSeconds(duration: CMTime, pixelFormat: OSType) throws {
            let collector = Collector { FrameRecord($0) }
            try camera.start(format: format(pixelFormat, 1280, 720), frameDuration: duration, handler: collector.handler)
            // Until a flash frame and two frames after it.
            let frames = collector.wait(timeout: 4) { records in
                guard let flash = records.firstIndex(where: \.isWhite) else { return false }
                return records.count >= flash + 3
            }
            camera.stop()
            let flashes = frames.filter(\.isWhite)
            try #require(!flashes.isEmpty)
            for frame in frames {
                let containsWholeSecond = wholeSeconds(frame.presentationTime) > wholeSeconds(frame.presentationTime - duration)
                #expect(frame.isWhite == containsWholeSecond, "frame at \(frame.presentationTime.seconds) s")
                #expect(frame.barcode == Int(frame.sequenceNumber), "the barcode survives the flash")
            }
            if duration == CMTime(value: 1, timescale: 30) {
                #expect(flashes.allSatisfy { $0.presentationTime.value % 30 == 0 }, "on the second exactly")
            }
        }

        @Test(arguments: [(kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, 1920, 1080), (kCVPixelFormatType_32BGRA, 1920, 1080),
                          (kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, 3840, 2160)])
        func cpuUseAt30fps(pixelFormat: OSType, width: Int, height: Int) throws {
            let collector = Collector { FrameRecord($0, readBarcode: false) }
            try camera.start(format: format(pixelFormat, width, height), frameDuration: CMTime(value: 1, timescale: 30),
                             handler: collector.handler)
            let frames = collector.wait(for: 61, timeout: 6)
            camera.stop()
            try #require(frames.count >= 61)
            // Skip the first frame: it includes the thread's start.
            let cpu = frames[60].threadCPU - frames[0].threadCPU
            let wall = (frames[60].presentationTime - frames[0].presentationTime).seconds
            let dropped = frames.reduce(0) { $0 + $1.droppedBefore }
            print("Test Pattern Camera \(width)x\(height) '\(pixelFormat.fourCharacterString)' 30 fps: "
                  + "\(String(format: "%.1f", 100 * cpu / wall))% of a core (\(String(format: "%.2f", 1000 * cpu / 60)) ms a frame), "
                  + "\(dropped) dropped")
        }

        /// The barcode read back from ffmpeg's H.264 encode and decode of the camera's frames.
        @Test(arguments: [(640, 480, 60), (1280, 720, 30)])
        func barcodeSurvivesH264(width: Int, height: Int, count: Int) throws {
            let collector = Collector { sample -> Data in
                let buffer = sample.pixelBuffer!
                let stride = CVPixelBufferGetBytesPerRow(buffer)
                var data = Data(count: width * 4 * height)
                data.withUnsafeMutableBytes { bytes in
                    for row in 0..<height {
                        (bytes.baseAddress! + row * width * 4).copyMemory(
                            from: CVPixelBufferGetBaseAddress(buffer)! + row * stride, byteCount: width * 4)
                    }
                }
                return data
            }
            try camera.start(format: format(kCVPixelFormatType_32BGRA, width, height),
                             frameDuration: CMTime(value: 1, timescale: 30), handler: collector.handler)
            let frames = Array(collector.wait(for: count, timeout: 10).prefix(count))
            camera.stop()
            try #require(frames.count == count)
            let originals = frames.map { $0.withUnsafeBytes { FrameIndexBarcode.read(bgra: $0, width: width, height: height, bytesPerRow: width * 4) } }
            #expect(originals == originals.indices.map { $0 })

            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("capdev-barcode-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let raw = directory.appendingPathComponent("frames.raw")
            let movie = directory.appendingPathComponent("out.mp4")
            try frames.reduce(Data(), +).write(to: raw)
            _ = try run("ffmpeg", ["-nostdin", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "bgra", "-s", "\(width)x\(height)",
                               "-r", "30", "-i", raw.path, "-c:v", "libx264", "-crf", "30", "-pix_fmt", "yuv420p", movie.path])
            let decoded = try run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", movie.path, "-f", "rawvideo", "-pix_fmt", "bgra", "-"])
            let frameBytes = width * height * 4
            #expect(decoded.count == frameBytes * count, "ffmpeg decoded \(decoded.count / frameBytes) frames")
            let indices = decoded.withUnsafeBytes { bytes in
                (0..<(decoded.count / frameBytes)).map { frame in
                    FrameIndexBarcode.read(bgra: UnsafeRawBufferPointer(rebasing: bytes[(frame * frameBytes)..<((frame + 1) * frameBytes)]),
                                           width: width, height: height, bytesPerRow: width * 4)
                }
            }
            #expect(indices == (0..<count).map { $0 })
        }
    }
}
