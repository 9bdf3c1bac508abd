import Foundation
import Testing
@testable import OpenAVFoundation
import CaptureDevices
import TestSupport

/// The device API on vivid, with `v4l2-ctl` reading the driver's values back as the oracle:
/// Apple's controls mapped to driver controls, `v4l2Controls`, presets picking the nearest
/// format, and hot-plug (vivid unloaded and loaded again).
extension VividGuestTests {
    /// `v4l2-ctl --get-ctrl` of the first vivid camera: each control's value by name.
    static func driverValues(_ names: String...) throws -> [String: Int] {
        let text = String(decoding: try Fixtures.run("v4l2-ctl", ["-d", "/dev/video0", "--get-ctrl", names.joined(separator: ",")]),
                          as: UTF8.self)
        var values: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, let value = Int(parts[1]) { values[parts[0]] = value }
        }
        return values
    }

    static func vivid() throws -> AVCaptureDevice {
        try #require(cameras().first { $0.uniqueID == "platform:vivid-000:vivid:vivid" })
    }

    @Test func applesControlsAreThoseVividOffers() throws {
        let camera = try Self.vivid()
        // vivid has gain with automatic gain, and no focus, exposure time, white balance, zoom or torch.
        #expect([.locked, .autoFocus, .continuousAutoFocus].allSatisfy { !camera.isFocusModeSupported($0) })
        #expect(!camera.isLockingFocusWithCustomLensPositionSupported)
        #expect([.continuousAutoExposure, .locked, .custom].allSatisfy { camera.isExposureModeSupported($0) })
        #expect(!camera.isExposureModeSupported(.autoExpose))
        #expect([.locked, .autoWhiteBalance, .continuousAutoWhiteBalance].allSatisfy { !camera.isWhiteBalanceModeSupported($0) })
        #expect(!camera.isLockingWhiteBalanceWithCustomDeviceGainsSupported)
        #expect(!camera.hasTorch && !camera.isTorchModeSupported(.on) && !camera.hasFlash)
        #expect(camera.maxAvailableVideoZoomFactor == 1)
        // The gain's range is the ISO range; no exposure duration control.
        #expect(camera.activeFormat.minISO == 0 && camera.activeFormat.maxISO == 255)
        #expect(camera.activeFormat.minExposureDuration == .zero && camera.activeFormat.maxExposureDuration == .zero)
        #expect(camera.exposureMode == .continuousAutoExposure, "vivid starts with automatic gain")
    }

    @Test func customExposureSetsTheGainAndModesSwitchAutomaticGain() throws {
        let camera = try Self.vivid()
        try camera.lockForConfiguration()
        defer {
            camera.exposureMode = .continuousAutoExposure
            camera.unlockForConfiguration()
        }
        let applied = DispatchSemaphore(value: 0)
        camera.setExposureModeCustom(duration: AVCaptureDevice.currentExposureDuration, iso: 77) { _ in applied.signal() }
        #expect(applied.wait(timeout: .now() + 5) == .success, "the completion handler runs")
        #expect(try Self.driverValues("gain_automatic", "gain") == ["gain_automatic": 0, "gain": 77])
        #expect(camera.iso == 77 && camera.exposureMode == .custom)

        camera.exposureMode = .continuousAutoExposure
        #expect(try Self.driverValues("gain_automatic")["gain_automatic"] == 1)
        camera.exposureMode = .locked
        #expect(try Self.driverValues("gain_automatic")["gain_automatic"] == 0)
        #expect(camera.exposureMode == .locked)
        // A new device object (after an unplug) would start from the driver's state, not reset it.
        #expect(camera.backend.controls?.initialSettings.exposureMode == .locked)
    }

    @Test func v4l2ControlsListAndSetTheRestByName() throws {
        let camera = try Self.vivid()
        let controls = camera.v4l2Controls
        let brightness = try #require(controls.first { $0.name == "brightness" })
        #expect((brightness.minimum, brightness.maximum, brightness.step, brightness.defaultValue) == (0, 255, 1, 128))
        #expect(brightness.localizedName == "Brightness")
        let hue = try #require(controls.first { $0.name == "hue" })
        #expect(hue.minimum == -128 && hue.maximum == 128)
        let pattern = try #require(controls.first { $0.name == "test_pattern" })
        #expect(pattern.menuItems[0] == "75% Colorbar")
        #expect(Set(["contrast", "saturation", "horizontal_flip", "vertical_flip"]).isSubset(of: controls.map(\.name)))
        for control in controls where ["brightness", "contrast", "saturation", "hue"].contains(control.name) {
            #expect(try Self.driverValues(control.name)[control.name] == control.value, "\(control.name)")
        }

        try camera.lockForConfiguration()
        defer {
            try? camera.setValue(128, forV4L2ControlNamed: "contrast")
            try? camera.setValue(0, forV4L2ControlNamed: "horizontal_flip")
            camera.unlockForConfiguration()
        }
        try camera.setValue(77, forV4L2ControlNamed: "contrast")
        try camera.setValue(1, forV4L2ControlNamed: "horizontal_flip")
        #expect(try Self.driverValues("contrast", "horizontal_flip") == ["contrast": 77, "horizontal_flip": 1])
        #expect(camera.v4l2Controls.first { $0.name == "contrast" }?.value == 77)
        #expect(throws: AVError.self) { try camera.setValue(999, forV4L2ControlNamed: "test_pattern") }
        #expect(throws: AVError.self) { try camera.setValue(1, forV4L2ControlNamed: "no_such_control") }
        #expect(camera.v4l2Controls.first { $0.name == "test_pattern" }?.value == 0, "the refused value is not set")
    }

    /// The driver's flips stay `v4l2Controls` (they turn the picture of every output); a
    /// connection's mirroring, in software, gives the picture the driver's flip gives.
    @Test func connectionMirroringGivesTheDriversHorizontalFlip() throws {
        let camera = try Self.vivid()
        try camera.lockForConfiguration()
        defer {
            try? camera.setValue(0, forV4L2ControlNamed: "osd_text_mode")
            try? camera.setValue(0, forV4L2ControlNamed: "horizontal_flip")
            camera.unlockForConfiguration()
        }
        try camera.setValue(2, forV4L2ControlNamed: "osd_text_mode")  // no text: colour bars only
        let session = AVCaptureSession()
        session.sessionPreset = .low
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let output = AVCaptureVideoDataOutput()
        let sampler = CaptureFrameSampler()
        output.setSampleBufferDelegate(sampler, queue: DispatchQueue(label: "vivid pictures"))
        session.addOutput(output)
        let connection = try #require(output.connection(with: .video))
        connection.automaticallyAdjustsVideoMirroring = false
        // The luma at the centres of the eight vertical bars, along the middle row, of the
        // second picture from now.
        let bars = { () throws -> [Int] in
            session.startRunning()
            defer { session.stopRunning() }
            let picture = try #require(sampler.picture(after: sampler.count + 1, timeout: 20))
            return (0..<8).map { picture.luma((2 * $0 + 1) * picture.width / 16, picture.height / 2) }
        }
        let normal = try bars()
        connection.isVideoMirrored = true
        let mirrored = try bars()
        connection.isVideoMirrored = false
        try camera.setValue(1, forV4L2ControlNamed: "horizontal_flip")
        let flipped = try bars()
        print("bars \(normal), mirrored \(mirrored), flipped by the driver \(flipped)")
        #expect(normal[0] - normal[7] > 100, "the bars run from light to dark: \(normal)")
        #expect(zip(mirrored, flipped).allSatisfy { abs($0 - $1) <= 3 }, "\(mirrored) is \(flipped)")
        #expect(zip(mirrored, normal.reversed()).allSatisfy { abs($0 - $1) <= 3 }, "\(mirrored) mirrors \(normal)")
    }

    @Test func presetsTakeTheNearestVividFormat() throws {
        let camera = try Self.vivid()
        // vivid: 320x180, 640x360, 640x480, 1280x720, 1920x1080, 3840x2160.
        let size = { () -> (Int32, Int32) in
            let dimensions = CMVideoFormatDescriptionGetDimensions(camera.activeFormat.formatDescription)
            return (dimensions.width, dimensions.height)
        }
        #expect([.cif352x288, .iFrame960x540, .vga640x480, .hd4K3840x2160].allSatisfy { camera.supportsSessionPreset($0) })
        let (session, collector) = try Self.session(camera, preset: .iFrame960x540)
        #expect(size() == (1280, 720))
        session.sessionPreset = .vga640x480
        #expect(size() == (640, 480))
        session.sessionPreset = .cif352x288
        #expect(size() == (640, 360))
        session.startRunning()
        defer { session.stopRunning() }
        #expect(collector.wait(timeout: 20) { frames, _ in frames.count >= 3 })
        session.stopRunning()
        #expect(!collector.frames.isEmpty && collector.frames.allSatisfy { $0.width == 640 && $0.height == 360 })
    }

    /// Collects the devices of the connection notifications.
    final class ConnectionLog: @unchecked Sendable {
        private let lock = NSLock()
        private var devices: [(connected: Bool, device: AVCaptureDevice)] = []
        private let changed = DispatchSemaphore(value: 0)
        private var tokens: [NSObjectProtocol] = []

        init() {
            for (name, connected) in [(AVCaptureDevice.wasConnectedNotification, true), (AVCaptureDevice.wasDisconnectedNotification, false)] {
                tokens.append(NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { [self] note in
                    guard let device = note.object as? AVCaptureDevice, device.v4l2DevicePath != nil else { return }
                    lock.withLock { devices.append((connected, device)) }
                    changed.signal()
                })
            }
        }

        deinit { for token in tokens { NotificationCenter.default.removeObserver(token) } }

        /// Waits until `count` devices were (dis)connected; their objects, in order.
        func wait(for count: Int, connected: Bool, timeout: Double = 20) -> [AVCaptureDevice] {
            let deadline = DispatchTime.now() + timeout
            while true {
                let matching = lock.withLock { devices.filter { $0.connected == connected }.map(\.device) }
                if matching.count >= count || changed.wait(timeout: deadline) == .timedOut { return matching }
            }
        }
    }

    @Test func unloadingAndLoadingVividDisconnectsAndConnectsTheCameras() throws {
        let before = Self.cameras().filter { $0.v4l2DevicePath != nil }
        try #require(before.count == 2)
        // A session holding the first camera, not running: started after the replug it must not use it.
        let stale = try Self.session(before[0], preset: .low).session
        let options = try ["n_devs", "multiplanar", "node_types"].map { name in
            "\(name)=" + (try String(contentsOfFile: "/sys/module/vivid/parameters/\(name)", encoding: .utf8))
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let log = ConnectionLog()

        _ = try Fixtures.run("modprobe", ["-r", "vivid"])
        let gone = log.wait(for: 2, connected: false)
        #expect(Set(gone.map(\.uniqueID)) == Set(before.map(\.uniqueID)))
        #expect(gone.allSatisfy { old in before.contains { $0 === old } }, "the listed objects are the ones disconnected")
        #expect(before.allSatisfy { !$0.isConnected })

        _ = try Fixtures.run("modprobe", ["vivid"] + options)
        let back = log.wait(for: 2, connected: true)
        #expect(Set(back.map(\.uniqueID)) == Set(before.map(\.uniqueID)))
        #expect(back.allSatisfy { $0.isConnected })
        #expect(back.allSatisfy { new in !before.contains { $0 === new } }, "plugged in again, a camera is a new object")
        #expect(before.allSatisfy { !$0.isConnected }, "the old objects stay disconnected")
        #expect(Set(Self.cameras().filter { $0.v4l2DevicePath != nil }.map(ObjectIdentifier.init)) == Set(back.map(ObjectIdentifier.init)))

        let refused = RuntimeErrorLog(stale)
        stale.startRunning()
        #expect(refused.wait() == .deviceNotConnected && !stale.isRunning)

        // The new object captures.
        let camera = try #require(back.first { $0.uniqueID == before[0].uniqueID })
        let (session, collector) = try Self.session(camera, preset: .low)
        session.startRunning()
        defer { session.stopRunning() }
        #expect(collector.wait(timeout: 20) { frames, _ in frames.count >= 3 })
    }
}

/// The nearest-format rule of fixed-size presets for V4L2 cameras, on a camera offering
/// 640x480 and 1280x720 (runs on the host).
@Test func fixedPresetsTakeTheSmallestFormatCoveringThemOnHardware() {
    let formats = [(640, 480), (1280, 720)].map { size in
        CaptureVideoFormat(pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, width: size.0, height: size.1,
                           frameRateRanges: [CaptureFrameRateRange(minRate: 1, maxRate: 30)])
    }
    let size = { (preset: AVCaptureSession.Preset, nearest: Bool) in
        preset.videoFormat(among: formats, nearest: nearest).map { "\($0.width)x\($0.height)" }
    }
    #expect(size(.cif352x288, true) == "640x480")
    #expect(size(.iFrame960x540, true) == "1280x720")
    #expect(size(.hd1280x720, true) == "1280x720")
    #expect(size(.hd1920x1080, true) == nil, "nothing covers 1920x1080")
    #expect(size(.cif352x288, false) == nil, "the virtual camera needs the exact size")
}
