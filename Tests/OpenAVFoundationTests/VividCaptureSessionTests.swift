import Foundation
import Testing
@testable import OpenAVFoundation
import CaptureDevices

/// The public capture API on a real V4L2 camera: the kernel's `vivid` driver inside
/// `scripts/vivid-vm`. CaptureDevicesTests' `VividVMTests` boots the VM and runs every
/// `VividGuestTests` suite there, one test at a time; outside the VM these are skipped.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["OPENAV_VIVID_VM"] == "1",
                             "runs inside scripts/vivid-vm (VividVMTests boots it)"))
struct VividGuestTests {
    static func cameras() -> [AVCaptureDevice] {
        AVCaptureDevice.DiscoverySession(deviceTypes: [.external, .builtInWideAngleCamera], mediaType: .video,
                                         position: .unspecified).devices
    }

    @Test func discoveryListsVividBeforeTheVirtualCamera() throws {
        let cameras = Self.cameras()
        #expect(cameras.map(\.localizedName) == ["vivid", "vivid", "Test Pattern Camera"])
        #expect(cameras.first?.deviceType == .external && cameras.first?.position == .unspecified)
        let vivid = try #require(AVCaptureDevice.default(for: .video))
        #expect(vivid.uniqueID == "platform:vivid-000:vivid:vivid" && vivid.isConnected)
        // Its formats include 320x180 at up to 60 frames per second.
        let small = vivid.formats.filter {
            CMVideoFormatDescriptionGetDimensions($0.formatDescription).width == 320
                && CMVideoFormatDescriptionGetDimensions($0.formatDescription).height == 180
        }
        #expect(small.contains { $0.videoSupportedFrameRateRanges.contains { $0.maxFrameRate == 60 } })
    }

    @Test func aSessionDeliversVividFramesThroughAVideoDataOutput() throws {
        let session = AVCaptureSession()
        session.sessionPreset = .medium
        let camera = try #require(AVCaptureDevice.default(for: .video))
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let output = AVCaptureVideoDataOutput()
        let collector = CaptureFrameCollector()
        output.setSampleBufferDelegate(collector, queue: DispatchQueue(label: "vivid frames"))
        session.addOutput(output)
        session.startRunning()
        defer { session.stopRunning() }
        #expect(session.isRunning)
        #expect(collector.wait(timeout: 20) { frames, _ in frames.count >= 20 })
        session.stopRunning()
        let frames = collector.frames
        #expect(frames.allSatisfy { $0.width == 640 && $0.height == 480 })
        #expect(frames.allSatisfy { $0.pixelFormat == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange })
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.time < $1.time })
        let now = CMClockGetTime(CMClock.hostTimeClock)
        #expect(abs(CMTimeSubtract(now, try #require(frames.last).time).seconds) < 5, "on the host clock")
    }

    @Test func anUnplugStopsTheSessionWithDeviceWasDisconnected() throws {
        let camera = try #require(Self.cameras().first { $0.uniqueID == "platform:vivid-001:vivid:vivid" })
        let backend = try #require(camera.backend as? V4L2Camera)
        let session = AVCaptureSession()
        session.sessionPreset = .low
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let output = AVCaptureVideoDataOutput()
        let collector = CaptureFrameCollector()
        output.setSampleBufferDelegate(collector, queue: DispatchQueue(label: "vivid frames"))
        session.addOutput(output)
        let stopped = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var error: AVError?
        let token = NotificationCenter.default.addObserver(forName: AVCaptureSession.runtimeErrorNotification,
                                                           object: session, queue: nil) { notification in
            error = notification.userInfo?[AVCaptureSessionErrorKey] as? AVError
            stopped.signal()
        }
        defer { NotificationCenter.default.removeObserver(token) }
        session.startRunning()
        defer { session.stopRunning() }
        #expect(collector.wait(timeout: 20) { frames, _ in frames.count >= 3 })
        try backend.setValue(1, ofControlNamed: "disconnect")
        #expect(stopped.wait(timeout: .now() + 10) == .success, "a runtime error is posted")
        #expect(error?.code == .deviceWasDisconnected)
        #expect(!session.isRunning)
        #expect(!camera.isConnected)
    }
}
