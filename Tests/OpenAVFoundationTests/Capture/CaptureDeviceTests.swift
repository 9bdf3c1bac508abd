import Foundation
import Testing
@testable import OpenAVFoundation

/// Discovery and configuration of capture devices (no device is started here).
@Suite(.timeLimit(.minutes(10))) struct CaptureDeviceTests {
    static let cameraID = "openav-virtual-test-pattern-camera"
    static let microphoneID = "openav-virtual-test-tone-microphone"

    @Test func discoveryListsTheVirtualCameraAndMicrophone() throws {
        let cameras = AVCaptureDevice.DiscoverySession(
            deviceTypes: [.builtInWideAngleCamera, .external], mediaType: .video, position: .unspecified).devices
        let camera = try #require(cameras.first { $0.uniqueID == Self.cameraID })
        #expect(camera.localizedName == "Test Pattern Camera")
        #expect(camera.deviceType == .builtInWideAngleCamera)
        #expect(camera.position == .unspecified)
        #expect(camera.hasMediaType(.video) && !camera.hasMediaType(.audio))
        #expect(camera.isConnected)
        #expect(!camera.modelID.isEmpty && !camera.manufacturer.isEmpty)

        // The current and the deprecated microphone type both find the microphone.
        for type in [AVCaptureDevice.DeviceType.microphone, .builtInMicrophone] {
            let microphones = AVCaptureDevice.DiscoverySession(deviceTypes: [type], mediaType: .audio,
                                                               position: .unspecified).devices
            let microphone = try #require(microphones.first { $0.uniqueID == Self.microphoneID })
            #expect(microphone.deviceType == .microphone)
            #expect(microphone.hasMediaType(.audio))
        }
        // Types and media types filter.
        #expect(AVCaptureDevice.DiscoverySession(deviceTypes: [.microphone], mediaType: .video,
                                                 position: .unspecified).devices.isEmpty)
        #expect(!AVCaptureDevice.DiscoverySession(deviceTypes: [.builtInWideAngleCamera], mediaType: nil,
                                                  position: .unspecified).devices.contains { $0.hasMediaType(.audio) })
    }

    @Test func defaultDevicesAreTheVirtualOnesAndIdentityIsStable() throws {
        let camera = try #require(AVCaptureDevice.default(for: .video))
        #expect(camera.uniqueID == Self.cameraID)
        #expect(AVCaptureDevice.default(for: .video) === camera)
        #expect(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .unspecified) === camera)
        #expect(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back) == nil)
        let microphone = try #require(AVCaptureDevice.default(for: .audio))
        #expect(microphone.uniqueID == Self.microphoneID)
        #expect(AVCaptureDevice.default(.microphone, for: .audio, position: .unspecified) === microphone)
        #expect(AVCaptureDevice.DiscoverySession(deviceTypes: [.builtInWideAngleCamera], mediaType: .video,
                                                 position: .unspecified).devices.first === camera)
    }

    @available(*, deprecated)
    @Test func deprecatedDeviceListsStillWork() {
        let all = AVCaptureDevice.devices()
        #expect(all.contains { $0.uniqueID == Self.cameraID } && all.contains { $0.uniqueID == Self.microphoneID })
        #expect(AVCaptureDevice.devices(for: .audio).allSatisfy { $0.hasMediaType(.audio) })
        #expect(AVCaptureDevice.devices(for: .video).contains { $0.uniqueID == Self.cameraID })
    }

    @Test func authorizationIsGrantedForVirtualDevices() async {
        #expect(AVCaptureDevice.authorizationStatus(for: .video) == .authorized)
        #expect(AVCaptureDevice.authorizationStatus(for: .audio) == .authorized)
        #expect(await AVCaptureDevice.requestAccess(for: .video))
        let granted = await withCheckedContinuation { continuation in
            AVCaptureDevice.requestAccess(for: .audio) { continuation.resume(returning: $0) }
        }
        #expect(granted)
    }

    @Test func formatsDescribeSizesAndFrameRates() throws {
        let camera = try #require(AVCaptureDevice.default(for: .video))
        let hd = try #require(camera.formats.first {
            let d = CMVideoFormatDescriptionGetDimensions($0.formatDescription)
            return d.width == 1280 && d.height == 720
                && CMFormatDescriptionGetMediaSubType($0.formatDescription) == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
        })
        #expect(hd.mediaType == .video)
        let range = try #require(hd.videoSupportedFrameRateRanges.first)
        #expect(range.maxFrameRate == 240 && range.minFrameRate == 1)
        #expect(range.minFrameDuration == CMTime(value: 1, timescale: 240))
        #expect(range.maxFrameDuration == CMTime(value: 1, timescale: 1))
        #expect(camera.formats.first === camera.formats.first)

        let microphone = try #require(AVCaptureDevice.default(for: .audio))
        #expect(microphone.formats.allSatisfy { $0.mediaType == .audio && $0.videoSupportedFrameRateRanges.isEmpty })
        #expect(CMAudioFormatDescriptionGetStreamBasicDescription(microphone.activeFormat.formatDescription)?
            .pointee.mSampleRate == 48_000)
    }

    @Test func sessionPresetSupport() throws {
        let camera = try #require(AVCaptureDevice.default(for: .video))
        for preset in [AVCaptureSession.Preset.photo, .high, .medium, .low, .vga640x480, .hd1280x720, .hd1920x1080,
                       .hd4K3840x2160, .iFrame1280x720, .inputPriority] {
            #expect(camera.supportsSessionPreset(preset), "\(preset.rawValue)")
        }
        #expect(!camera.supportsSessionPreset(.cif352x288))
        #expect(!camera.supportsSessionPreset(.iFrame960x540))
        let microphone = try #require(AVCaptureDevice.default(for: .audio))
        #expect(microphone.supportsSessionPreset(.cif352x288))
        #expect(AVCaptureSession.Preset.high.rawValue == "AVCaptureSessionPresetHigh")
        #expect(AVCaptureSession.Preset.hd4K3840x2160.rawValue == "AVCaptureSessionPreset3840x2160")
    }
}
