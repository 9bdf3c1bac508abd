import Foundation
import Testing
import OpenCoreMedia
@testable import CaptureDevices

/// The virtual camera's controls as a state machine, frame by frame on made-up times.
@Suite(.timeLimit(.minutes(10))) struct VirtualCameraControlsTests {
    let controls = VirtualCameraControls(exposureDurations: TestPatternCamera.exposureDurations, isos: TestPatternCamera.isos)
    let frame = CMTime(value: 1, timescale: 30)

    /// Advances `count` frames from frame `start`; the states.
    func run(_ count: Int, from start: Int = 1) -> [CaptureControlState] {
        (start..<(start + count)).map { controls.advance(to: CMTime(value: CMTimeValue($0), timescale: 30), frameDuration: frame) }
    }

    @Test func startsInFocusExposedAndBalanced() {
        let state = run(1)[0]
        #expect(state.lensPosition == VirtualCameraControls.inFocusLensPosition && !state.isAdjustingFocus)
        #expect(state.exposureDuration == CMTime(value: 1, timescale: 60) && state.iso == 100 && !state.isAdjustingExposure)
        #expect(state.whiteBalanceGains == controls.neutralWhiteBalanceGains && !state.isAdjustingWhiteBalance)
        #expect(state.zoomFactor == 1 && state.torchLevel == 0 && state.exposureTargetOffset == 0)
    }

    @Test func theLensMovesAtItsSpeedAndSettlesTheGeneration() {
        _ = run(1)
        var settings = CaptureControlSettings()
        settings.focusMode = .locked
        settings.lensPosition = 0.3
        settings.generation = 1
        controls.apply(settings)
        let states = run(12, from: 2)
        // 0.5 to travel at 2 a second: 0.25 s, the 8th frame (1/30 s each) arrives.
        let arrival = states.firstIndex { !$0.isAdjustingFocus }!
        #expect(arrival == 7)
        #expect(states[..<arrival].allSatisfy { $0.isAdjustingFocus && $0.settledGeneration == 0 })
        #expect(abs(states[0].lensPosition - (0.8 - 2.0 / 30)) < 1e-5)
        #expect(states[arrival].lensPosition == 0.3 && states[arrival].settledGeneration == 1)
    }

    @Test func autoFocusScansThenLocks() {
        _ = run(1)
        var settings = CaptureControlSettings()
        settings.focusMode = .autoFocus
        settings.generation = 1
        settings.focusScanRequest = 1
        controls.apply(settings)
        let states = run(3, from: 2)
        #expect(states[0].isAdjustingFocus && states[0].focusMode == .autoFocus, "a scan shows adjusting, even in focus")
        #expect(!states[1].isAdjustingFocus && states[1].focusMode == .locked)
        #expect(states[2].focusMode == .locked)
    }

    @Test func automaticExposureFollowsTheBiasAndCustomAppliesAtOnce() {
        _ = run(1)
        var settings = CaptureControlSettings()
        settings.exposureTargetBias = 1
        settings.generation = 1
        controls.apply(settings)
        let states = run(10, from: 2)
        // One stop at 6 stops a second: 1/6 s, five frames.
        #expect(states[0].isAdjustingExposure && states[0].exposureDuration == CMTime(value: 1, timescale: 60))
        let settled = states.firstIndex { !$0.isAdjustingExposure }!
        #expect(settled == 4)
        #expect(abs(states[settled].iso - 200) < 0.01 && abs(states[settled].exposureTargetOffset) < 1e-4)

        settings.exposureMode = .custom
        settings.exposureDuration = CMTime(value: 1, timescale: 120)
        settings.iso = 400
        settings.generation = 2
        controls.apply(settings)
        let custom = run(1, from: 12)[0]
        #expect(custom.exposureDuration == CMTime(value: 1, timescale: 120) && custom.iso == 400)
        #expect(!custom.isAdjustingExposure && custom.settledGeneration == 2)
        #expect(abs(custom.exposureTargetOffset - 0) < 1e-4, "2 stops over nominal, against a target 1 stop over: +1 then -1")
    }

    @Test func zoomRampsAtItsRate() {
        _ = run(1)
        var settings = CaptureControlSettings()
        settings.zoomFactor = 4
        settings.zoomRate = 6
        settings.generation = 1
        controls.apply(settings)
        let states = run(12, from: 2)
        // Two octaves at 6 a second: 1/3 s, ten frames.
        #expect(states.prefix(9).allSatisfy { $0.isRampingZoom })
        #expect(zip(states, states.dropFirst()).allSatisfy { $0.zoomFactor <= $1.zoomFactor })
        #expect(states[9].zoomFactor == 4 && !states[9].isRampingZoom)
    }

    @Test func aStateHandlerHearsOfChangesOnly() {
        final class Box: @unchecked Sendable { var states: [CaptureControlState] = [] }
        let box = Box()
        controls.setStateHandler { box.states.append($0) }
        _ = run(3)
        #expect(box.states.isEmpty, "unchanged frames do not report")
        var settings = CaptureControlSettings()
        settings.torchLevel = 0.5
        settings.generation = 1
        controls.apply(settings)
        _ = run(2, from: 4)
        #expect(box.states.count == 1 && box.states.last?.torchLevel == 0.5 && box.states.last?.settledGeneration == 1)
        #expect(box.states.last?.time == CMTime(value: 4, timescale: 30))
    }
}

@Suite(.timeLimit(.minutes(10))) struct WhiteBalanceModelTests {
    @Test func temperatureAndTintRoundTrip() {
        for (temperature, tint) in [(2500.0, 0.0), (3200, 20), (5000, 0), (6500, -30), (9000, 60)] {
            let gains = WhiteBalanceModel.gains(temperature: temperature, tint: tint)
            #expect(min(gains.red, gains.green, gains.blue) == 1)
            let back = WhiteBalanceModel.temperatureAndTint(for: gains)
            #expect(abs(back.temperature - temperature) < temperature * 0.002, "\(temperature) K came back as \(back.temperature)")
            #expect(abs(back.tint - tint) < 0.5, "tint \(tint) came back as \(back.tint)")
        }
    }

    @Test func warmLightNeedsMoreBlueThanDaylight() {
        let tungsten = WhiteBalanceModel.gains(temperature: 3000, tint: 0)
        let daylight = WhiteBalanceModel.gains(temperature: 6500, tint: 0)
        #expect(tungsten.blue / tungsten.red > daylight.blue / daylight.red)
        // Positive tint is magenta light: it needs more green.
        let magenta = WhiteBalanceModel.gains(temperature: 5000, tint: 50)
        let plain = WhiteBalanceModel.gains(temperature: 5000, tint: 0)
        #expect(magenta.green / magenta.red > plain.green / plain.red)
    }
}
