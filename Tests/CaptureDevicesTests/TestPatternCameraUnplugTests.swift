import Foundation
import Testing
import OpenCoreMedia
import OpenCoreVideo
@testable import CaptureDevices

extension RealTimeDeviceTests {
    /// The virtual camera's simulated unplug, as a backend: one failure, then disconnected.
    @Suite(.timeLimit(.minutes(10))) struct TestPatternCameraUnplugTests {
        @Test func unplugEndsCaptureWithOneFailureAndReconnectRestoresIt() throws {
            let camera = TestPatternCamera(uniqueID: "unplug-test-camera", localizedName: "Unplugged Camera")
            let format = CaptureFormat.video(camera.videoFormats.first {
                $0.pixelFormat == kCVPixelFormatType_32BGRA && $0.width == 640
            }!)
            final class Changes: @unchecked Sendable {
                let lock = NSLock()
                var seen: [Bool] = []
            }
            let changes = Changes()
            let observation = CaptureDeviceRegistry.addConnectionObserver { device, isConnected in
                guard device === camera else { return }
                changes.lock.withLock { changes.seen.append(isConnected) }
            }
            defer { observation.cancel() }

            let collector = Collector { $0.sequenceNumber }
            try camera.start(format: format, frameDuration: CMTime(value: 1, timescale: 60), handler: collector.handler)
            collector.wait(for: 3, timeout: 5)
            camera.simulateDisconnect()
            // When it returns, the failure was delivered, once, and the camera stopped itself.
            #expect(collector.errors.map(\.reason) == [.disconnected])
            #expect(!camera.isRunning && !camera.isConnected)
            let delivered = collector.records.count
            do {
                try camera.start(format: format, frameDuration: nil, handler: collector.handler)
                Issue.record("an unplugged camera started")
            } catch {
                #expect(error.reason == .disconnected)
            }
            camera.simulateDisconnect()  // a second unplug changes nothing
            camera.stop()
            #expect(collector.records.count == delivered && collector.errors.count == 1)
            #expect(changes.lock.withLock { changes.seen } == [false])

            camera.simulateReconnect()
            #expect(camera.isConnected)
            #expect(changes.lock.withLock { changes.seen } == [false, true])
            let again = Collector { $0.sequenceNumber }
            try camera.start(format: format, frameDuration: CMTime(value: 1, timescale: 60), handler: again.handler)
            #expect(again.wait(for: 2, timeout: 5).count >= 2)
            camera.stop()
            #expect(again.errors.isEmpty)

            // An observation, once cancelled, hears nothing more.
            observation.cancel()
            camera.simulateDisconnect()
            camera.simulateReconnect()
            #expect(changes.lock.withLock { changes.seen } == [false, true])
        }
    }
}
