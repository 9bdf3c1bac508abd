import Foundation
import OpenCoreMedia

/// The Test Pattern Camera's controls, simulated frame by frame the way a camera's behave.
///
/// The scene: a flat chart at one distance (in focus at lens position `inFocusLensPosition`),
/// lit by `sceneLight` (5000 K daylight), correctly exposed at `nominalExposure` (1/60 s at ISO
/// 100, or the same product). The lens moves at `lensSpeed`; automatic exposure and white
/// balance move by `exposureSpeed` and `whiteBalanceSpeed` stops a second until they reach
/// their targets, and report adjusting meanwhile. Custom exposure, locked gains, the torch and
/// an instant zoom apply from the next frame; a zoom ramp moves at its rate. Points of interest
/// are kept but change nothing, the chart being flat and evenly lit. The automatic exposure
/// meters the chart without the torch (so the torch always brightens the picture).
///
/// `advance(to:frameDuration:)` is called by the renderer for each frame, on the camera's
/// thread; `apply` and the getters from any thread.
package final class VirtualCameraControls: CaptureControls, @unchecked Sendable {
    /// Where the lens must be for the chart to be sharp.
    package static let inFocusLensPosition: Float = 0.8
    /// Lens positions a second.
    package static let lensSpeed: Float = 2
    /// Stops a second of automatic exposure.
    package static let exposureSpeed = 6.0
    /// Stops a second of automatic white balance.
    package static let whiteBalanceSpeed = 3.0
    /// The exposure duration and ISO that expose the chart correctly.
    package static let nominalExposure = (duration: CMTime(value: 1, timescale: 60), iso: Float(100))
    /// The light on the chart: daylight at 5000 K, no tint.
    package static let sceneLight = (temperature: 5000.0, tint: 0.0)

    package let capabilities = CaptureControlCapabilities(
        focusModes: [.locked, .autoFocus, .continuousAutoFocus], focusPointOfInterest: true,
        lockingFocusWithCustomLensPosition: true, exposureModes: [.locked, .autoExpose, .continuousAutoExposure, .custom],
        exposurePointOfInterest: true, exposureTargetBiasRange: -8...8,
        whiteBalanceModes: [.locked, .autoWhiteBalance, .continuousAutoWhiteBalance],
        lockingWhiteBalanceWithCustomGains: true, maxWhiteBalanceGain: 4, hasTorch: true, hasFlash: false)

    package let neutralWhiteBalanceGains = WhiteBalanceModel.gains(temperature: sceneLight.temperature, tint: sceneLight.tint)

    private let lock = NSLock()
    private let exposureRange: (duration: ClosedRange<CMTime>, iso: ClosedRange<Float>)
    private var settings = CaptureControlSettings()
    /// The scan requests already served.
    private var servedScans = (focus: UInt64(0), exposure: UInt64(0), whiteBalance: UInt64(0))
    private var current: CaptureControlState
    private var handler: (@Sendable (CaptureControlState) -> Void)?

    /// Controls for a camera whose formats allow these exposure durations and ISOs.
    package init(exposureDurations: ClosedRange<CMTime>, isos: ClosedRange<Float>) {
        exposureRange = (exposureDurations, isos)
        current = CaptureControlState(
            focusMode: .continuousAutoFocus, lensPosition: Self.inFocusLensPosition, isAdjustingFocus: false,
            exposureMode: .continuousAutoExposure, exposureDuration: Self.nominalExposure.duration,
            iso: Self.nominalExposure.iso, isAdjustingExposure: false, exposureTargetOffset: 0,
            whiteBalanceMode: .continuousAutoWhiteBalance, whiteBalanceGains: neutralWhiteBalanceGains,
            isAdjustingWhiteBalance: false, zoomFactor: 1, isRampingZoom: false, torchLevel: 0, settledGeneration: 0,
            time: .invalid)
    }

    package var state: CaptureControlState { lock.withLock { current } }

    package func apply(_ settings: CaptureControlSettings) {
        lock.withLock { self.settings = settings }
    }

    package func setStateHandler(_ handler: (@Sendable (CaptureControlState) -> Void)?) {
        lock.withLock { self.handler = handler }
    }

    /// Moves the controls on to a frame at `time` and returns the state the frame shows. The
    /// automatic exposure does not expose longer than `frameDuration`. The first frame after a
    /// pause finds every move finished.
    package func advance(to time: CMTime, frameDuration: CMTime) -> CaptureControlState {
        let (next, handler) = lock.withLock { () -> (CaptureControlState, (@Sendable (CaptureControlState) -> Void)?) in
            let elapsed = current.time.isValid ? max(0, CMTimeSubtract(time, current.time).seconds) : .infinity
            var next = current
            next.time = time
            advanceFocus(&next, elapsed)
            advanceExposure(&next, elapsed, frameDuration: frameDuration)
            advanceWhiteBalance(&next, elapsed)
            advanceZoom(&next, elapsed)
            next.torchLevel = settings.torchLevel
            let lensSettled = settings.focusMode != .locked || settings.lensPosition == nil || !next.isAdjustingFocus
            if lensSettled { next.settledGeneration = settings.generation }
            var changed = next
            changed.time = current.time
            let report = changed != current
            current = next
            return (next, report ? self.handler : nil)
        }
        handler?(next)
        return next
    }

    /// Moves `value` towards `target` by at most `step`; whether it arrived (a rounding error
    /// short counts as arrived).
    private static func move(_ value: inout Double, to target: Double, by step: Double) -> Bool {
        if abs(target - value) <= step + 1e-6 {
            value = target
            return true
        }
        value += target > value ? step : -step
        return false
    }

    /// Puts the asked-for mode into effect; a new request for a single adjustment (`single`)
    /// starts one (true is returned), and an old one keeps the mode it reached (`.locked` once
    /// done).
    private static func follow<Mode: Equatable>(_ asked: Mode, single: Mode, request: UInt64, served: inout UInt64,
                                                into mode: inout Mode) -> Bool {
        if asked == single && request != served {
            served = request
            mode = single
            return true
        }
        if asked != single { mode = asked }
        return false
    }

    private func advanceFocus(_ state: inout CaptureControlState, _ elapsed: Double) {
        let scan = Self.follow(settings.focusMode, single: .autoFocus, request: settings.focusScanRequest,
                               served: &servedScans.focus, into: &state.focusMode)
        let target: Float? = switch state.focusMode {
        case .continuousAutoFocus, .autoFocus: Self.inFocusLensPosition
        case .locked: settings.lensPosition
        }
        guard let target else {
            state.isAdjustingFocus = false
            return
        }
        var position = Double(state.lensPosition)
        let arrived = Self.move(&position, to: Double(target), by: Double(Self.lensSpeed) * elapsed)
        state.lensPosition = Float(position)
        // A scan always shows at least one frame of adjusting, as a contrast search does.
        state.isAdjustingFocus = !arrived || scan
        if state.focusMode == .autoFocus && !state.isAdjustingFocus { state.focusMode = .locked }
    }

    private func advanceExposure(_ state: inout CaptureControlState, _ elapsed: Double, frameDuration: CMTime) {
        let scan = Self.follow(settings.exposureMode, single: .autoExpose, request: settings.exposureScanRequest,
                               served: &servedScans.exposure, into: &state.exposureMode)
        let nominal = Self.nominalExposure.duration.seconds * Double(Self.nominalExposure.iso)
        switch state.exposureMode {
        case .custom:
            state.exposureDuration = settings.exposureDuration ?? state.exposureDuration
            state.iso = settings.iso ?? state.iso
            state.isAdjustingExposure = false
        case .locked:
            state.isAdjustingExposure = false
        case .autoExpose, .continuousAutoExposure:
            // Metering moves the exposure (duration times ISO) in stops towards the target.
            let target = log2(nominal) + Double(settings.exposureTargetBias)
            var stops = log2(state.exposureDuration.seconds * Double(state.iso))
            let arrived = Self.move(&stops, to: target, by: Self.exposureSpeed * elapsed)
            // As cameras do: the nominal duration (or the frame's, if shorter), the rest in ISO.
            let longest = min(Self.nominalExposure.duration, frameDuration)
            let duration = min(max(longest, exposureRange.duration.lowerBound), exposureRange.duration.upperBound)
            state.exposureDuration = duration
            state.iso = min(max(Float(exp2(stops) / duration.seconds), exposureRange.iso.lowerBound), exposureRange.iso.upperBound)
            state.isAdjustingExposure = !arrived || scan
            if state.exposureMode == .autoExpose && !state.isAdjustingExposure { state.exposureMode = .locked }
        }
        let metered = log2(state.exposureDuration.seconds * Double(state.iso) / nominal)
        state.exposureTargetOffset = Float(metered) - settings.exposureTargetBias
    }

    private func advanceWhiteBalance(_ state: inout CaptureControlState, _ elapsed: Double) {
        let scan = Self.follow(settings.whiteBalanceMode, single: .autoWhiteBalance, request: settings.whiteBalanceScanRequest,
                               served: &servedScans.whiteBalance, into: &state.whiteBalanceMode)
        switch state.whiteBalanceMode {
        case .locked:
            state.whiteBalanceGains = settings.whiteBalanceGains ?? state.whiteBalanceGains
            state.isAdjustingWhiteBalance = false
        case .autoWhiteBalance, .continuousAutoWhiteBalance:
            let step = Self.whiteBalanceSpeed * elapsed
            let neutral = neutralWhiteBalanceGains
            var gains = [state.whiteBalanceGains.red, state.whiteBalanceGains.green, state.whiteBalanceGains.blue].map { log2(Double($0)) }
            let targets = [neutral.red, neutral.green, neutral.blue].map { log2(Double($0)) }
            var arrived = true
            for index in gains.indices where !Self.move(&gains[index], to: targets[index], by: step) { arrived = false }
            state.whiteBalanceGains = CaptureWhiteBalanceGains(red: Float(exp2(gains[0])), green: Float(exp2(gains[1])),
                                                               blue: Float(exp2(gains[2])))
            state.isAdjustingWhiteBalance = !arrived || scan
            if state.whiteBalanceMode == .autoWhiteBalance && !state.isAdjustingWhiteBalance { state.whiteBalanceMode = .locked }
        }
    }

    private func advanceZoom(_ state: inout CaptureControlState, _ elapsed: Double) {
        guard let rate = settings.zoomRate, rate != 0 else {
            state.zoomFactor = settings.zoomFactor
            state.isRampingZoom = false
            return
        }
        var octaves = log2(state.zoomFactor)
        let arrived = Self.move(&octaves, to: log2(settings.zoomFactor), by: Double(abs(rate)) * elapsed)
        state.zoomFactor = exp2(octaves)
        state.isRampingZoom = !arrived
    }
}
