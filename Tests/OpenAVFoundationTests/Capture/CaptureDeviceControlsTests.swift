import Foundation
import Testing
@testable import OpenAVFoundation
import CaptureDevices

/// Measures on delivered BGRA pictures of the test pattern at 640x480.
extension CaptureFrameSampler.Picture {
    /// Pixels along row `y`, between `x0` and `x1`, whose red lies strictly between 10% and 90%
    /// of the way from the segment's darkest to its brightest red: the width of an edge.
    func redEdgeWidth(y: Int, from x0: Int, to x1: Int) -> Int {
        let reds = (x0..<x1).map { rgb($0, y).0 }
        let (low, high) = (reds.min()!, reds.max()!)
        let (a, b) = (Double(low) + 0.1 * Double(high - low), Double(low) + 0.9 * Double(high - low))
        return reds.filter { Double($0) > a && Double($0) < b }.count
    }

    /// How many pixels of row `y` are green (the fourth bar's colour).
    func greenRun(y: Int) -> Int {
        (0..<width).filter { let (r, g, b) = rgb($0, y); return r < 60 && g > 120 && b < 60 }.count
    }

    /// The mean of the dark end of the ramp (levels about 16 to 80), which no gain here clips.
    var darkRampMean: Double {
        let mean = mean(x: 40, y: 340, width: 160, height: 120)
        return (mean.r + mean.g + mean.b) / 3
    }

    /// The mean red, green and blue of the middle of the first (75% white) bar.
    var whiteBarMean: (r: Double, g: Double, b: Double) { mean(x: 20, y: 40, width: 50, height: 100) }

    /// The frame index, read from the barcode band.
    var frameIndex: Int? {
        bytes.withUnsafeBytes { FrameIndexBarcode.read(bgra: $0, width: width, height: height, bytesPerRow: width * 4) }
    }
}

extension CaptureSessionTests {
    /// Runs `body` with a further camera delivering 640x480 BGRA to a sampler, running (a camera
    /// of its own, so that changed controls never reach other tests).
    static func withRunningCamera(_ name: String, _ body: (AVCaptureDevice, CaptureFrameSampler) throws -> Void) throws {
        try withAddedCamera(name) { _, device in
            let sampler = CaptureFrameSampler()
            let session = AVCaptureSession()
            session.sessionPreset = .vga640x480
            session.addInput(try AVCaptureDeviceInput(device: device))
            let output = AVCaptureVideoDataOutput()
            output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
            output.setSampleBufferDelegate(sampler, queue: DispatchQueue(label: "controls"))
            session.addOutput(output)
            session.startRunning()
            defer { session.stopRunning() }
            try body(device, sampler)
        }
    }

    /// Reads `probe` after each new frame until `done` holds for the readings (or `limit` frames
    /// passed); the readings.
    static func readings<Reading>(_ sampler: CaptureFrameSampler, limit: Int = 90, _ probe: () -> Reading,
                                  until done: ([Reading]) -> Bool) -> [Reading] {
        var readings: [Reading] = []
        for _ in 0..<limit {
            guard sampler.picture(after: sampler.count) != nil else { break }
            readings.append(probe())
            if done(readings) { break }
        }
        return readings
    }

    /// A picture from a frame at or after `time` that is not a flash frame.
    static func picture(_ sampler: CaptureFrameSampler, from time: CMTime) -> CaptureFrameSampler.Picture? {
        sampler.picture(after: 0) { $0.time >= time && !TestPatternGeometry.isFlash($0, degrees: 0) }
    }

    /// Waits for the completion handler of a control change; its time.
    static func completionTime(_ change: (@escaping @Sendable (CMTime) -> Void) -> Void) -> CMTime? {
        final class Box: @unchecked Sendable { var time: CMTime? }
        let box = Box(), done = DispatchSemaphore(value: 0)
        change { time in
            box.time = time
            done.signal()
        }
        return done.wait(timeout: .now() + 5) == .success ? box.time : nil
    }

    @Test func focusBlursAwayFromFocusAndSharpensBack() throws {
        try Self.withRunningCamera("focus-camera") { device, sampler in
            #expect(device.isFocusModeSupported(.locked) && device.isFocusModeSupported(.autoFocus)
                && device.isFocusModeSupported(.continuousAutoFocus))
            #expect(device.isLockingFocusWithCustomLensPositionSupported && device.isFocusPointOfInterestSupported)
            #expect(device.focusMode == .continuousAutoFocus && device.lensPosition == 0.8 && !device.isAdjustingFocus)
            let sharp = try #require(Self.picture(sampler, from: .zero))
            // The edge between the yellow and the cyan bar, at x = 183.
            let sharpWidth = sharp.redEdgeWidth(y: 100, from: 150, to: 216)
            #expect(sharpWidth <= 3)

            try device.lockForConfiguration()
            let time = try #require(Self.completionTime { done in device.setFocusModeLocked(lensPosition: 0.3, completionHandler: done) })
            device.unlockForConfiguration()
            #expect(device.focusMode == .locked && abs(device.lensPosition - 0.3) < 1e-6 && !device.isAdjustingFocus)
            let blurred = try #require(Self.picture(sampler, from: time))
            #expect(blurred.time == time || blurred.time > time)
            let blurredWidth = blurred.redEdgeWidth(y: 100, from: 150, to: 216)
            #expect(blurredWidth >= 8, "edge \(blurredWidth) px wide, sharp \(sharpWidth)")
            #expect(blurred.frameIndex != nil, "the barcode is never blurred")

            // Continuous autofocus brings the lens back, adjusting meanwhile.
            try device.lockForConfiguration()
            device.focusMode = .continuousAutoFocus
            device.unlockForConfiguration()
            let flags = Self.readings(sampler, { device.isAdjustingFocus }) { $0.contains(true) && $0.last == false }
            #expect(flags.contains(true) && flags.last == false, "\(flags)")
            #expect(device.lensPosition == 0.8)
            let refocused = try #require(Self.picture(sampler, from: CMClockGetTime(CMClock.hostTimeClock)))
            #expect(refocused.redEdgeWidth(y: 100, from: 150, to: 216) <= 3)

            // A single scan adjusts, then reads as locked.
            try device.lockForConfiguration()
            device.focusPointOfInterest = CGPoint(x: 0.3, y: 0.7)
            device.focusMode = .autoFocus
            device.unlockForConfiguration()
            #expect(device.focusPointOfInterest == CGPoint(x: 0.3, y: 0.7))
            let scan = Self.readings(sampler, { (device.isAdjustingFocus, device.focusMode) }) {
                $0.last?.1 == .locked && $0.last?.0 == false
            }
            #expect(scan.contains { $0.0 } && scan.last?.1 == .locked && scan.last?.0 == false)
        }
    }

    @Test func exposureDurationAndISOScaleBrightness() throws {
        try Self.withRunningCamera("exposure-camera") { device, sampler in
            let format = device.activeFormat
            #expect(format.minExposureDuration == CMTime(value: 1, timescale: 16000)
                && format.maxExposureDuration == CMTime(value: 1, timescale: 2))
            #expect(format.minISO == 25 && format.maxISO == 3200)
            #expect([.locked, .autoExpose, .continuousAutoExposure, .custom].allSatisfy { device.isExposureModeSupported($0) })
            #expect(device.exposureMode == .continuousAutoExposure && device.exposureDuration == CMTime(value: 1, timescale: 60)
                && device.iso == 100)
            let baseline = try #require(Self.picture(sampler, from: .zero)).darkRampMean

            try device.lockForConfiguration()
            let half = try #require(Self.completionTime { done in
                device.setExposureModeCustom(duration: CMTime(value: 1, timescale: 120), iso: 100, completionHandler: done)
            })
            #expect(device.exposureMode == .custom && device.exposureDuration == CMTime(value: 1, timescale: 120))
            #expect(abs(device.exposureTargetOffset + 1) < 0.01)
            let darker = try #require(Self.picture(sampler, from: half)).darkRampMean
            #expect(abs(darker / baseline - 0.5) < 0.05, "half the exposure: \(darker) against \(baseline)")

            let doubled = try #require(Self.completionTime { done in
                device.setExposureModeCustom(duration: AVCaptureDevice.currentExposureDuration, iso: 400, completionHandler: done)
            })
            #expect(device.iso == 400 && device.exposureDuration == CMTime(value: 1, timescale: 120))
            let brighter = try #require(Self.picture(sampler, from: doubled)).darkRampMean
            #expect(abs(brighter / baseline - 2) < 0.15, "twice the exposure: \(brighter) against \(baseline)")

            // Back to automatic, one stop under: adjusting from one stop over, then settled at
            // half the light (1/60 s, ISO 50).
            device.exposureMode = .continuousAutoExposure
            device.setExposureTargetBias(-1)
            device.unlockForConfiguration()
            #expect(device.exposureTargetBias == -1 && device.minExposureTargetBias == -8 && device.maxExposureTargetBias == 8)
            let flags = Self.readings(sampler, { device.isAdjustingExposure }) { $0.contains(true) && $0.last == false }
            #expect(flags.contains(true) && flags.last == false, "\(flags)")
            #expect(abs(device.exposureTargetOffset) < 0.01 && abs(device.iso - 50) < 0.5)
            #expect(device.exposureDuration == CMTime(value: 1, timescale: 60))
            let biased = try #require(Self.picture(sampler, from: CMClockGetTime(CMClock.hostTimeClock))).darkRampMean
            #expect(abs(biased / baseline - 0.5) < 0.05, "one stop under: \(biased) against \(baseline), iso \(device.iso) \(device.exposureDuration) \(flags)")
        }
    }

    @Test func whiteBalanceGainsTintTheColours() throws {
        try Self.withRunningCamera("white-balance-camera") { device, sampler in
            #expect([.locked, .autoWhiteBalance, .continuousAutoWhiteBalance].allSatisfy { device.isWhiteBalanceModeSupported($0) })
            #expect(device.isLockingWhiteBalanceWithCustomDeviceGainsSupported && device.maxWhiteBalanceGain == 4)
            let neutral = device.grayWorldDeviceWhiteBalanceGains
            #expect(device.deviceWhiteBalanceGains == neutral)
            #expect(min(neutral.redGain, neutral.greenGain, neutral.blueGain) == 1)
            // The scene is lit by 5000 K daylight.
            let light = device.temperatureAndTintValues(for: neutral)
            #expect(abs(light.temperature - 5000) < 10 && abs(light.tint) < 0.5)
            let tungsten = device.deviceWhiteBalanceGains(for: AVCaptureDevice.WhiteBalanceTemperatureAndTintValues(temperature: 3000, tint: 0))
            #expect(tungsten.blueGain / tungsten.redGain > neutral.blueGain / neutral.redGain)
            let white = try #require(Self.picture(sampler, from: .zero)).whiteBarMean
            #expect(abs(white.r / white.g - 1) < 0.03 && abs(white.b / white.g - 1) < 0.03)

            var warm = neutral
            warm.redGain *= 1.3
            try device.lockForConfiguration()
            let time = try #require(Self.completionTime { done in device.setWhiteBalanceModeLocked(with: warm, completionHandler: done) })
            #expect(device.whiteBalanceMode == .locked && device.deviceWhiteBalanceGains == warm)
            let tinted = try #require(Self.picture(sampler, from: time)).whiteBarMean
            #expect(abs(tinted.r / tinted.g - 1.3) < 0.05 && abs(tinted.b / tinted.g - 1) < 0.03, "\(tinted)")
            #expect(abs(tinted.g - white.g) < 3)

            device.whiteBalanceMode = .continuousAutoWhiteBalance
            device.unlockForConfiguration()
            let flags = Self.readings(sampler, { device.isAdjustingWhiteBalance }) { $0.contains(true) && $0.last == false }
            #expect(flags.contains(true) && flags.last == false, "\(flags)")
            #expect(device.deviceWhiteBalanceGains == neutral)
        }
    }

    @Test func torchBrightensAndZoomMagnifiesTheCentre() throws {
        try Self.withRunningCamera("torch-zoom-camera") { device, sampler in
            #expect(device.hasTorch && device.isTorchAvailable && !device.hasFlash && !device.isFlashAvailable)
            #expect(device.isTorchModeSupported(.on) && device.isTorchModeSupported(.off) && !device.isTorchModeSupported(.auto))
            #expect(device.torchMode == .off && !device.isTorchActive)
            let baseline = try #require(Self.picture(sampler, from: .zero))

            try device.lockForConfiguration()
            try device.setTorchModeOn(level: 0.5)
            #expect(device.torchMode == .on)
            let lit = Self.readings(sampler, { device.torchLevel }) { $0.last == 0.5 }
            #expect(lit.last == 0.5 && device.isTorchActive)
            let brighter = try #require(Self.picture(sampler, from: CMClockGetTime(CMClock.hostTimeClock)))
            #expect(abs(brighter.darkRampMean / baseline.darkRampMean - 1.3) < 0.08)
            device.torchMode = .off

            // Zoom: the centre half fills the picture, so the middle (green) bar is twice as wide.
            #expect(device.activeFormat.videoMaxZoomFactor == 8 && device.maxAvailableVideoZoomFactor == 8)
            let greenAtOne = baseline.greenRun(y: 60)
            device.videoZoomFactor = 2
            #expect(device.videoZoomFactor == 2)
            let zoomStart = CMClockGetTime(CMClock.hostTimeClock)
            let zoomed = try #require(sampler.picture(after: sampler.count + 1) {
                $0.time >= zoomStart && !TestPatternGeometry.isFlash($0, degrees: 0) && $0.greenRun(y: 60) > greenAtOne * 3 / 2
            })
            #expect(abs(Double(zoomed.greenRun(y: 60)) / Double(greenAtOne) - 2) < 0.1, "\(zoomed.greenRun(y: 60)) against \(greenAtOne)")
            #expect(zoomed.frameIndex != nil, "the barcode is not zoomed")

            // A ramp moves frame by frame; cancelled, it stops where it is.
            device.ramp(toVideoZoomFactor: 8, withRate: 2)
            let ramp = Self.readings(sampler, { (device.isRampingVideoZoom, device.videoZoomFactor) }) { $0.count >= 6 }
            #expect(ramp.allSatisfy { $0.0 } && zip(ramp, ramp.dropFirst()).allSatisfy { $0.1 < $1.1 })
            device.cancelVideoZoomRamp()
            let stopped = device.videoZoomFactor
            #expect(stopped > 2 && stopped < 8)
            let after = Self.readings(sampler, { (device.isRampingVideoZoom, device.videoZoomFactor) }) { $0.count >= 3 }
            #expect(after.allSatisfy { !$0.0 && $0.1 == stopped })

            device.isSubjectAreaChangeMonitoringEnabled = true
            #expect(device.isSubjectAreaChangeMonitoringEnabled)
            device.unlockForConfiguration()
        }
    }

    /// Setting a control without the configuration lock is a programmer error, as on Apple
    /// platforms (where it raises an exception): the process stops with the rule's message.
    @Test func settingAControlWithoutTheLockStopsTheProcess() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            AVCaptureDevice.default(for: .video)?.videoZoomFactor = 2
        }
        let said = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(said.contains("AVCaptureDevice.videoZoomFactor may only be set after lockForConfiguration() succeeded"), "\(said)")
    }
}
