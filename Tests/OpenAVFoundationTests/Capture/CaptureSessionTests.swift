import Foundation
import Testing
@testable import OpenAVFoundation
import CaptureDevices
import TestSupport

/// What a video data output delivered: per frame its time, size, format and barcode index; per
/// drop its time and reason. Tests wait on it for conditions (never sleep).
final class CaptureFrameCollector: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    struct Frame {
        var time: CMTime
        var duration: CMTime
        var width: Int
        var height: Int
        var pixelFormat: OSType
        var index: Int?
    }

    struct Drop {
        var time: CMTime
        var reason: String?
        var hasImage: Bool
    }

    private let condition = NSCondition()
    private var storedFrames: [Frame] = []
    private var storedDrops: [Drop] = []
    /// How long each `didOutput` takes, to play a slow delegate.
    let delay: TimeInterval
    /// Called on the delegate queue after each frame is recorded, with the count so far.
    let onFrame: (@Sendable (Int) -> Void)?

    init(delay: TimeInterval = 0, onFrame: (@Sendable (Int) -> Void)? = nil) {
        self.delay = delay
        self.onFrame = onFrame
    }

    var frames: [Frame] { condition.withLock { storedFrames } }
    var drops: [Drop] { condition.withLock { storedDrops } }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer,
                       from connection: AVCaptureConnection) {
        guard let pixels = CMSampleBufferGetImageBuffer(sampleBuffer) else { return }
        CVPixelBufferLockBaseAddress(pixels, .readOnly)
        let index = FrameIndexBarcode.read(from: pixels)
        CVPixelBufferUnlockBaseAddress(pixels, .readOnly)
        let frame = Frame(time: CMSampleBufferGetPresentationTimeStamp(sampleBuffer),
                          duration: CMSampleBufferGetDuration(sampleBuffer),
                          width: CVPixelBufferGetWidth(pixels), height: CVPixelBufferGetHeight(pixels),
                          pixelFormat: CVPixelBufferGetPixelFormatType(pixels), index: index)
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }  // a duration: the slow delegate at work
        let count = condition.withLock {
            storedFrames.append(frame)
            condition.broadcast()
            return storedFrames.count
        }
        onFrame?(count)
    }

    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer,
                       from connection: AVCaptureConnection) {
        let reason = CMGetAttachment(sampleBuffer, key: kCMSampleBufferAttachmentKey_DroppedFrameReason,
                                     attachmentModeOut: nil)
        let drop = Drop(time: CMSampleBufferGetPresentationTimeStamp(sampleBuffer),
                        reason: (reason as? NSString).map(String.init) ?? (reason as? String),
                        hasImage: CMSampleBufferGetImageBuffer(sampleBuffer) != nil)
        condition.withLock {
            storedDrops.append(drop)
            condition.broadcast()
        }
    }

    /// Waits until `predicate` holds for the frames and drops (or `timeout` passes); whether it held.
    func wait(timeout: TimeInterval = 5, _ predicate: ([Frame], [Drop]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(storedFrames, storedDrops) {
            if !condition.wait(until: deadline) { return predicate(storedFrames, storedDrops) }
        }
        return true
    }
}

/// Records the session notifications posted for one session.
final class CaptureNotificationRecorder: @unchecked Sendable {
    private let condition = NSCondition()
    private var names: [Notification.Name] = []
    private var errors: [AVError] = []
    private var tokens: [NSObjectProtocol] = []

    init(_ session: AVCaptureSession) {
        for name in [AVCaptureSession.didStartRunningNotification, AVCaptureSession.didStopRunningNotification,
                     AVCaptureSession.runtimeErrorNotification] {
            tokens.append(NotificationCenter.default.addObserver(forName: name, object: session, queue: nil) {
                [self] notification in
                condition.withLock {
                    names.append(notification.name)
                    if let error = notification.userInfo?[AVCaptureSessionErrorKey] as? AVError { errors.append(error) }
                    condition.broadcast()
                }
            })
        }
    }

    deinit {
        for token in tokens { NotificationCenter.default.removeObserver(token) }
    }

    var posted: [Notification.Name] { condition.withLock { names } }
    var postedErrors: [AVError] { condition.withLock { errors } }
}

/// Sessions on the virtual camera, end to end. Serialized: they share the one Test Pattern Camera.
@Suite(.serialized, HeavyLoad.Scope(), .timeLimit(.minutes(10))) struct CaptureSessionTests {
    /// The guide's setup: a session, a preset, a device input, a video data output with a
    /// delegate on a serial queue.
    static func makeSession(preset: AVCaptureSession.Preset, collector: CaptureFrameCollector,
                            queue: DispatchQueue) throws -> (AVCaptureSession, AVCaptureVideoDataOutput, AVCaptureDevice) {
        let session = AVCaptureSession()
        session.sessionPreset = preset
        let device = try #require(AVCaptureDevice.default(for: .video))
        let input = try AVCaptureDeviceInput(device: device)
        #expect(session.canAddInput(input))
        session.addInput(input)
        let output = AVCaptureVideoDataOutput()
        output.setSampleBufferDelegate(collector, queue: queue)
        #expect(session.canAddOutput(output))
        session.addOutput(output)
        return (session, output, device)
    }

    @Test func guideSetupDeliversThirtyFramesInOrder() throws {
        let collector = CaptureFrameCollector()
        let queue = DispatchQueue(label: "video frames")
        let (session, output, device) = try Self.makeSession(preset: .medium, collector: collector, queue: queue)
        let recorder = CaptureNotificationRecorder(session)

        // Connections were formed between the camera's port and the output.
        let connection = try #require(output.connection(with: .video))
        #expect(session.connections.count == 1 && session.connections.first === connection)
        #expect(connection.inputPorts.first?.mediaType == .video)
        #expect(connection.inputPorts.first?.input === session.inputs.first)
        #expect(connection.output === output && connection.isEnabled && connection.isActive)
        #expect(CMVideoFormatDescriptionGetDimensions(try #require(connection.inputPorts.first?.formatDescription)).width == 640)
        #expect(session.synchronizationClock === CMClock.hostTimeClock)
        #expect(output.videoSettings[kCVPixelBufferPixelFormatTypeKey] as? NSNumber
            == NSNumber(value: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange))

        session.startRunning()
        defer { session.stopRunning() }
        #expect(session.isRunning)
        #expect(recorder.posted == [AVCaptureSession.didStartRunningNotification])
        #expect(collector.wait { frames, _ in frames.count >= 30 })

        let frames = Array(collector.frames.prefix(30))
        let step = CMTime(value: 1, timescale: 30)
        #expect(device.activeVideoMinFrameDuration == step)
        let first = try #require(frames.first)
        let firstIndex = try #require(first.index)
        var gaps = 0
        for (previous, frame) in zip(frames, frames.dropFirst()) {
            #expect(frame.width == 640 && frame.height == 480 && frame.duration == step)
            let index = try #require(frame.index, "every frame carries a readable index")
            let previousIndex = try #require(previous.index)
            #expect(index > previousIndex)
            // The barcode and the host-clock timestamp agree: index n is at first + n/30 s.
            #expect(frame.time == CMTimeAdd(first.time, CMTimeMultiply(step, multiplier: Int32(index - firstIndex))))
            gaps += index - previousIndex - 1
        }
        // Timestamps are host-clock times, near now.
        let now = CMClockGetTime(CMClock.hostTimeClock)
        #expect(abs(CMTimeSubtract(now, first.time).seconds) < 10)
        // Any frame missing (under heavy parallel load) was reported as dropped.
        #expect(collector.drops.count >= gaps)

        session.stopRunning()
        #expect(!session.isRunning)
        #expect(!device.backend.isRunning)
        queue.sync {}
        let delivered = collector.frames.count
        #expect(recorder.posted == [AVCaptureSession.didStartRunningNotification, AVCaptureSession.didStopRunningNotification])
        // Nothing more arrives once stopRunning() has returned and the queue drained (watched
        // for five frame periods).
        #expect(!collector.wait(timeout: 5.0 / 30) { frames, _ in frames.count > delivered })
        queue.sync {}
        #expect(collector.frames.count == delivered)
    }

    @Test(arguments: [true, false])
    func slowDelegateGetsLateFramesReportedAsDropped(alwaysDiscardsLateVideoFrames: Bool) throws {
        let collector = CaptureFrameCollector(delay: 0.1)
        let (session, output, _) = try Self.makeSession(preset: .vga640x480, collector: collector,
                                                        queue: DispatchQueue(label: "slow delegate"))
        #expect(output.alwaysDiscardsLateVideoFrames)
        output.alwaysDiscardsLateVideoFrames = alwaysDiscardsLateVideoFrames
        session.startRunning()
        defer { session.stopRunning() }
        #expect(collector.wait { frames, drops in drops.count >= 6 && frames.count >= 3 })
        session.stopRunning()
        let drops = collector.drops
        let frames = collector.frames
        #expect(drops.allSatisfy { $0.reason == kCMSampleBufferDroppedFrameReason_FrameWasLate })
        #expect(drops.allSatisfy { !$0.hasImage })
        // Up to the last delivered frame, every frame time is either delivered or reported
        // dropped, once: no frame is lost silently (frames still queued at the stop are discarded).
        let delivered = Set(frames.map(\.time.seconds))
        let last = try #require(delivered.max()), first = try #require(delivered.min())
        let reported = Set(drops.map(\.time.seconds).filter { $0 < last })
        #expect(drops.count == Set(drops.map(\.time.seconds)).count)
        #expect(delivered.isDisjoint(with: reported))
        #expect(Int(((last - first) * 30).rounded()) + 1 == delivered.count + reported.count)
        // Delivered frames come in order.
        #expect(frames.map(\.time) == frames.map(\.time).sorted())
    }

    @Test func activeFormatChangeWithTheLockAppliesWhileRunning() throws {
        let collector = CaptureFrameCollector()
        let (session, _, device) = try Self.makeSession(preset: .vga640x480, collector: collector,
                                                        queue: DispatchQueue(label: "format switch"))
        session.startRunning()
        defer { session.stopRunning() }
        #expect(collector.wait { frames, _ in frames.contains { $0.width == 640 } })

        let hd = try #require(device.formats.first {
            $0.video?.width == 1280 && $0.video?.height == 720
                && $0.video?.pixelFormat == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
        })
        try device.lockForConfiguration()
        device.activeFormat = hd
        device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 60)
        device.unlockForConfiguration()
        #expect(device.activeFormat === hd)
        #expect(session.sessionPreset == .inputPriority)
        #expect(session.isRunning)

        #expect(collector.wait { frames, _ in frames.filter { $0.width == 1280 && $0.height == 720 }.count >= 3 })
        let hdFrames = collector.frames.filter { $0.width == 1280 }
        #expect(hdFrames.allSatisfy { $0.height == 720 && $0.duration == CMTime(value: 1, timescale: 60) })
        #expect(hdFrames.allSatisfy { $0.index != nil })
    }

    @Test func videoSettingsConvertToBGRA() throws {
        let collector = CaptureFrameCollector()
        let (session, output, _) = try Self.makeSession(preset: .vga640x480, collector: collector,
                                                        queue: DispatchQueue(label: "bgra"))
        #expect(output.availableVideoPixelFormatTypes.contains(kCVPixelFormatType_32BGRA))
        output.videoSettings = [kCVPixelBufferPixelFormatTypeKey: Int(kCVPixelFormatType_32BGRA)]
        session.startRunning()
        defer { session.stopRunning() }
        #expect(collector.wait { frames, _ in frames.count >= 5 })
        let frames = collector.frames
        #expect(frames.allSatisfy { $0.pixelFormat == kCVPixelFormatType_32BGRA && $0.width == 640 })
        // The converted pixels still carry the frame index.
        #expect(frames.allSatisfy { $0.index != nil })
    }

    @Test func configurationLockRulesAndPresets() throws {
        let session = AVCaptureSession()
        let device = try #require(AVCaptureDevice.default(for: .video))
        session.addInput(try AVCaptureDeviceInput(device: device))
        let sizes: [(AVCaptureSession.Preset, Int32, Int32)] = [
            (.low, 640, 480), (.medium, 640, 480), (.vga640x480, 640, 480), (.hd1280x720, 1280, 720),
            (.iFrame1280x720, 1280, 720), (.high, 1920, 1080), (.hd1920x1080, 1920, 1080),
            (.hd4K3840x2160, 3840, 2160), (.photo, 3840, 2160),
        ]
        for (preset, width, height) in sizes {
            #expect(session.canSetSessionPreset(preset))
            session.sessionPreset = preset
            let dimensions = CMVideoFormatDescriptionGetDimensions(device.activeFormat.formatDescription)
            #expect(dimensions.width == width && dimensions.height == height, "\(preset.rawValue)")
            #expect(CMFormatDescriptionGetMediaSubType(device.activeFormat.formatDescription)
                == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        }
        #expect(!session.canSetSessionPreset(.cif352x288))
        #expect(!session.canSetSessionPreset(AVCaptureSession.Preset(rawValue: "nonsense")))

        // With the lock: the format applies, durations reset to its default, the preset yields.
        let bgra = try #require(device.formats.first {
            $0.video?.width == 640 && $0.video?.pixelFormat == kCVPixelFormatType_32BGRA
        })
        try device.lockForConfiguration()
        device.activeFormat = bgra
        #expect(device.activeVideoMinFrameDuration == CMTime(value: 1, timescale: 30))
        device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 120)
        #expect(device.activeVideoMinFrameDuration == CMTime(value: 1, timescale: 120))
        #expect(device.activeVideoMaxFrameDuration == CMTime(value: 1, timescale: 30))
        device.activeVideoMaxFrameDuration = CMTime(value: 1, timescale: 240)
        #expect(device.activeVideoMinFrameDuration == CMTime(value: 1, timescale: 240))
        device.activeVideoMaxFrameDuration = CMTime(value: 1, timescale: 10)
        #expect(device.activeVideoMaxFrameDuration == CMTime(value: 1, timescale: 10))
        device.activeVideoMinFrameDuration = .invalid
        #expect(device.activeVideoMinFrameDuration == CMTime(value: 1, timescale: 30))
        device.unlockForConfiguration()
        #expect(device.activeFormat === bgra)
        #expect(session.sessionPreset == .inputPriority)

        // Choosing a preset again takes the format back.
        session.sessionPreset = .hd1280x720
        #expect(device.activeFormat.video?.width == 1280)
    }

    @Test func secondSessionOnABusyDeviceReportsARuntimeError() throws {
        let collector = CaptureFrameCollector()
        let (first, _, _) = try Self.makeSession(preset: .vga640x480, collector: collector,
                                                 queue: DispatchQueue(label: "first"))
        let (second, _, _) = try Self.makeSession(preset: .vga640x480, collector: CaptureFrameCollector(),
                                                  queue: DispatchQueue(label: "second"))
        let recorder = CaptureNotificationRecorder(second)
        first.startRunning()
        defer { first.stopRunning() }
        second.startRunning()
        #expect(!second.isRunning)
        #expect(recorder.posted == [AVCaptureSession.runtimeErrorNotification])
        #expect(recorder.postedErrors.first?.code == .deviceAlreadyUsedByAnotherSession)
        #expect(first.isRunning)
        #expect(collector.wait { frames, _ in frames.count >= 2 })
    }

    @Test func stopRunningFromTheDelegateQueue() throws {
        final class SessionBox: @unchecked Sendable { var session: AVCaptureSession? }
        let box = SessionBox()
        let collector = CaptureFrameCollector { count in
            if count == 3 { box.session?.stopRunning() }
        }
        let queue = DispatchQueue(label: "stopping delegate")
        let (session, _, device) = try Self.makeSession(preset: .vga640x480, collector: collector, queue: queue)
        box.session = session
        let recorder = CaptureNotificationRecorder(session)
        session.startRunning()
        defer { session.stopRunning() }
        #expect(collector.wait { frames, _ in frames.count >= 3 })
        queue.sync {}
        #expect(!session.isRunning && !device.backend.isRunning)
        #expect(collector.frames.count == 3)
        #expect(recorder.posted.last == AVCaptureSession.didStopRunningNotification)
    }

    @Test func removingTheOutputStopsTheDevice() throws {
        let collector = CaptureFrameCollector()
        let (session, output, device) = try Self.makeSession(preset: .vga640x480, collector: collector,
                                                             queue: DispatchQueue(label: "remove"))
        session.startRunning()
        defer { session.stopRunning() }
        #expect(collector.wait { frames, _ in frames.count >= 1 })
        session.beginConfiguration()
        session.removeOutput(output)
        #expect(device.backend.isRunning)
        session.commitConfiguration()
        #expect(!device.backend.isRunning)
        #expect(session.isRunning && session.outputs.isEmpty && session.connections.isEmpty)
        #expect(output.connections.isEmpty)
    }

    @Test func framesQueuedWhenTheAppReleasesTheSessionStillArrive() throws {
        // The blocked output's delegate holds its first frame until the session is gone; a
        // second output on the same camera shows (by its own frames) that more frames were
        // offered to the blocked one meanwhile, waiting in its queue.
        let unblock = DispatchSemaphore(value: 0)
        let blocked = CaptureFrameCollector { count in if count == 1 { unblock.wait() } }
        let watcher = CaptureFrameCollector()
        var session: AVCaptureSession? = try Self.makeSession(preset: .vga640x480, collector: blocked,
                                                              queue: DispatchQueue(label: "blocked")).0
        let second = AVCaptureVideoDataOutput()
        second.setSampleBufferDelegate(watcher, queue: DispatchQueue(label: "watcher"))
        try #require(session?.canAddOutput(second) == true)
        session?.addOutput(second)
        session?.startRunning()
        #expect(blocked.wait { frames, _ in frames.count == 1 })
        #expect(watcher.wait { frames, _ in frames.count >= 3 })
        session = nil  // released without stopRunning(): the devices stop, queued frames remain
        unblock.signal()
        #expect(blocked.wait { frames, _ in frames.count >= 2 }, "the queued frame reached the delegate")
    }
}
