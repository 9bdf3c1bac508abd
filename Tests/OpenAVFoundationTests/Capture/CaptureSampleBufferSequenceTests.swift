import Foundation
import Testing
@testable import OpenAVFoundation
import CaptureDevices

extension CaptureSessionTests {
    /// Frames as an asynchronous sequence, without a delegate: in order, carrying their index,
    /// and the iteration ends when the session stops.
    @Test func videoFramesAsAnAsyncSequenceEndWithTheSession() async throws {
        let session = AVCaptureSession()
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice.default(for: .video))))
        let output = AVCaptureVideoDataOutput()
        output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        session.addOutput(output)
        #expect(output.sampleBufferDelegate == nil)
        session.startRunning()
        defer { session.stopRunning() }

        var times: [CMTime] = []
        var indices: [Int?] = []
        let stopped = DispatchGroup()
        for await buffer in output.sampleBuffers {
            times.append(CMSampleBufferGetPresentationTimeStamp(buffer))
            let pixels = try #require(CMSampleBufferGetImageBuffer(buffer))
            #expect(CVPixelBufferGetPixelFormatType(pixels) == kCVPixelFormatType_32BGRA, "converted as videoSettings asks")
            indices.append(FrameIndexBarcode.read(from: pixels))
            if times.count == 10 {
                // Stopping ends the iteration (after what is already queued, at most one frame).
                stopped.enter()
                DispatchQueue.global().async {
                    session.stopRunning()
                    stopped.leave()
                }
            }
        }
        // The iteration may end while stopRunning() is still on its way out; once it returned
        // the session is not running.
        #expect(stopped.wait(timeout: .now() + 10) == .success)
        #expect(times.count >= 10 && times.count <= 12)
        #expect(times == times.sorted() && Set(times).count == times.count)
        #expect(indices.allSatisfy { $0 != nil })
        #expect(!session.isRunning)
    }

    /// A slow loop gets the newest frame each time it asks (the delegate's policy), so nothing
    /// piles up: every frame it gets is at most a frame or two old.
    @Test func aSlowLoopGetsTheNewestFrame() async throws {
        let session = AVCaptureSession()
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice.default(for: .video))))
        let output = AVCaptureVideoDataOutput()
        session.addOutput(output)
        session.startRunning()
        defer { session.stopRunning() }
        var ages: [Double] = []
        var times: [CMTime] = []
        for await buffer in output.sampleBuffers {
            let time = CMSampleBufferGetPresentationTimeStamp(buffer)
            times.append(time)
            ages.append(CMTimeSubtract(CMClockGetTime(CMClock.hostTimeClock), time).seconds)
            if times.count == 8 { break }
            try await Task.sleep(nanoseconds: 100_000_000)  // a duration: the slow loop's work, three frames long
        }
        let gaps = zip(times, times.dropFirst()).map { CMTimeSubtract($1, $0).seconds }
        #expect(gaps.allSatisfy { $0 >= 1.5 / 30 }, "frames were dropped between slow iterations: \(gaps)")
        #expect(ages.dropFirst().allSatisfy { $0 < 0.2 }, "each frame is the newest, not an old queued one: \(ages)")
    }

    /// Audio buffers as an asynchronous sequence, alongside a delegate that gets the same ones.
    @Test func audioBuffersAsAnAsyncSequence() async throws {
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice.default(for: .audio))))
        let output = AVCaptureAudioDataOutput()
        let delegate = CaptureAudioVideoDelegate()
        output.setSampleBufferDelegate(delegate, queue: DispatchQueue(label: "audio delegate"))
        session.addOutput(output)
        session.startRunning()
        defer { session.stopRunning() }
        var buffers: [(CMTime, CMTime)] = []
        for await buffer in output.sampleBuffers {
            buffers.append((CMSampleBufferGetPresentationTimeStamp(buffer), CMSampleBufferGetDuration(buffer)))
            if buffers.count == 20 { break }
        }
        for (previous, next) in zip(buffers, buffers.dropFirst()) {
            #expect(next.0 == CMTimeAdd(previous.0, previous.1), "contiguous")
        }
        #expect(delegate.wait { _, audio in audio >= 20 })
        let delegated = Set(delegate.audioBuffers.map(\.time))
        #expect(buffers.allSatisfy { delegated.contains($0.0) || $0.0 > delegated.max()! }, "the delegate got the same buffers")
    }
}
