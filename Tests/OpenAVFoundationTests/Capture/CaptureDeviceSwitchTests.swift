import Foundation
import Testing
@testable import OpenAVFoundation
import CaptureDevices

extension CaptureSessionTests {
    /// The front/back switch of the capture articles: inside beginConfiguration() and
    /// commitConfiguration() while running, the back camera's input is removed and the front
    /// camera's added. The session keeps running and frames keep coming, now from the front
    /// camera: counted from 0 again, after one reported discontinuity, and mirrored (the new
    /// connection mirrors a front camera automatically).
    @Test func switchingCamerasWhileRunningKeepsFramesFlowing() throws {
        try Self.withAddedCamera("back-camera", position: .back) { backCamera, _ in
            try Self.withAddedCamera("front-camera", position: .front) { frontCamera, _ in
                // As the articles find a camera by position.
                func camera(at position: AVCaptureDevice.Position) -> AVCaptureDevice? {
                    AVCaptureDevice.DiscoverySession(deviceTypes: [.builtInWideAngleCamera], mediaType: .video,
                                                     position: position).devices.first { $0.position == position }
                }
                let back = try #require(camera(at: .back)), front = try #require(camera(at: .front))
                let sampler = CaptureFrameSampler(keep: 60)
                let session = AVCaptureSession()
                session.sessionPreset = .vga640x480
                let backInput = try AVCaptureDeviceInput(device: back)
                session.addInput(backInput)
                let output = AVCaptureVideoDataOutput()
                output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
                let collector = DropCounter()
                let delegate = SamplerAndDrops(sampler, collector)  // delegates are held weakly
                output.setSampleBufferDelegate(delegate, queue: DispatchQueue(label: "switch"))
                session.addOutput(output)
                let recorder = CaptureNotificationRecorder(session)
                session.startRunning()
                defer { session.stopRunning() }
                let before = try #require(sampler.picture(after: 2) { !TestPatternGeometry.isFlash($0, degrees: 0) })
                TestPatternGeometry.expectLandmarks(in: before, degrees: 0)
                #expect(backCamera.isRunning && !frontCamera.isRunning)

                session.beginConfiguration()
                session.removeInput(backInput)
                let frontInput = try AVCaptureDeviceInput(device: front)
                #expect(session.canAddInput(frontInput))
                session.addInput(frontInput)
                session.commitConfiguration()
                let switched = sampler.count

                #expect(session.isRunning)
                #expect(!backCamera.isRunning && frontCamera.isRunning)
                #expect(output.connection(with: .video)?.isVideoMirrored == true)
                let after = try #require(sampler.picture(after: switched + 1) { !TestPatternGeometry.isFlash($0, degrees: 0, mirrored: true) })
                TestPatternGeometry.expectLandmarks(in: after, degrees: 0, mirrored: true)
                // Ten more frames flow from the front camera.
                #expect(sampler.picture(after: switched + 10) != nil)
                #expect(collector.discontinuities == 1)
                #expect(recorder.posted == [AVCaptureSession.didStartRunningNotification], "no stop, no error")
                withExtendedLifetime(delegate) {}
            }
        }
    }
}

/// Counts the discontinuities a video data output reports.
final class DropCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var discontinuities: Int { lock.withLock { count } }

    func dropped(_ sampleBuffer: CMSampleBuffer) {
        let reason = CMGetAttachment(sampleBuffer, key: kCMSampleBufferAttachmentKey_DroppedFrameReason, attachmentModeOut: nil) as? String
        if reason == kCMSampleBufferDroppedFrameReason_Discontinuity { lock.withLock { count += 1 } }
    }
}

/// A delegate passing frames to a sampler and drops to a counter.
final class SamplerAndDrops: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    let sampler: CaptureFrameSampler
    let drops: DropCounter

    init(_ sampler: CaptureFrameSampler, _ drops: DropCounter) {
        self.sampler = sampler
        self.drops = drops
    }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        sampler.captureOutput(output, didOutput: sampleBuffer, from: connection)
    }

    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        drops.dropped(sampleBuffer)
    }
}
