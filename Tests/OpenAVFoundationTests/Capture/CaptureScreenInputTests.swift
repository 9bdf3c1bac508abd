import Foundation
import HostSystem
import Testing
@testable import OpenAVFoundation
import CaptureDevices
import TestSupport

/// `AVCaptureScreenInput` against a private Xvfb server: the root window's picture, painted
/// through Xlib, is what the session's video data output delivers, pixel for pixel. Holds the
/// heavy-load lock: a real-time capture that measures its own pacing, kept apart from the
/// live-audio timing tests.
@Suite(HeavyLoad.Scope(), .timeLimit(.minutes(10))) struct CaptureScreenInputTests {
    /// The picture: orange with a blue rectangle.
    static let background: UInt32 = 0xFF8000
    static let box = XvfbServer.Rectangle(x: 100, y: 60, width: 200, height: 120, rgb: 0x2040C0)

    /// A session capturing `input` into BGRA through a video data output with `delegate`.
    static func session(_ input: AVCaptureScreenInput,
                         _ delegate: any AVCaptureVideoDataOutputSampleBufferDelegate) -> AVCaptureSession {
        let session = AVCaptureSession()
        #expect(session.canAddInput(input))
        session.addInput(input)
        let output = AVCaptureVideoDataOutput()
        output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        output.setSampleBufferDelegate(delegate, queue: DispatchQueue(label: "screen frames"))
        session.addOutput(output)
        return session
    }

    /// The whole screen, then a crop rectangle set while running: sizes and colours, and the
    /// crop's position to the pixel (the box's edges land where they must). The server is gone
    /// at the end.
    @Test func capturesTheScreenAndACropRectangle() throws {
        let xvfb = try XvfbServer(width: 640, height: 480)
        defer {
            xvfb.stop()
            #expect(!xvfb.isRunning, "Xvfb \(xvfb.display) still runs")
        }
        try xvfb.paint(Self.background, rectangles: [Self.box])
        let input = try #require(X11Screen.$displayName.withValue(xvfb.display) {
            AVCaptureScreenInput(displayID: CGMainDisplayID())
        }, "no screen on \(xvfb.display)")
        #expect(X11Screen.$displayName.withValue(xvfb.display) { AVCaptureScreenInput(displayID: 1) } == nil,
                "Xvfb has one screen only")
        #expect(input.cropRect.isNull && input.minFrameDuration == CMTime(value: 1, timescale: 60) && input.scaleFactor == 1
                    && input.capturesCursor && !input.capturesMouseClicks)
        #expect(input.ports.count == 1 && input.ports[0].mediaType == .video)
        let dimensions = input.ports[0].formatDescription.map(CMVideoFormatDescriptionGetDimensions)
        #expect(dimensions?.width == 640 && dimensions?.height == 480)

        let sampler = CaptureFrameSampler()
        let session = Self.session(input, sampler)
        session.startRunning()
        defer { session.stopRunning() }
        #expect(session.isRunning)
        let whole = try #require(sampler.picture(after: 0, timeout: 10), "no frame of \(xvfb.display)")
        #expect(whole.width == 640 && whole.height == 480 && whole.pixelFormat == kCVPixelFormatType_32BGRA)
        #expect(whole.rgb(5, 5) == (0xFF, 0x80, 0x00) && whole.rgb(639, 479) == (0xFF, 0x80, 0x00))
        #expect(whole.rgb(100, 60) == (0x20, 0x40, 0xC0) && whole.rgb(299, 179) == (0x20, 0x40, 0xC0))
        #expect(whole.rgb(99, 60) == (0xFF, 0x80, 0x00) && whole.rgb(300, 179) == (0xFF, 0x80, 0x00))
        #expect(whole.bytes[3] == 0xFF, "alpha \(whole.bytes[3])")

        // The box's top-left corner lands at (10, 10) of a 240×160 crop.
        let delivered = sampler.count
        input.cropRect = CGRect(x: 90, y: 50, width: 240, height: 160)
        let cropped = try #require(sampler.picture(after: delivered, timeout: 10) { $0.width == 240 },
                                   "no cropped frame")
        #expect(cropped.height == 160)
        #expect(cropped.rgb(9, 9) == (0xFF, 0x80, 0x00) && cropped.rgb(10, 10) == (0x20, 0x40, 0xC0))
        #expect(cropped.rgb(209, 129) == (0x20, 0x40, 0xC0) && cropped.rgb(210, 130) == (0xFF, 0x80, 0x00))
        #expect(cropped.rgb(239, 159) == (0xFF, 0x80, 0x00))

        // A repaint shows in the next frames.
        try xvfb.paint(0x00FF00)
        let repainted = sampler.picture(after: sampler.count, timeout: 10) { $0.rgb(120, 80) == (0x00, 0xFF, 0x00) }
        #expect(repainted != nil, "the repaint never showed")
        session.stopRunning()
        #expect(!session.isRunning)
    }

    /// Frames at `minFrameDuration` on the host clock: every timestamp on the 1/30 s grid, each
    /// within half a second of the host time it arrived at, every grid slot delivered or reported
    /// dropped, and at least half of them delivered over two seconds.
    @Test func deliversFramesAtTheMinimumFrameDurationOnTheHostClock() throws {
        let xvfb = try XvfbServer(width: 320, height: 240)
        defer {
            xvfb.stop()
            #expect(!xvfb.isRunning, "Xvfb \(xvfb.display) still runs")
        }
        try xvfb.paint(Self.background)
        let input = try #require(X11Screen.$displayName.withValue(xvfb.display) { AVCaptureScreenInput(displayID: 0) })
        input.minFrameDuration = CMTime(value: 1, timescale: 30)
        let collector = CaptureFrameCollector()
        let session = Self.session(input, collector)
        session.startRunning()
        defer { session.stopRunning() }
        try #require(collector.wait(timeout: 10) { frames, _ in !frames.isEmpty }, "no frame of \(xvfb.display)")
        let firstArrival = CMClockGetTime(CMClockGetHostTimeClock())
        try #require(collector.wait(timeout: 20) { frames, _ in
            frames.count > 1 && (frames.last!.time - frames.first!.time).seconds >= 2
        }, "two seconds of frames never came")
        let lastArrival = CMClockGetTime(CMClockGetHostTimeClock())
        session.stopRunning()
        let frames = collector.frames, drops = collector.drops
        let first = frames.first!.time, last = frames.last!.time
        #expect((firstArrival - first).seconds >= 0 && (firstArrival - first).seconds < 0.5)
        #expect((lastArrival - last).seconds >= -0.05 && (lastArrival - last).seconds < 0.5)
        for frame in frames {
            #expect(frame.time.value * 30 % Int64(frame.time.timescale) == 0, "\(frame.time) is off the 1/30 s grid")
            #expect(frame.duration == CMTime(value: 1, timescale: 30) && frame.width == 320 && frame.height == 240)
        }
        let slots = Int(((last - first).seconds * 30).rounded()) + 1
        let dropped = drops.filter { $0.time > first && $0.time < last }.count
        let delivered = frames.filter { $0.time <= last }.count
        #expect(delivered + dropped == slots, "\(delivered) delivered + \(dropped) dropped in \(slots) slots")
        #expect(delivered * 2 >= slots, "only \(delivered) of \(slots) frames delivered")
    }

    /// The X server going away mid-capture stops the session with `deviceWasDisconnected`
    /// (and does not end the process, as Xlib would by default).
    @Test func serverGoingAwayStopsTheSession() throws {
        let xvfb = try XvfbServer(width: 160, height: 120)
        defer { xvfb.stop() }
        try xvfb.paint(Self.background)
        let input = try #require(X11Screen.$displayName.withValue(xvfb.display) { AVCaptureScreenInput(displayID: 0) })
        let collector = CaptureFrameCollector()
        let session = Self.session(input, collector)
        let recorder = CaptureNotificationRecorder(session)
        session.startRunning()
        defer { session.stopRunning() }
        try #require(collector.wait(timeout: 10) { frames, _ in !frames.isEmpty }, "no frame of \(xvfb.display)")
        xvfb.stop()
        #expect(!xvfb.isRunning)
        let stopped = DispatchSemaphore(value: 0)
        let token = NotificationCenter.default.addObserver(forName: AVCaptureSession.didStopRunningNotification,
                                                           object: session, queue: nil) { _ in stopped.signal() }
        defer { NotificationCenter.default.removeObserver(token) }
        if session.isRunning { #expect(stopped.wait(timeout: .now() + 10) == .success, "no stop after the server went away") }
        #expect(!session.isRunning)
        #expect(recorder.postedErrors.map(\.code) == [.deviceWasDisconnected])
    }

    /// Whether a colour is within `tolerance` of `0xRRGGBB` in every channel.
    static func near(_ rgb: (Int, Int, Int), _ expected: UInt32, tolerance: Int = 2) -> Bool {
        abs(rgb.0 - Int(expected >> 16 & 0xFF)) <= tolerance && abs(rgb.1 - Int(expected >> 8 & 0xFF)) <= tolerance
            && abs(rgb.2 - Int(expected & 0xFF)) <= tolerance
    }

    /// `scaleFactor` 0.5 delivers half the size with the picture's pixels where they must be,
    /// alone and with a crop rectangle (the crop is scaled, not the screen); 2 doubles a crop.
    /// Points are taken 3 pixels inside the box's edges, where bicubic scaling keeps the colour.
    @Test func scaleFactorScalesThePictureAndTheCropRectangle() throws {
        let xvfb = try XvfbServer(width: 640, height: 480)
        defer { xvfb.stop() }
        try xvfb.paint(Self.background, rectangles: [Self.box])
        let input = try #require(X11Screen.$displayName.withValue(xvfb.display) { AVCaptureScreenInput(displayID: 0) })
        input.capturesCursor = false
        input.scaleFactor = 0.5
        let dimensions = input.ports[0].formatDescription.map(CMVideoFormatDescriptionGetDimensions)
        #expect(dimensions?.width == 320 && dimensions?.height == 240)
        let sampler = CaptureFrameSampler()
        let session = Self.session(input, sampler)
        session.startRunning()
        defer { session.stopRunning() }
        let half = try #require(sampler.picture(after: 0, timeout: 10), "no frame of \(xvfb.display)")
        #expect(half.width == 320 && half.height == 240)
        // What a writer recording these frames should be given: the delivered size.
        let recommended = (session.outputs.first as? AVCaptureVideoDataOutput)?.recommendedVideoSettingsForAssetWriter(writingTo: .mov)
        #expect(recommended?[AVVideoWidthKey] as? Int == 320 && recommended?[AVVideoHeightKey] as? Int == 240, "\(recommended ?? [:])")
        // The box: (50, 30) to (150, 90) at half size.
        for (x, y) in [(53, 33), (146, 86), (100, 60)] {
            #expect(Self.near(half.rgb(x, y), Self.box.rgb), "(\(x), \(y)): \(half.rgb(x, y))")
        }
        for (x, y) in [(46, 26), (154, 94), (5, 5), (314, 234)] {
            #expect(Self.near(half.rgb(x, y), Self.background), "(\(x), \(y)): \(half.rgb(x, y))")
        }

        // A 240×160 crop at (90, 50) at half size: 120×80, the box from (5, 5) to (105, 65).
        input.cropRect = CGRect(x: 90, y: 50, width: 240, height: 160)
        let cropped = try #require(sampler.picture(after: sampler.count, timeout: 10) { $0.width == 120 }, "no cropped frame")
        #expect(cropped.height == 80)
        for (x, y) in [(8, 8), (101, 61)] {
            #expect(Self.near(cropped.rgb(x, y), Self.box.rgb), "(\(x), \(y)): \(cropped.rgb(x, y))")
        }
        for (x, y) in [(1, 1), (109, 69), (116, 40)] {
            #expect(Self.near(cropped.rgb(x, y), Self.background), "(\(x), \(y)): \(cropped.rgb(x, y))")
        }

        // Twice the crop: 480×320, the box from (20, 20) to (420, 260).
        input.scaleFactor = 2
        let doubled = try #require(sampler.picture(after: sampler.count, timeout: 10) { $0.width == 480 }, "no doubled frame")
        #expect(doubled.height == 320)
        for (x, y) in [(23, 23), (416, 256)] {
            #expect(Self.near(doubled.rgb(x, y), Self.box.rgb), "(\(x), \(y)): \(doubled.rgb(x, y))")
        }
        for (x, y) in [(16, 16), (424, 264)] {
            #expect(Self.near(doubled.rgb(x, y), Self.background), "(\(x), \(y)): \(doubled.rgb(x, y))")
        }
    }

    /// Without a display there is no screen.
    @Test func noDisplayNoScreen() {
        #expect(X11Screen.$displayName.withValue(":4999") { AVCaptureScreenInput(displayID: 0) } == nil)
    }
}
