import Foundation
import Testing
@testable import OpenAVFoundation

/// Apple-style client code: one delegate for both data outputs, implementing only
/// `captureOutput(_:didOutput:from:)` and telling the outputs apart, as apps do.
final class CaptureAudioVideoDelegate: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate,
    AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable {
    private let condition = NSCondition()
    private var videoTimes: [CMTime] = []
    private var audio: [(time: CMTime, duration: CMTime, samples: Int, rate: Float64)] = []

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer,
                       from connection: AVCaptureConnection) {
        let time = CMSampleBufferGetPresentationTimeStamp(sampleBuffer)
        condition.withLock {
            if output is AVCaptureVideoDataOutput {
                videoTimes.append(time)
            } else if output is AVCaptureAudioDataOutput {
                let rate = CMSampleBufferGetFormatDescription(sampleBuffer)
                    .flatMap { CMAudioFormatDescriptionGetStreamBasicDescription($0)?.pointee.mSampleRate } ?? 0
                audio.append((time, CMSampleBufferGetDuration(sampleBuffer), CMSampleBufferGetNumSamples(sampleBuffer), rate))
            }
            condition.broadcast()
        }
    }

    var videoFrames: [CMTime] { condition.withLock { videoTimes } }
    var audioBuffers: [(time: CMTime, duration: CMTime, samples: Int, rate: Float64)] { condition.withLock { audio } }

    /// Waits until `predicate` holds (or 5 s pass); whether it held.
    func wait(_ predicate: (Int, Int) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(videoTimes.count, audio.count) {
            if !condition.wait(until: deadline) { return predicate(videoTimes.count, audio.count) }
        }
        return true
    }
}

extension CaptureSessionTests {
    @Test func cameraAndMicrophoneFeedTheirOwnOutputs() throws {
        let session = AVCaptureSession()
        session.beginConfiguration()
        session.sessionPreset = .vga640x480
        let camera = try #require(AVCaptureDevice.default(for: .video))
        let microphone = try #require(AVCaptureDevice.default(for: .audio))
        let cameraInput = try AVCaptureDeviceInput(device: camera)
        let microphoneInput = try AVCaptureDeviceInput(device: microphone)
        #expect(microphoneInput.ports.map(\.mediaType) == [.audio])
        session.addInput(cameraInput)
        session.addInput(microphoneInput)
        let delegate = CaptureAudioVideoDelegate()
        let queue = DispatchQueue(label: "audio and video")
        let videoOutput = AVCaptureVideoDataOutput()
        videoOutput.setSampleBufferDelegate(delegate, queue: queue)
        let audioOutput = AVCaptureAudioDataOutput()
        audioOutput.setSampleBufferDelegate(delegate, queue: queue)
        session.addOutput(videoOutput)
        session.addOutput(audioOutput)
        session.commitConfiguration()
        #expect(audioOutput.sampleBufferDelegate === delegate && audioOutput.sampleBufferCallbackQueue === queue)

        // Each output is connected to the port of its own media type only.
        #expect(session.connections.count == 2)
        #expect(videoOutput.connections.count == 1 && videoOutput.connection(with: .audio) == nil)
        #expect(audioOutput.connections.count == 1 && audioOutput.connection(with: .video) == nil)
        #expect(audioOutput.connection(with: .audio)?.inputPorts.first?.input === microphoneInput)

        // Writer settings for recording what the outputs deliver.
        let videoSettings = try #require(videoOutput.recommendedVideoSettingsForAssetWriter(writingTo: .mov))
        #expect(videoSettings[AVVideoCodecKey] as? String == AVVideoCodecType.h264.rawValue)
        #expect(videoSettings[AVVideoWidthKey] as? Int == 640 && videoSettings[AVVideoHeightKey] as? Int == 480)
        #expect(videoOutput.recommendedVideoSettingsForAssetWriter(writingTo: .m4a) == nil)
        let audioSettings = try #require(audioOutput.recommendedAudioSettingsForAssetWriter(writingTo: .m4a))
        #expect(audioSettings[AVFormatIDKey] as? AudioFormatID == kAudioFormatMPEG4AAC)
        #expect(audioSettings[AVNumberOfChannelsKey] as? Int == 1)

        session.startRunning()
        defer { session.stopRunning() }
        #expect(delegate.wait { video, audio in video >= 5 && audio >= 20 })
        session.stopRunning()

        // Audio buffers are contiguous on the host clock: each starts where the previous ended.
        let buffers = delegate.audioBuffers
        #expect(buffers.allSatisfy { $0.rate == 48_000 && $0.samples == 480 })
        for (previous, buffer) in zip(buffers, buffers.dropFirst()) {
            #expect(buffer.time == CMTimeAdd(previous.time, previous.duration))
        }
        // Audio and video are on the same clock: their times are close.
        let video = try #require(delegate.videoFrames.first), audio = try #require(buffers.first)
        #expect(abs(CMTimeSubtract(video, audio.time).seconds) < 1)
    }

    @Test func manualConnections() throws {
        let session = AVCaptureSession()
        session.sessionPreset = .vga640x480
        let camera = try #require(AVCaptureDevice.default(for: .video))
        let input = try AVCaptureDeviceInput(device: camera)
        session.addInputWithNoConnections(input)
        let output = AVCaptureVideoDataOutput()
        let audioOutput = AVCaptureAudioDataOutput()
        session.addOutputWithNoConnections(output)
        session.addOutputWithNoConnections(audioOutput)
        #expect(session.connections.isEmpty && output.connections.isEmpty)
        #expect(!session.canAddInput(input) && !session.canAddOutput(output))

        let port = try #require(input.ports.first)
        #expect(!session.canAddConnection(AVCaptureConnection(inputPorts: [port], output: audioOutput)))
        let connection = AVCaptureConnection(inputPorts: [port], output: output)
        #expect(session.canAddConnection(connection))
        session.addConnection(connection)
        #expect(session.connections.first === connection && output.connection(with: .video) === connection)
        #expect(!session.canAddConnection(AVCaptureConnection(inputPorts: [port], output: output)))

        let collector = CaptureFrameCollector()
        output.setSampleBufferDelegate(collector, queue: DispatchQueue(label: "manual"))
        session.startRunning()
        defer { session.stopRunning() }
        #expect(collector.wait { frames, _ in frames.count >= 2 })
        // A disabled connection stops the flow (and the device).
        connection.isEnabled = false
        session.removeConnection(connection)
        #expect(session.connections.isEmpty && !camera.backend.isRunning)
    }

    /// A delegate that stalls for a second and a half holds up at most
    /// `maximumQueuedBufferCount` buffers: afterwards it gets that many (contiguous, from
    /// before the stall) and then the newest, with the ones in between dropped, so memory does
    /// not grow with a slow consumer. The same holds for a `sampleBuffers` iteration that does
    /// not read.
    @Test func aStalledAudioConsumerHoldsAtMostTheQueuesCapacity() async throws {
        final class StallingDelegate: NSObject, AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable {
            let release = DispatchSemaphore(value: 0)
            let condition = NSCondition()
            var times: [CMTime] = []
            func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
                let first = condition.withLock { () -> Bool in
                    times.append(sampleBuffer.presentationTimeStamp)
                    condition.broadcast()
                    return times.count == 1
                }
                if first { release.wait() }
            }
        }
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice.default(for: .audio))))
        let output = AVCaptureAudioDataOutput()
        let delegate = StallingDelegate()
        output.setSampleBufferDelegate(delegate, queue: DispatchQueue(label: "stalled audio"))
        session.addOutput(output)
        let iteration = output.sampleBuffers.makeAsyncIterator()
        session.startRunning()
        defer { session.stopRunning() }
        // The microphone delivers 100 buffers a second: three times the queue's capacity while
        // the delegate and the iteration stall, from the delegate's first buffer on.
        let started = delegate.condition.withLock { () -> Bool in
            let deadline = Date().addingTimeInterval(5)
            while delegate.times.isEmpty { if !delegate.condition.wait(until: deadline) { return false } }
            return true
        }
        try #require(started, "no audio buffer within 5 s")
        // The stall, a duration: 1.5 s of the host clock.
        let stalledAt = CMClockGetTime(CMClock.hostTimeClock)
        while CMClockGetTime(CMClock.hostTimeClock) - stalledAt < CMTime(value: 3, timescale: 2) {
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        let capacity = AVCaptureAudioDataOutput.maximumQueuedBufferCount
        delegate.release.signal()
        let caughtUp = delegate.condition.withLock { () -> Bool in
            let deadline = Date().addingTimeInterval(5)
            while delegate.times.count < capacity + 20 {
                if !delegate.condition.wait(until: deadline) { return false }
            }
            return true
        }
        #expect(caughtUp)
        let times = delegate.condition.withLock { delegate.times }
        let step = CMTime(value: 1, timescale: 100)
        // Buffers 1...capacity follow the first without a gap; one gap of at least a second
        // comes right after them (the buffers dropped while the queue was full).
        let gaps = zip(times, times.dropFirst()).enumerated().filter { $0.element.1 - $0.element.0 > step + step }
        #expect(gaps.count == 1 && gaps.first?.offset == capacity, "gaps after buffers \(gaps.map(\.offset)) of \(times.count)")
        if let gap = gaps.first { #expect(gap.element.1 - gap.element.0 >= CMTime(value: 1, timescale: 1)) }

        // The iteration never read: its own queue kept the first `capacity` buffers it was
        // offered, in order, and no more.
        var stalledIteration = iteration
        var read: [CMTime] = []
        for _ in 0..<(capacity + 5) {
            guard let buffer = await stalledIteration.next() else { break }
            read.append(buffer.presentationTimeStamp)
        }
        let iterationGaps = zip(read, read.dropFirst()).enumerated().filter { $0.element.1 - $0.element.0 > step + step }
        #expect(iterationGaps.count == 1 && iterationGaps.first?.offset == capacity - 1,
                "iteration gaps after buffers \(iterationGaps.map(\.offset)) of \(read.count)")
    }
}
