import CV4L2
import Testing
import OpenCoreMedia
@testable import CaptureDevices

/// What vivid cannot show (it has no focus, exposure time, white balance, zoom or torch
/// controls): Apple's controls on the controls of a UVC webcam like Logitech's C920, on the host.
@Suite(.timeLimit(.minutes(10))) struct V4L2CameraControlsTests {
    /// A control as a driver's `VIDIOC_QUERYCTRL` describes it (menu items given here: the
    /// query's node is /dev/null, which answers no `VIDIOC_QUERYMENU`).
    static func control(_ id: V4L2Control.ID, _ name: String, _ kind: v4l2_ctrl_type, _ range: ClosedRange<Int32>,
                        step: Int32 = 1, menu: [Int64: String] = [:], readOnly: Bool = false) -> V4L2Control {
        var query = v4l2_queryctrl()
        query.id = id.rawValue
        query.type = kind.rawValue
        (query.minimum, query.maximum, query.step, query.default_value) = (range.lowerBound, range.upperBound, step, range.lowerBound)
        if readOnly { query.flags = UInt32(V4L2_CTRL_FLAG_READ_ONLY) }
        var control = V4L2Control(query: query, node: try! V4L2Node(path: "/dev/null"))!
        control.name = name
        control.menuItems = menu
        return control
    }

    /// A C920's camera controls (`v4l2-ctl -l`), with brightness, which maps to nothing.
    static let webcam: [V4L2Control] = [
        control(.brightness, "brightness", V4L2_CTRL_TYPE_INTEGER, 0...255),
        control(.autoWhiteBalance, "white_balance_automatic", V4L2_CTRL_TYPE_BOOLEAN, 0...1),
        control(.gain, "gain", V4L2_CTRL_TYPE_INTEGER, 0...255),
        control(.whiteBalanceTemperature, "white_balance_temperature", V4L2_CTRL_TYPE_INTEGER, 2000...6500),
        control(.exposureAuto, "auto_exposure", V4L2_CTRL_TYPE_MENU, 0...3, menu: [1: "Manual Mode", 3: "Aperture Priority Mode"]),
        control(.exposureAbsolute, "exposure_time_absolute", V4L2_CTRL_TYPE_INTEGER, 3...2047),
        control(.focusAbsolute, "focus_absolute", V4L2_CTRL_TYPE_INTEGER, 0...250, step: 5),
        control(.focusAuto, "focus_automatic_continuous", V4L2_CTRL_TYPE_BOOLEAN, 0...1),
        control(.zoomAbsolute, "zoom_absolute", V4L2_CTRL_TYPE_INTEGER, 100...500),
    ]

    @Test func aWebcamOffersTheModesItsControlsAllow() {
        let capabilities = V4L2CameraControls(path: "/dev/null-camera", driverControls: Self.webcam).capabilities
        #expect(capabilities.focusModes == [.locked, .continuousAutoFocus])
        #expect(capabilities.lockingFocusWithCustomLensPosition)
        #expect(capabilities.exposureModes == [.continuousAutoExposure, .locked, .custom])
        #expect(capabilities.whiteBalanceModes == [.continuousAutoWhiteBalance, .locked])
        #expect(capabilities.lockingWhiteBalanceWithCustomGains)
        #expect(!capabilities.hasTorch && !capabilities.hasFlash)
        #expect(!capabilities.focusPointOfInterest && !capabilities.exposurePointOfInterest)

        let none = V4L2CameraControls(path: "/dev/null-camera", driverControls: [Self.webcam[0]]).capabilities
        #expect(none.focusModes.isEmpty && none.exposureModes.isEmpty && none.whiteBalanceModes.isEmpty && !none.hasTorch)
        let readOnlyGain = V4L2CameraControls(path: "/dev/null-camera",
                                              driverControls: [Self.control(.gain, "gain", V4L2_CTRL_TYPE_INTEGER, 0...9, readOnly: true)])
        #expect(readOnlyGain.capabilities.exposureModes.isEmpty, "a read-only control maps to nothing")
        let torch = V4L2CameraControls(path: "/dev/null-camera", driverControls: [
            Self.control(.flashLEDMode, "led_mode", V4L2_CTRL_TYPE_MENU, 0...2, menu: [0: "Off", 1: "Flash", 2: "Torch"]),
        ])
        #expect(torch.capabilities.hasTorch)
    }

    @Test func theFormatsTakeTheirRangesFromTheControls() throws {
        let format = CaptureVideoFormat(pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, width: 640, height: 480,
                                        frameRateRanges: [CaptureFrameRateRange(minRate: 30, maxRate: 30)])
        let ranged = try #require(V4L2CameraControls.formats([format], withRangesOf: Self.webcam).first)
        #expect(ranged.exposureDurations == CMTime(value: 3, timescale: 10_000)...CMTime(value: 2047, timescale: 10_000))
        #expect(ranged.isos == 0...255)
        #expect(ranged.maxZoomFactor == 5)
        #expect(V4L2CameraControls.formats([format], withRangesOf: []) == [format])
    }

    @Test func valuesConvertBothWays() {
        let focus = Self.webcam.first { $0.id == .focusAbsolute }!
        let zoom = Self.webcam.first { $0.id == .zoomAbsolute }!
        // Larger focus values focus closer: 250 is the nearest (0), 0 the farthest (1).
        #expect(V4L2CameraControls.lensPosition(250, of: focus) == 0 && V4L2CameraControls.lensPosition(0, of: focus) == 1)
        #expect(V4L2CameraControls.focusValue(0.3, of: focus) == 175)
        #expect(focus.clamped(177) == 175 && focus.clamped(178) == 180, "on the control's steps of 5")
        #expect(focus.clamped(-7) == 0 && focus.clamped(999) == 250)
        #expect(V4L2CameraControls.zoomFactor(250, of: zoom) == 2.5 && V4L2CameraControls.zoomValue(2.5, of: zoom) == 250)
        #expect(V4L2CameraControls.exposureValue(CMTime(value: 1, timescale: 60)) == 167)
        #expect(V4L2CameraControls.duration(167) == CMTime(value: 167, timescale: 10_000))
    }
}
