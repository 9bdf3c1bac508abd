import Foundation
import Testing
@testable import OpenAVFoundation
import CaptureDevices

/// Waits for notifications of some names, from any object, and keeps them.
final class NotificationWaiter: @unchecked Sendable {
    private let condition = NSCondition()
    private var received: [Notification] = []
    private var tokens: [NSObjectProtocol] = []

    init(_ names: [Notification.Name]) {
        for name in names {
            tokens.append(NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) {
                [self] notification in
                condition.withLock {
                    received.append(notification)
                    condition.broadcast()
                }
            })
        }
    }

    deinit {
        for token in tokens { NotificationCenter.default.removeObserver(token) }
    }

    /// The first notification of `name` (from `object`, when given, and satisfying `matches`)
    /// within `timeout` seconds.
    func wait(for name: Notification.Name, object: AnyObject? = nil, timeout: TimeInterval = 5,
              where matches: (Notification) -> Bool = { _ in true }) -> Notification? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let found = received.first(where: {
                $0.name == name && (object == nil || $0.object as AnyObject? === object) && matches($0)
            }) {
                return found
            }
            if !condition.wait(until: deadline) { return nil }
        }
    }
}

extension CaptureSessionTests {
    /// Runs `body` with a further virtual camera listed (with its own unique ID), then unlists it.
    static func withAddedCamera<Result>(_ uniqueID: String, position: CapturePosition = .unspecified,
                                        _ body: (TestPatternCamera, AVCaptureDevice) throws -> Result) throws -> Result {
        let camera = TestPatternCamera(uniqueID: uniqueID, localizedName: "Test Camera \(uniqueID)", position: position)
        CaptureDeviceRegistry.addVirtualDevice(camera)
        defer {
            camera.stop()
            CaptureDeviceRegistry.removeVirtualDevice(camera)
        }
        let device = try #require(AVCaptureDevice.DiscoverySession(
            deviceTypes: [.builtInWideAngleCamera], mediaType: .video, position: .unspecified).devices.first { $0.uniqueID == uniqueID })
        return try body(camera, device)
    }

    /// A running-ready session: `device` at 640x480 into a video data output delivering to `collector`.
    static func makeSession(device: AVCaptureDevice, collector: CaptureFrameCollector,
                            queue: DispatchQueue) throws -> (AVCaptureSession, AVCaptureVideoDataOutput) {
        let session = AVCaptureSession()
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: device))
        let output = AVCaptureVideoDataOutput()
        output.setSampleBufferDelegate(collector, queue: queue)
        session.addOutput(output)
        return (session, output)
    }

    /// Unplugged while running (the camera is an added one, so that the built-in camera other
    /// suites use stays plugged in).
    @Test func unpluggingTheCameraStopsTheSessionWithAnError() throws {
        let waiter = NotificationWaiter([AVCaptureSession.runtimeErrorNotification, AVCaptureSession.didStopRunningNotification,
                                         AVCaptureDevice.wasDisconnectedNotification, AVCaptureDevice.wasConnectedNotification])
        try Self.withAddedCamera("unplug-camera") { camera, device in
            let added = try #require(waiter.wait(for: AVCaptureDevice.wasConnectedNotification))
            #expect(added.object as? AVCaptureDevice === device)
            let collector = CaptureFrameCollector()
            let (session, _) = try Self.makeSession(device: device, collector: collector, queue: DispatchQueue(label: "unplug"))
            session.startRunning()
            defer { session.stopRunning() }
            #expect(collector.wait { frames, _ in frames.count >= 2 })

            camera.simulateDisconnect()
            let disconnected = try #require(waiter.wait(for: AVCaptureDevice.wasDisconnectedNotification))
            #expect(disconnected.object as? AVCaptureDevice === device)
            let runtimeError = try #require(waiter.wait(for: AVCaptureSession.runtimeErrorNotification, object: session))
            let error = try #require(runtimeError.userInfo?[AVCaptureSessionErrorKey] as? AVError)
            #expect(error.code == .deviceWasDisconnected)
            #expect(error.userInfo[AVErrorDeviceKey] as? AVCaptureDevice === device)
            #expect(waiter.wait(for: AVCaptureSession.didStopRunningNotification, object: session) != nil)
            #expect(!session.isRunning)
            #expect(!device.isConnected)
            #expect(throws: AVError.self) { try device.lockForConfiguration() }
            #expect(throws: AVError.self) { try AVCaptureDeviceInput(device: device) }

            // Plugged in again, the camera is a new device object; the old one stays disconnected.
            camera.simulateReconnect()
            let connected = try #require(waiter.wait(for: AVCaptureDevice.wasConnectedNotification) {
                $0.object as AnyObject? !== device
            })
            let replugged = try #require(connected.object as? AVCaptureDevice)
            #expect(replugged.uniqueID == device.uniqueID)
            #expect(replugged.isConnected && !device.isConnected)
            #expect(AVCaptureDevice.DiscoverySession(deviceTypes: [.builtInWideAngleCamera], mediaType: .video,
                                                     position: .unspecified).devices.contains { $0 === replugged })
        }
    }
}
