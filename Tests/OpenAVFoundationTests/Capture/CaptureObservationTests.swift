import Foundation
import Testing
@testable import OpenAVFoundation

/// Records the reports of observations, and waits for them.
final class ObservationRecorder<Value: Sendable>: @unchecked Sendable {
    struct Report {
        var newValue: Value?
        var oldValue: Value?
        var isPrior: Bool
    }

    private let condition = NSCondition()
    private var stored: [Report] = []

    func record<Object>(_ object: Object, _ change: NSKeyValueObservedChange<Value>) {
        condition.withLock {
            stored.append(Report(newValue: change.newValue, oldValue: change.oldValue, isPrior: change.isPrior))
            condition.broadcast()
        }
    }

    var reports: [Report] { condition.withLock { stored } }

    /// Waits (up to 5 s) until `predicate` holds for the reports.
    func wait(_ predicate: ([Report]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(stored) {
            if !condition.wait(until: deadline) { return predicate(stored) }
        }
        return true
    }
}

extension CaptureSessionTests {
    @Test func observingIsRunning() throws {
        let (session, _, _) = try Self.makeSession(preset: .vga640x480, collector: CaptureFrameCollector(),
                                                   queue: DispatchQueue(label: "observed"))
        let recorder = ObservationRecorder<Bool>()
        var observation: NSKeyValueObservation? = session.observe(\.isRunning, options: [.initial, .new, .old, .prior]) {
            recorder.record($0, $1)
        }
        let interrupted = session.observe(\.isInterrupted, options: [.initial, .new]) { _, change in
            #expect(change.newValue == false)
        }
        defer { interrupted.invalidate() }
        #expect(recorder.reports.count == 1 && recorder.reports[0].newValue == false && recorder.reports[0].oldValue == nil)
        session.startRunning()
        let started = recorder.reports.dropFirst()
        #expect(started.map(\.isPrior) == [true, false])
        #expect(started.first?.oldValue == false && started.first?.newValue == nil)
        #expect(started.last?.oldValue == false && started.last?.newValue == true)
        session.stopRunning()
        #expect(recorder.reports.last?.oldValue == true && recorder.reports.last?.newValue == false)
        let count = recorder.reports.count
        observation = nil
        session.startRunning()
        session.stopRunning()
        #expect(recorder.reports.count == count, "a released observation reports nothing")
        _ = observation
    }

    @Test func observingTheDeviceControlsAndConnection() throws {
        try Self.withAddedCamera("observed-camera") { camera, device in
            let collector = CaptureFrameCollector()
            let (session, _) = try Self.makeSession(device: device, collector: collector, queue: DispatchQueue(label: "observed device"))
            session.startRunning()
            defer { session.stopRunning() }
            #expect(collector.wait { frames, _ in frames.count >= 1 })

            let adjusting = ObservationRecorder<Bool>()
            let focusObservation = device.observe(\.isAdjustingFocus, options: [.new]) { adjusting.record($0, $1) }
            let zoom = ObservationRecorder<CGFloat>()
            let zoomObservation = device.observe(\.videoZoomFactor, options: [.new]) { zoom.record($0, $1) }
            let format = ObservationRecorder<AVCaptureDevice.Format>()
            let formatObservation = device.observe(\.activeFormat, options: [.old, .new]) { format.record($0, $1) }
            defer { [focusObservation, zoomObservation, formatObservation].forEach { $0.invalidate() } }

            try device.lockForConfiguration()
            device.setFocusModeLocked(lensPosition: 0.6)
            device.ramp(toVideoZoomFactor: 2, withRate: 8)
            device.unlockForConfiguration()
            #expect(adjusting.wait { $0.map(\.newValue) == [true, false] }, "\(adjusting.reports.map(\.newValue))")
            #expect(zoom.wait { $0.last?.newValue == 2 })
            let factors = zoom.reports.compactMap(\.newValue)
            #expect(factors.count >= 2 && factors == factors.sorted(), "the ramp is reported step by step: \(factors)")

            let hd = try #require(device.formats.first { $0.video?.width == 1280 && $0.video?.pixelFormat == device.activeFormat.video?.pixelFormat })
            let previous = device.activeFormat
            try device.lockForConfiguration()
            device.activeFormat = hd
            device.unlockForConfiguration()
            #expect(format.reports.count == 1 && format.reports.first?.newValue === hd && format.reports.first?.oldValue === previous)

            let connected = ObservationRecorder<Bool>()
            let connection = device.observe(\.isConnected, options: [.initial, .new]) { connected.record($0, $1) }
            defer { connection.invalidate() }
            camera.simulateDisconnect()
            #expect(connected.reports.map(\.newValue) == [true, false])
        }
    }
}
