import Foundation
import Testing
@testable import OpenAVFoundation

extension CaptureSessionTests {
    /// A client that keeps every buffer empties the camera's pool: the frames the camera could
    /// not make are reported as out of buffers, not as late, and delivery resumes when the client
    /// lets go.
    @Test func heldBuffersAreReportedAsOutOfBuffers() throws {
        final class Hoarder: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
            let condition = NSCondition()
            var held: [CMSampleBuffer] = []
            var delivered = 0
            var reasons: [String] = []
            var hoarding = true

            func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer,
                               from connection: AVCaptureConnection) {
                condition.withLock {
                    if hoarding { held.append(sampleBuffer) }
                    delivered += 1
                    condition.broadcast()
                }
            }

            func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer,
                               from connection: AVCaptureConnection) {
                let reason = CMGetAttachment(sampleBuffer, key: kCMSampleBufferAttachmentKey_DroppedFrameReason,
                                             attachmentModeOut: nil) as? String
                condition.withLock {
                    reasons.append(reason ?? "none")
                    condition.broadcast()
                }
            }

            func wait(_ predicate: () -> Bool) -> Bool {
                let deadline = Date().addingTimeInterval(5)
                condition.lock()
                defer { condition.unlock() }
                while !predicate() {
                    if !condition.wait(until: deadline) { return predicate() }
                }
                return true
            }
        }
        let hoarder = Hoarder()
        let session = AVCaptureSession()
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice.default(for: .video))))
        let output = AVCaptureVideoDataOutput()
        // The camera's own format: delivered buffers are the camera's pool buffers.
        output.setSampleBufferDelegate(hoarder, queue: DispatchQueue(label: "hoarder"))
        session.addOutput(output)
        session.startRunning()
        defer { session.stopRunning() }

        // The camera's pool has 16 buffers at 640x480; the output may hold one more frame.
        #expect(hoarder.wait { hoarder.held.count >= 15 })
        // Ten frame times pass on the host clock with every buffer held (drops are reported
        // with the next delivered frame, so nothing can be waited for here).
        let tenFrames = Date().addingTimeInterval(10.0 / 30)
        hoarder.condition.withLock { while hoarder.condition.wait(until: tenFrames) {} }
        let heldCount = hoarder.condition.withLock { hoarder.held.count }
        #expect(heldCount <= 16, "the camera gives out at most its pool")
        #expect(!hoarder.condition.withLock { hoarder.reasons }.contains(kCMSampleBufferDroppedFrameReason_OutOfBuffers))
        hoarder.condition.withLock {
            hoarder.hoarding = false
            hoarder.held.removeAll()
        }
        #expect(hoarder.wait { hoarder.reasons.filter { $0 == kCMSampleBufferDroppedFrameReason_OutOfBuffers }.count >= 5 },
                "frames flow again once the buffers are back, reporting those the camera could not make")
        #expect(hoarder.condition.withLock { hoarder.reasons }.allSatisfy {
            $0 == kCMSampleBufferDroppedFrameReason_OutOfBuffers || $0 == kCMSampleBufferDroppedFrameReason_FrameWasLate
        })
    }

    /// A format change while running restarts the camera: one discontinuity is reported between
    /// the last frame of the old format and the first of the new.
    @Test func formatChangeWhileRunningIsReportedAsADiscontinuity() throws {
        let collector = CaptureFrameCollector()
        let (session, _, device) = try Self.makeSession(preset: .vga640x480, collector: collector,
                                                        queue: DispatchQueue(label: "discontinuity"))
        session.startRunning()
        defer { session.stopRunning() }
        #expect(collector.wait { frames, _ in frames.count >= 3 })
        session.sessionPreset = .hd1280x720
        #expect(collector.wait { frames, _ in frames.contains { $0.width == 1280 } })
        let discontinuities = collector.drops.filter { $0.reason == kCMSampleBufferDroppedFrameReason_Discontinuity }
        #expect(discontinuities.count == 1)
        let firstHD = try #require(collector.frames.first { $0.width == 1280 })
        let lastVGA = try #require(collector.frames.last { $0.width == 640 })
        if let discontinuity = discontinuities.first {
            #expect(discontinuity.time > lastVGA.time && discontinuity.time <= firstHD.time)
        }
        #expect(device.activeFormat.video?.width == 1280)
    }
}

extension CaptureSessionTests {
    /// 240 fps at 1280x720 through a session: one second of host time holds 240 frames, every one
    /// delivered or reported dropped, and nearly all delivered.
    @Test func twoHundredFortyFramesASecondAt720p() throws {
        let collector = CaptureFrameCollector()
        let (session, _, device) = try Self.makeSession(preset: .hd1280x720, collector: collector,
                                                        queue: DispatchQueue(label: "240 fps"))
        try device.lockForConfiguration()
        device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 240)
        device.unlockForConfiguration()
        session.startRunning()
        defer { session.stopRunning() }
        // From the first frame, one second and a little.
        #expect(collector.wait { frames, _ in
            guard let first = frames.first else { return false }
            return frames.last.map { ($0.time - first.time).seconds >= 1.05 } ?? false
        })
        let frames = collector.frames, drops = collector.drops
        let start = try #require(frames.first).time
        let end = start + CMTime(value: 1, timescale: 1)
        let delivered = frames.filter { $0.time >= start && $0.time < end }
        let dropped = drops.filter { $0.time >= start && $0.time < end }
        #expect(delivered.allSatisfy { $0.width == 1280 && $0.height == 720 && $0.duration == CMTime(value: 1, timescale: 240) })
        #expect(delivered.count + dropped.count == 240, "\(delivered.count) delivered, \(dropped.count) dropped")
        #expect(delivered.count >= 216, "\(delivered.count) of 240 delivered")
    }
}
