import CaptureDevices
import Foundation
import HostSystem
import Testing
@testable import OpenAVFoundation

/// `AVCaptureDataOutputSynchronizer` against the virtual devices' own clocks: the Test Pattern
/// Camera flashes white at each whole second of the host clock, the Test Tone Microphone's beep
/// starts at that instant, and the camera's QR code carries each frame's index. Real-time (a
/// `CaptureSessionTests` extension).
extension CaptureSessionTests {
    /// What a synchronizer delivered: each collection's video frame (time, whether a flash,
    /// whether dropped), audio buffer (time, duration, samples) and metadata (time, QR texts).
    final class SynchronizedCollections: NSObject, AVCaptureDataOutputSynchronizerDelegate, @unchecked Sendable {
        struct Video { let time: CMTime; let isFlash: Bool; let dropped: AVCaptureOutput.DataDroppedReason }
        struct Audio { let time: CMTime; let duration: CMTime; let rate: Double; let samples: [Float] }
        struct Metadata { let time: CMTime; let codes: [String] }
        struct Collection { let video: Video?; let audio: Audio?; let metadata: Metadata?; let count: Int }

        let video: AVCaptureVideoDataOutput
        let audio: AVCaptureAudioDataOutput?
        let metadata: AVCaptureMetadataOutput?
        private let condition = NSCondition()
        private var received: [Collection] = []
        private var frames = 0

        init(video: AVCaptureVideoDataOutput, audio: AVCaptureAudioDataOutput?, metadata: AVCaptureMetadataOutput?) {
            self.video = video
            self.audio = audio
            self.metadata = metadata
        }

        var collections: [Collection] { condition.withLock { received } }

        func dataOutputSynchronizer(_ synchronizer: AVCaptureDataOutputSynchronizer,
                                    didOutput synchronizedDataCollection: AVCaptureSynchronizedDataCollection) {
            var videoItem: Video?
            if let data = synchronizedDataCollection[video] as? AVCaptureSynchronizedSampleBufferData {
                var flash = false
                if !data.sampleBufferWasDropped, let picture = CMSampleBufferGetImageBuffer(data.sampleBuffer) {
                    CVPixelBufferLockBaseAddress(picture, .readOnly)
                    let luma = CVPixelBufferGetBaseAddressOfPlane(picture, 0)!.assumingMemoryBound(to: UInt8.self)
                    let stride = CVPixelBufferGetBytesPerRowOfPlane(picture, 0)
                    // All white across the middle row: a flash (the pattern has a dark ramp end).
                    flash = stride > 0 && (0..<10).allSatisfy { luma[240 * stride + 32 + $0 * 64] > 200 }
                    CVPixelBufferUnlockBaseAddress(picture, .readOnly)
                }
                videoItem = Video(time: data.timestamp, isFlash: flash, dropped: data.droppedReason)
            }
            var audioItem: Audio?
            if let audio, let data = synchronizedDataCollection.synchronizedData(for: audio) as? AVCaptureSynchronizedSampleBufferData,
               let asbd = CMSampleBufferGetFormatDescription(data.sampleBuffer)
                   .flatMap({ CMAudioFormatDescriptionGetStreamBasicDescription($0)?.pointee }),
               let block = CMSampleBufferGetDataBuffer(data.sampleBuffer),
               let samples = try? block.withContiguousStorage({ bytes -> [Float] in
                   let all = asbd.mFormatFlags & kAudioFormatFlagIsFloat != 0 ? Array(bytes.bindMemory(to: Float.self))
                       : bytes.bindMemory(to: Int16.self).map { Float($0) / 32768 }
                   // The first channel.
                   return Swift.stride(from: 0, to: all.count, by: Int(asbd.mChannelsPerFrame)).map { all[$0] }
               }) {
                audioItem = Audio(time: data.timestamp, duration: CMSampleBufferGetDuration(data.sampleBuffer),
                                  rate: asbd.mSampleRate, samples: samples)
            }
            var metadataItem: Metadata?
            if let metadata, let data = synchronizedDataCollection[metadata] as? AVCaptureSynchronizedMetadataObjectData {
                metadataItem = Metadata(time: data.timestamp, codes: data.metadataObjects.compactMap {
                    ($0 as? AVMetadataMachineReadableCodeObject)?.stringValue
                })
            }
            condition.withLock {
                received.append(Collection(video: videoItem, audio: audioItem, metadata: metadataItem,
                                           count: synchronizedDataCollection.count))
                if videoItem != nil { frames += 1 }
                condition.broadcast()
            }
            // The sequence holds the same items as the lookups.
            #expect(Array(synchronizedDataCollection).count == synchronizedDataCollection.count)
        }

        /// Waits until `count` collections with a video frame arrived (at most `seconds`).
        func wait(forFrames count: Int, seconds: Double) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            return condition.withLock {
                while frames < count, condition.wait(until: deadline) {}
                return frames >= count
            }
        }
    }

    /// A delegate that must not be called while a synchronizer has its output.
    final class UnwantedVideoDelegate: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
        let calls = Locked(0)
        func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
            calls.withLock { $0 += 1 }
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func theSynchronizerPairsEachFrameWithTheAudioOfItsTime() throws {
        let session = AVCaptureSession()
        session.beginConfiguration()
        session.sessionPreset = .vga640x480
        let camera = try #require(AVCaptureDevice.default(for: .video))
        let microphone = try #require(AVCaptureDevice.default(for: .audio))
        #expect(camera.uniqueID == TestPatternCamera().uniqueID && microphone.uniqueID == TestToneMicrophone().uniqueID)
        session.addInput(try AVCaptureDeviceInput(device: camera))
        session.addInput(try AVCaptureDeviceInput(device: microphone))
        let videoOutput = AVCaptureVideoDataOutput()
        videoOutput.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange]
        let unwanted = UnwantedVideoDelegate()
        videoOutput.setSampleBufferDelegate(unwanted, queue: DispatchQueue(label: "unwanted"))
        let audioOutput = AVCaptureAudioDataOutput()
        session.addOutput(videoOutput)
        session.addOutput(audioOutput)
        session.commitConfiguration()
        let synchronizer = AVCaptureDataOutputSynchronizer(dataOutputs: [videoOutput, audioOutput])
        #expect(synchronizer.dataOutputs == [videoOutput, audioOutput])
        let delivered = SynchronizedCollections(video: videoOutput, audio: audioOutput, metadata: nil)
        let queue = DispatchQueue(label: "synchronized")
        synchronizer.setDelegate(delivered, queue: queue)
        #expect(synchronizer.delegate === delivered && synchronizer.delegateCallbackQueue === queue)
        session.startRunning()
        defer { session.stopRunning() }
        // Past two whole seconds: at least two flash frames.
        try #require(delivered.wait(forFrames: 75, seconds: 20))
        session.stopRunning()
        let collections = delivered.collections
        #expect(unwanted.calls.withLock { $0 } == 0, "the video output's own delegate was called")

        // Each frame once, 1/30 s apart, none dropped; each with the audio buffer covering its
        // time (the microphone delivers a buffer once recorded, so none is missing).
        let frames = collections.compactMap(\.video)
        #expect(frames.allSatisfy { $0.dropped == .none })
        for (previous, next) in zip(frames, frames.dropFirst()) {
            #expect(next.time - previous.time == CMTime(value: 1, timescale: 30), "frames at \(previous.time.seconds), \(next.time.seconds)")
        }
        for collection in collections where collection.video != nil {
            let frame = collection.video!
            guard let audio = collection.audio else {
                Issue.record("the frame at \(frame.time.seconds) s came without audio")
                continue
            }
            #expect(collection.count == 2)
            #expect(audio.time <= frame.time && frame.time < audio.time + audio.duration,
                    "frame at \(frame.time.seconds) s with audio \(audio.time.seconds)…\((audio.time + audio.duration).seconds) s")
        }
        // Every audio buffer once, in order, back to back: those no frame covers came alone.
        let buffers = collections.compactMap(\.audio)
        #expect(collections.filter { $0.video == nil }.allSatisfy { $0.audio != nil && $0.count == 1 })
        for (previous, next) in zip(buffers, buffers.dropFirst()) {
            #expect(next.time == previous.time + previous.duration, "audio at \(previous.time.seconds), \(next.time.seconds)")
        }
        // The flash frame's buffer holds the beep's first sample at the flash frame's time.
        let flashes = collections.filter { $0.video?.isFlash == true }
        #expect(flashes.count >= 2, "\(flashes.count) flash frames")
        for flash in flashes {
            let (frame, audio) = (flash.video!, try #require(flash.audio))
            let onset = try #require(audio.samples.firstIndex { abs($0) > 0.45 }, "no beep with the flash at \(frame.time.seconds) s")
            let beepTime = audio.time + CMTime(value: CMTimeValue(onset), timescale: CMTimeScale(audio.rate))
            #expect(abs((beepTime - frame.time).seconds) <= 1 / audio.rate,
                    "beep at \(beepTime.seconds) s, flash at \(frame.time.seconds) s")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func theSynchronizerPairsEachFrameWithTheCodesFoundInIt() throws {
        let camera = try #require(AVCaptureDevice.default(for: .video))
        try Self.showFrameIndexQRCode(true, on: camera)
        defer { try? Self.showFrameIndexQRCode(false, on: camera) }
        let session = AVCaptureSession()
        session.beginConfiguration()
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let videoOutput = AVCaptureVideoDataOutput()
        videoOutput.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange]
        let metadataOutput = AVCaptureMetadataOutput()
        session.addOutput(videoOutput)
        session.addOutput(metadataOutput)
        metadataOutput.metadataObjectTypes = [.qr]
        session.commitConfiguration()
        let synchronizer = AVCaptureDataOutputSynchronizer(dataOutputs: [videoOutput, metadataOutput])
        let delivered = SynchronizedCollections(video: videoOutput, audio: nil, metadata: metadataOutput)
        synchronizer.setDelegate(delivered, queue: DispatchQueue(label: "synchronized"))
        session.startRunning()
        defer { session.stopRunning() }
        try #require(delivered.wait(forFrames: 60, seconds: 20))
        session.stopRunning()
        let collections = delivered.collections
        // The objects of each frame read come with that frame: the same time, the code's index
        // one frame on per 1/30 s (time × 30 − index is the same for all). The reader reads
        // the newest frame only, so on a busy machine some frames come without objects.
        let paired = collections.filter { $0.video != nil && $0.metadata != nil }
        #expect(paired.count >= 10, "\(paired.count) of \(collections.count) frames with their codes")
        var offsets = Set<CMTimeValue>()
        for collection in paired {
            let (frame, metadata) = (collection.video!, collection.metadata!)
            #expect(metadata.time == frame.time)
            let index = try #require(metadata.codes.first.flatMap(CMTimeValue.init), "no frame index in \(metadata.codes)")
            offsets.insert(CMTimeConvertScale(frame.time, timescale: 30, method: .roundHalfAwayFromZero).value - index)
        }
        #expect(offsets.count == 1, "frame times less indices: \(offsets.sorted())")
        // Objects of frames no video frame covers come alone, never after a later frame's.
        let times = collections.compactMap { $0.video?.time ?? $0.metadata?.time }
        #expect(times == times.sorted())
    }
}
