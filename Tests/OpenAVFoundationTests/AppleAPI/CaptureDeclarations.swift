import Testing
import OpenAVFoundation

// The capture classes' declarations (Sources/OpenAVFoundation/Capture, without its MovieFile and
// StillImages folders) by Apple's exact spelling, as Apple's reference pages give them
// (https://developer.apple.com/documentation/avfoundation/…): each reference is typed, so a
// rename, a relabel, or a change of optionality, throwing or settability breaks this file's
// build. Nothing here runs a device: at most cheap objects are made. Deprecated spellings are in
// `deprecatedSpellings()`, which is compiled but not run (referencing them warns otherwise).

/// Apple's capture API declarations, checked by the compiler.
@Suite(.timeLimit(.minutes(10))) struct CaptureAppleDeclarationTests {
    // MARK: Enumerations

    /// AVAuthorizationStatus, AVCaptureVideoOrientation, AVCaptureVideoStabilizationMode.
    @Test func topLevelEnumerations() {
        let _: [AVAuthorizationStatus] = [.notDetermined, .restricted, .denied, .authorized]
        #expect(AVAuthorizationStatus.notDetermined.rawValue == 0 && AVAuthorizationStatus.restricted.rawValue == 1)
        #expect(AVAuthorizationStatus.denied.rawValue == 2 && AVAuthorizationStatus.authorized.rawValue == 3)
        #expect(AVAuthorizationStatus(rawValue: 3) == .authorized)

        let _: [AVCaptureVideoOrientation] = [.portrait, .portraitUpsideDown, .landscapeRight, .landscapeLeft]
        #expect([AVCaptureVideoOrientation.portrait, .portraitUpsideDown, .landscapeRight, .landscapeLeft].map(\.rawValue) == [1, 2, 3, 4])

        let modes: [AVCaptureVideoStabilizationMode] = [.auto, .off, .standard, .cinematic, .cinematicExtended, .previewOptimized,
                                                        .cinematicExtendedEnhanced, .lowLatency]
        #expect(modes.map(\.rawValue) == [-1, 0, 1, 2, 3, 4, 5, 6])
    }

    /// AVCaptureDevice.Position, FocusMode, ExposureMode, WhiteBalanceMode, TorchMode, FlashMode.
    @Test func deviceEnumerations() {
        #expect([AVCaptureDevice.Position.unspecified, .back, .front].map(\.rawValue) == [0, 1, 2])
        #expect([AVCaptureDevice.FocusMode.locked, .autoFocus, .continuousAutoFocus].map(\.rawValue) == [0, 1, 2])
        #expect([AVCaptureDevice.ExposureMode.locked, .autoExpose, .continuousAutoExposure, .custom].map(\.rawValue) == [0, 1, 2, 3])
        #expect([AVCaptureDevice.WhiteBalanceMode.locked, .autoWhiteBalance, .continuousAutoWhiteBalance].map(\.rawValue) == [0, 1, 2])
        #expect([AVCaptureDevice.TorchMode.off, .on, .auto].map(\.rawValue) == [0, 1, 2])
        #expect([AVCaptureDevice.FlashMode.off, .on, .auto].map(\.rawValue) == [0, 1, 2])
        #expect(AVCaptureDevice.FocusMode(rawValue: 2) == .continuousAutoFocus)
    }

    /// AVCaptureDevice.DeviceType: https://developer.apple.com/documentation/avfoundation/avcapturedevice/devicetype-swift.struct
    @Test func deviceTypes() {
        let _: (String) -> AVCaptureDevice.DeviceType = AVCaptureDevice.DeviceType.init(rawValue:)
        let _: (String) -> AVCaptureDevice.DeviceType = AVCaptureDevice.DeviceType.init(_:)
        let types: [AVCaptureDevice.DeviceType] = [
            .builtInWideAngleCamera, .builtInUltraWideCamera, .builtInTelephotoCamera, .builtInDualCamera, .builtInDualWideCamera,
            .builtInTripleCamera, .builtInTrueDepthCamera, .builtInLiDARDepthCamera, .continuityCamera, .deskViewCamera, .external,
            .microphone,
        ]
        #expect(Set(types).count == types.count)
        #expect(AVCaptureDevice.DeviceType.builtInWideAngleCamera.rawValue == "AVCaptureDeviceTypeBuiltInWideAngleCamera")
        #expect(AVCaptureDevice.DeviceType.external.rawValue == "AVCaptureDeviceTypeExternal")
        #expect(AVCaptureDevice.DeviceType.microphone.rawValue == "AVCaptureDeviceTypeMicrophone")
        #expect(AVCaptureDevice.DeviceType.builtInTelephotoCamera.rawValue == "AVCaptureDeviceTypeBuiltInTelephotoCamera")
    }

    /// AVCaptureSession.Preset: https://developer.apple.com/documentation/avfoundation/avcapturesession/preset
    @Test func sessionPresets() {
        let _: (String) -> AVCaptureSession.Preset = AVCaptureSession.Preset.init(rawValue:)
        let _: (String) -> AVCaptureSession.Preset = AVCaptureSession.Preset.init(_:)
        let presets: [AVCaptureSession.Preset: String] = [
            .photo: "AVCaptureSessionPresetPhoto", .high: "AVCaptureSessionPresetHigh", .medium: "AVCaptureSessionPresetMedium",
            .low: "AVCaptureSessionPresetLow", .qvga320x240: "AVCaptureSessionPreset320x240",
            .cif352x288: "AVCaptureSessionPreset352x288", .vga640x480: "AVCaptureSessionPreset640x480",
            .qHD960x540: "AVCaptureSessionPreset960x540", .hd1280x720: "AVCaptureSessionPreset1280x720",
            .hd1920x1080: "AVCaptureSessionPreset1920x1080", .hd4K3840x2160: "AVCaptureSessionPreset3840x2160",
            .iFrame960x540: "AVCaptureSessionPresetiFrame960x540", .iFrame1280x720: "AVCaptureSessionPresetiFrame1280x720",
            .inputPriority: "AVCaptureSessionPresetInputPriority",
        ]
        for (preset, rawValue) in presets { #expect(preset.rawValue == rawValue) }
    }

    // MARK: Session

    /// AVCaptureSession: https://developer.apple.com/documentation/avfoundation/avcapturesession
    @Test func session() {
        let session = AVCaptureSession()
        #expect(session.sessionPreset == .high && !session.isRunning)
        let _: () -> AVCaptureSession = AVCaptureSession.init
        let _: ReferenceWritableKeyPath<AVCaptureSession, AVCaptureSession.Preset> = \AVCaptureSession.sessionPreset
        let _: (AVCaptureSession) -> (AVCaptureSession.Preset) -> Bool = AVCaptureSession.canSetSessionPreset(_:)
        let _: KeyPath<AVCaptureSession, [AVCaptureInput]> = \AVCaptureSession.inputs
        let _: KeyPath<AVCaptureSession, [AVCaptureOutput]> = \AVCaptureSession.outputs
        let _: KeyPath<AVCaptureSession, [AVCaptureConnection]> = \AVCaptureSession.connections
        let _: (AVCaptureSession) -> (AVCaptureInput) -> Bool = AVCaptureSession.canAddInput(_:)
        let _: (AVCaptureSession) -> (AVCaptureInput) -> Void = AVCaptureSession.addInput(_:)
        let _: (AVCaptureSession) -> (AVCaptureInput) -> Void = AVCaptureSession.addInputWithNoConnections(_:)
        let _: (AVCaptureSession) -> (AVCaptureInput) -> Void = AVCaptureSession.removeInput(_:)
        let _: (AVCaptureSession) -> (AVCaptureOutput) -> Bool = AVCaptureSession.canAddOutput(_:)
        let _: (AVCaptureSession) -> (AVCaptureOutput) -> Void = AVCaptureSession.addOutput(_:)
        let _: (AVCaptureSession) -> (AVCaptureOutput) -> Void = AVCaptureSession.addOutputWithNoConnections(_:)
        let _: (AVCaptureSession) -> (AVCaptureOutput) -> Void = AVCaptureSession.removeOutput(_:)
        let _: (AVCaptureSession) -> (AVCaptureConnection) -> Bool = AVCaptureSession.canAddConnection(_:)
        let _: (AVCaptureSession) -> (AVCaptureConnection) -> Void = AVCaptureSession.addConnection(_:)
        let _: (AVCaptureSession) -> (AVCaptureConnection) -> Void = AVCaptureSession.removeConnection(_:)
        let _: (AVCaptureSession) -> () -> Void = AVCaptureSession.beginConfiguration
        let _: (AVCaptureSession) -> () -> Void = AVCaptureSession.commitConfiguration
        let _: (AVCaptureSession) -> () -> Void = AVCaptureSession.startRunning
        let _: (AVCaptureSession) -> () -> Void = AVCaptureSession.stopRunning
        let _: KeyPath<AVCaptureSession, Bool> = \AVCaptureSession.isRunning
        let _: KeyPath<AVCaptureSession, Bool> = \AVCaptureSession.isInterrupted
        let _: KeyPath<AVCaptureSession, CMClock?> = \AVCaptureSession.synchronizationClock
        let _: ReferenceWritableKeyPath<AVCaptureSession, Bool> = \AVCaptureSession.usesApplicationAudioSession
        let _: ReferenceWritableKeyPath<AVCaptureSession, Bool> = \AVCaptureSession.automaticallyConfiguresApplicationAudioSession
        // Key-value observing, in the block form.
        let _: (AVCaptureSession) -> NSKeyValueObservation = { session in
            session.observe(\.isRunning, options: [.new, .old]) { session, change in _ = (session, change.newValue) }
        }
        let _: [NSNotification.Name] = [AVCaptureSession.runtimeErrorNotification, AVCaptureSession.didStartRunningNotification,
                                        AVCaptureSession.didStopRunningNotification, AVCaptureSession.wasInterruptedNotification,
                                        AVCaptureSession.interruptionEndedNotification]
        #expect(AVCaptureSession.runtimeErrorNotification.rawValue == "AVCaptureSessionRuntimeErrorNotification")
        #expect(AVCaptureSession.didStartRunningNotification.rawValue == "AVCaptureSessionDidStartRunningNotification")
        #expect(AVCaptureSession.didStopRunningNotification.rawValue == "AVCaptureSessionDidStopRunningNotification")
        #expect(AVCaptureSession.wasInterruptedNotification.rawValue == "AVCaptureSessionWasInterruptedNotification")
        #expect(AVCaptureSession.interruptionEndedNotification.rawValue == "AVCaptureSessionInterruptionEndedNotification")
        let _: String = AVCaptureSessionErrorKey
        let _: String = AVCaptureSessionInterruptionReasonKey
        let _: String = AVCaptureSessionInterruptionSystemPressureStateKey
        #expect(AVCaptureSessionErrorKey == "AVCaptureSessionErrorKey")
        let reasons: [AVCaptureSession.InterruptionReason] = [
            .videoDeviceNotAvailableInBackground, .audioDeviceInUseByAnotherClient, .videoDeviceInUseByAnotherClient,
            .videoDeviceNotAvailableWithMultipleForegroundApps, .videoDeviceNotAvailableDueToSystemPressure,
            .sensitiveContentMitigationActivated,
        ]
        #expect(reasons.map(\.rawValue) == [1, 2, 3, 4, 5, 6])
    }

    /// AVCaptureConnection and AVCaptureAudioChannel.
    @Test func connectionAndAudioChannel() {
        let _: ([AVCaptureInput.Port], AVCaptureOutput) -> AVCaptureConnection = AVCaptureConnection.init(inputPorts:output:)
        let _: (AVCaptureInput.Port, AVCaptureVideoPreviewLayer) -> AVCaptureConnection = AVCaptureConnection.init(inputPort:videoPreviewLayer:)
        let _: KeyPath<AVCaptureConnection, [AVCaptureInput.Port]> = \AVCaptureConnection.inputPorts
        let _: KeyPath<AVCaptureConnection, AVCaptureOutput?> = \AVCaptureConnection.output
        let _: KeyPath<AVCaptureConnection, AVCaptureVideoPreviewLayer?> = \AVCaptureConnection.videoPreviewLayer
        let _: ReferenceWritableKeyPath<AVCaptureConnection, Bool> = \AVCaptureConnection.isEnabled
        let _: KeyPath<AVCaptureConnection, Bool> = \AVCaptureConnection.isActive
        let _: KeyPath<AVCaptureConnection, [AVCaptureAudioChannel]> = \AVCaptureConnection.audioChannels
        let _: KeyPath<AVCaptureConnection, Bool> = \AVCaptureConnection.isVideoOrientationSupported
        let _: ReferenceWritableKeyPath<AVCaptureConnection, AVCaptureVideoOrientation> = \AVCaptureConnection.videoOrientation
        let _: (AVCaptureConnection) -> (CGFloat) -> Bool = AVCaptureConnection.isVideoRotationAngleSupported(_:)
        let _: ReferenceWritableKeyPath<AVCaptureConnection, CGFloat> = \AVCaptureConnection.videoRotationAngle
        let _: KeyPath<AVCaptureConnection, Bool> = \AVCaptureConnection.isVideoMirroringSupported
        let _: ReferenceWritableKeyPath<AVCaptureConnection, Bool> = \AVCaptureConnection.isVideoMirrored
        let _: ReferenceWritableKeyPath<AVCaptureConnection, Bool> = \AVCaptureConnection.automaticallyAdjustsVideoMirroring
        let _: KeyPath<AVCaptureConnection, Bool> = \AVCaptureConnection.isVideoStabilizationSupported
        let _: ReferenceWritableKeyPath<AVCaptureConnection, AVCaptureVideoStabilizationMode> =
            \AVCaptureConnection.preferredVideoStabilizationMode
        let _: KeyPath<AVCaptureConnection, AVCaptureVideoStabilizationMode> = \AVCaptureConnection.activeVideoStabilizationMode
        let _: KeyPath<AVCaptureConnection, CGFloat> = \AVCaptureConnection.videoMaxScaleAndCropFactor
        let _: ReferenceWritableKeyPath<AVCaptureConnection, CGFloat> = \AVCaptureConnection.videoScaleAndCropFactor
        let _: KeyPath<AVCaptureConnection, Bool> = \AVCaptureConnection.isCameraIntrinsicMatrixDeliverySupported
        let _: ReferenceWritableKeyPath<AVCaptureConnection, Bool> = \AVCaptureConnection.isCameraIntrinsicMatrixDeliveryEnabled

        let _: KeyPath<AVCaptureAudioChannel, Float> = \AVCaptureAudioChannel.averagePowerLevel
        let _: KeyPath<AVCaptureAudioChannel, Float> = \AVCaptureAudioChannel.peakHoldLevel
    }

    // MARK: Devices

    /// AVCaptureDevice discovery, identity and configuration:
    /// https://developer.apple.com/documentation/avfoundation/avcapturedevice
    @Test func deviceDiscoveryAndConfiguration() {
        let _: (AVMediaType) -> AVCaptureDevice? = AVCaptureDevice.default(for:)
        let _: (AVCaptureDevice.DeviceType, AVMediaType?, AVCaptureDevice.Position) -> AVCaptureDevice? =
            AVCaptureDevice.default(_:for:position:)
        let _: (AVMediaType) -> AVAuthorizationStatus = AVCaptureDevice.authorizationStatus(for:)
        let _: (AVMediaType) async -> Bool = AVCaptureDevice.requestAccess(for:)
        let _: (AVMediaType) -> Void = { mediaType in
            AVCaptureDevice.requestAccess(for: mediaType) { granted in _ = granted }
            AVCaptureDevice.requestAccess(for: mediaType, completionHandler: { granted in _ = granted })
        }
        let _: [NSNotification.Name] = [AVCaptureDevice.wasConnectedNotification, AVCaptureDevice.wasDisconnectedNotification,
                                        AVCaptureDevice.subjectAreaDidChangeNotification]
        #expect(AVCaptureDevice.subjectAreaDidChangeNotification.rawValue == "AVCaptureDeviceSubjectAreaDidChangeNotification")

        let _: ([AVCaptureDevice.DeviceType], AVMediaType?, AVCaptureDevice.Position) -> AVCaptureDevice.DiscoverySession =
            AVCaptureDevice.DiscoverySession.init(deviceTypes:mediaType:position:)
        let _: KeyPath<AVCaptureDevice.DiscoverySession, [AVCaptureDevice]> = \AVCaptureDevice.DiscoverySession.devices
        let _: KeyPath<AVCaptureDevice.DiscoverySession, [Set<AVCaptureDevice>]> =
            \AVCaptureDevice.DiscoverySession.supportedMultiCamDeviceSets

        let _: KeyPath<AVCaptureDevice, String> = \AVCaptureDevice.uniqueID
        let _: KeyPath<AVCaptureDevice, String> = \AVCaptureDevice.modelID
        let _: KeyPath<AVCaptureDevice, String> = \AVCaptureDevice.localizedName
        let _: KeyPath<AVCaptureDevice, String> = \AVCaptureDevice.manufacturer
        let _: KeyPath<AVCaptureDevice, AVCaptureDevice.DeviceType> = \AVCaptureDevice.deviceType
        let _: KeyPath<AVCaptureDevice, AVCaptureDevice.Position> = \AVCaptureDevice.position
        let _: KeyPath<AVCaptureDevice, Bool> = \AVCaptureDevice.isConnected
        let _: KeyPath<AVCaptureDevice, Bool> = \AVCaptureDevice.isSuspended
        let _: KeyPath<AVCaptureDevice, Bool> = \AVCaptureDevice.isVirtualDevice
        let _: KeyPath<AVCaptureDevice, [AVCaptureDevice]> = \AVCaptureDevice.constituentDevices
        let _: (AVCaptureDevice) -> (AVMediaType) -> Bool = AVCaptureDevice.hasMediaType(_:)
        let _: (AVCaptureDevice) -> (AVCaptureSession.Preset) -> Bool = AVCaptureDevice.supportsSessionPreset(_:)
        let _: (AVCaptureDevice) -> () throws -> Void = AVCaptureDevice.lockForConfiguration
        let _: (AVCaptureDevice) -> () -> Void = AVCaptureDevice.unlockForConfiguration
        let _: KeyPath<AVCaptureDevice, [AVCaptureDevice.Format]> = \AVCaptureDevice.formats
        let _: ReferenceWritableKeyPath<AVCaptureDevice, AVCaptureDevice.Format> = \AVCaptureDevice.activeFormat
        let _: ReferenceWritableKeyPath<AVCaptureDevice, CMTime> = \AVCaptureDevice.activeVideoMinFrameDuration
        let _: ReferenceWritableKeyPath<AVCaptureDevice, CMTime> = \AVCaptureDevice.activeVideoMaxFrameDuration
        let _: ReferenceWritableKeyPath<AVCaptureDevice, Bool> = \AVCaptureDevice.isSubjectAreaChangeMonitoringEnabled
        let _: (AVCaptureDevice) -> NSKeyValueObservation = { device in
            device.observe(\.isAdjustingFocus, options: .new) { device, change in _ = (device, change.newValue) }
        }
    }

    /// Focus, exposure, white balance, torch, flash and zoom of AVCaptureDevice.
    @Test func deviceControls() {
        // Focus.
        let _: Float = AVCaptureDevice.currentLensPosition
        let _: (AVCaptureDevice) -> (AVCaptureDevice.FocusMode) -> Bool = AVCaptureDevice.isFocusModeSupported(_:)
        let _: ReferenceWritableKeyPath<AVCaptureDevice, AVCaptureDevice.FocusMode> = \AVCaptureDevice.focusMode
        let _: KeyPath<AVCaptureDevice, Bool> = \AVCaptureDevice.isFocusPointOfInterestSupported
        let _: ReferenceWritableKeyPath<AVCaptureDevice, CGPoint> = \AVCaptureDevice.focusPointOfInterest
        let _: KeyPath<AVCaptureDevice, Bool> = \AVCaptureDevice.isAdjustingFocus
        let _: KeyPath<AVCaptureDevice, Float> = \AVCaptureDevice.lensPosition
        let _: KeyPath<AVCaptureDevice, Bool> = \AVCaptureDevice.isLockingFocusWithCustomLensPositionSupported
        let _: KeyPath<AVCaptureDevice, Bool> = \AVCaptureDevice.isSmoothAutoFocusSupported
        let _: ReferenceWritableKeyPath<AVCaptureDevice, Bool> = \AVCaptureDevice.isSmoothAutoFocusEnabled
        let _: (AVCaptureDevice) -> Void = { device in
            device.setFocusModeLocked(lensPosition: 0.5)
            device.setFocusModeLocked(lensPosition: AVCaptureDevice.currentLensPosition) { syncTime in _ = syncTime.seconds }
            device.setFocusModeLocked(lensPosition: 0.5, completionHandler: nil)
        }

        // Exposure.
        let _: CMTime = AVCaptureDevice.currentExposureDuration
        let _: Float = AVCaptureDevice.currentISO
        let _: Float = AVCaptureDevice.currentExposureTargetBias
        let _: (AVCaptureDevice) -> (AVCaptureDevice.ExposureMode) -> Bool = AVCaptureDevice.isExposureModeSupported(_:)
        let _: ReferenceWritableKeyPath<AVCaptureDevice, AVCaptureDevice.ExposureMode> = \AVCaptureDevice.exposureMode
        let _: KeyPath<AVCaptureDevice, Bool> = \AVCaptureDevice.isExposurePointOfInterestSupported
        let _: ReferenceWritableKeyPath<AVCaptureDevice, CGPoint> = \AVCaptureDevice.exposurePointOfInterest
        let _: KeyPath<AVCaptureDevice, Bool> = \AVCaptureDevice.isAdjustingExposure
        let _: KeyPath<AVCaptureDevice, CMTime> = \AVCaptureDevice.exposureDuration
        let _: KeyPath<AVCaptureDevice, Float> = \AVCaptureDevice.iso
        let _: KeyPath<AVCaptureDevice, Float> = \AVCaptureDevice.exposureTargetBias
        let _: KeyPath<AVCaptureDevice, Float> = \AVCaptureDevice.minExposureTargetBias
        let _: KeyPath<AVCaptureDevice, Float> = \AVCaptureDevice.maxExposureTargetBias
        let _: KeyPath<AVCaptureDevice, Float> = \AVCaptureDevice.exposureTargetOffset
        let _: KeyPath<AVCaptureDevice, Bool> = \AVCaptureDevice.isLowLightBoostSupported
        let _: KeyPath<AVCaptureDevice, Bool> = \AVCaptureDevice.isLowLightBoostEnabled
        let _: ReferenceWritableKeyPath<AVCaptureDevice, Bool> = \AVCaptureDevice.automaticallyEnablesLowLightBoostWhenAvailable
        let _: (AVCaptureDevice) -> Void = { device in
            device.setExposureModeCustom(duration: AVCaptureDevice.currentExposureDuration, iso: AVCaptureDevice.currentISO)
            device.setExposureModeCustom(duration: CMTime(value: 1, timescale: 60), iso: 100) { syncTime in _ = syncTime }
            device.setExposureTargetBias(0.5)
            device.setExposureTargetBias(AVCaptureDevice.currentExposureTargetBias, completionHandler: { syncTime in _ = syncTime })
        }

        // White balance.
        let _: AVCaptureDevice.WhiteBalanceGains = AVCaptureDevice.currentWhiteBalanceGains
        let _: (AVCaptureDevice) -> (AVCaptureDevice.WhiteBalanceMode) -> Bool = AVCaptureDevice.isWhiteBalanceModeSupported(_:)
        let _: ReferenceWritableKeyPath<AVCaptureDevice, AVCaptureDevice.WhiteBalanceMode> = \AVCaptureDevice.whiteBalanceMode
        let _: KeyPath<AVCaptureDevice, Bool> = \AVCaptureDevice.isAdjustingWhiteBalance
        let _: KeyPath<AVCaptureDevice, AVCaptureDevice.WhiteBalanceGains> = \AVCaptureDevice.deviceWhiteBalanceGains
        let _: KeyPath<AVCaptureDevice, AVCaptureDevice.WhiteBalanceGains> = \AVCaptureDevice.grayWorldDeviceWhiteBalanceGains
        let _: KeyPath<AVCaptureDevice, Float> = \AVCaptureDevice.maxWhiteBalanceGain
        let _: KeyPath<AVCaptureDevice, Bool> = \AVCaptureDevice.isLockingWhiteBalanceWithCustomDeviceGainsSupported
        let _: (AVCaptureDevice) -> (AVCaptureDevice.WhiteBalanceGains) -> AVCaptureDevice.WhiteBalanceTemperatureAndTintValues =
            AVCaptureDevice.temperatureAndTintValues(for:)
        let _: (AVCaptureDevice) -> (AVCaptureDevice.WhiteBalanceTemperatureAndTintValues) -> AVCaptureDevice.WhiteBalanceGains =
            AVCaptureDevice.deviceWhiteBalanceGains(for:)
        let _: (AVCaptureDevice) -> Void = { device in
            device.setWhiteBalanceModeLocked(with: AVCaptureDevice.currentWhiteBalanceGains)
            device.setWhiteBalanceModeLocked(with: device.grayWorldDeviceWhiteBalanceGains) { syncTime in _ = syncTime }
        }
        var gains = AVCaptureDevice.WhiteBalanceGains()
        gains = AVCaptureDevice.WhiteBalanceGains(redGain: 2, greenGain: 1, blueGain: 1.5)
        gains.redGain = 1.5
        #expect(gains.redGain == 1.5 && gains.greenGain == 1 && gains.blueGain == 1.5)
        var temperatureAndTint = AVCaptureDevice.WhiteBalanceTemperatureAndTintValues()
        temperatureAndTint = AVCaptureDevice.WhiteBalanceTemperatureAndTintValues(temperature: 5000, tint: 0)
        temperatureAndTint.tint = 10
        #expect(temperatureAndTint.temperature == 5000 && temperatureAndTint.tint == 10)

        // Torch and flash.
        let _: Float = AVCaptureDevice.maxAvailableTorchLevel
        let _: KeyPath<AVCaptureDevice, Bool> = \AVCaptureDevice.hasTorch
        let _: KeyPath<AVCaptureDevice, Bool> = \AVCaptureDevice.isTorchAvailable
        let _: KeyPath<AVCaptureDevice, Bool> = \AVCaptureDevice.isTorchActive
        let _: KeyPath<AVCaptureDevice, Float> = \AVCaptureDevice.torchLevel
        let _: (AVCaptureDevice) -> (AVCaptureDevice.TorchMode) -> Bool = AVCaptureDevice.isTorchModeSupported(_:)
        let _: ReferenceWritableKeyPath<AVCaptureDevice, AVCaptureDevice.TorchMode> = \AVCaptureDevice.torchMode
        let _: (AVCaptureDevice) -> (Float) throws -> Void = AVCaptureDevice.setTorchModeOn(level:)
        let _: KeyPath<AVCaptureDevice, Bool> = \AVCaptureDevice.hasFlash
        let _: KeyPath<AVCaptureDevice, Bool> = \AVCaptureDevice.isFlashAvailable

        // Zoom.
        let _: ReferenceWritableKeyPath<AVCaptureDevice, CGFloat> = \AVCaptureDevice.videoZoomFactor
        let _: (AVCaptureDevice) -> (CGFloat, Float) -> Void = AVCaptureDevice.ramp(toVideoZoomFactor:withRate:)
        let _: (AVCaptureDevice) -> () -> Void = AVCaptureDevice.cancelVideoZoomRamp
        let _: KeyPath<AVCaptureDevice, Bool> = \AVCaptureDevice.isRampingVideoZoom
        let _: KeyPath<AVCaptureDevice, CGFloat> = \AVCaptureDevice.minAvailableVideoZoomFactor
        let _: KeyPath<AVCaptureDevice, CGFloat> = \AVCaptureDevice.maxAvailableVideoZoomFactor
        let _: KeyPath<AVCaptureDevice, [NSNumber]> = \AVCaptureDevice.virtualDeviceSwitchOverVideoZoomFactors
    }

    /// AVCaptureDevice.Format and AVFrameRateRange.
    @Test func formatsAndFrameRateRanges() {
        let _: KeyPath<AVCaptureDevice.Format, AVMediaType> = \AVCaptureDevice.Format.mediaType
        let _: KeyPath<AVCaptureDevice.Format, CMFormatDescription> = \AVCaptureDevice.Format.formatDescription
        let _: KeyPath<AVCaptureDevice.Format, [AVFrameRateRange]> = \AVCaptureDevice.Format.videoSupportedFrameRateRanges
        let _: KeyPath<AVCaptureDevice.Format, CMTime> = \AVCaptureDevice.Format.minExposureDuration
        let _: KeyPath<AVCaptureDevice.Format, CMTime> = \AVCaptureDevice.Format.maxExposureDuration
        let _: KeyPath<AVCaptureDevice.Format, Float> = \AVCaptureDevice.Format.minISO
        let _: KeyPath<AVCaptureDevice.Format, Float> = \AVCaptureDevice.Format.maxISO
        let _: KeyPath<AVCaptureDevice.Format, CGFloat> = \AVCaptureDevice.Format.videoMaxZoomFactor
        let _: KeyPath<AVCaptureDevice.Format, Float> = \AVCaptureDevice.Format.videoFieldOfView
        let _: KeyPath<AVCaptureDevice.Format, Float> = \AVCaptureDevice.Format.geometricDistortionCorrectedVideoFieldOfView
        let _: KeyPath<AVCaptureDevice.Format, Bool> = \AVCaptureDevice.Format.isVideoHDRSupported
        let _: KeyPath<AVCaptureDevice.Format, Bool> = \AVCaptureDevice.Format.isVideoBinned
        let _: KeyPath<AVCaptureDevice.Format, Bool> = \AVCaptureDevice.Format.isMultiCamSupported
        let _: KeyPath<AVCaptureDevice.Format, [CMVideoDimensions]> = \AVCaptureDevice.Format.supportedMaxPhotoDimensions
        let _: KeyPath<AVCaptureDevice.Format, [AVCaptureDevice.Format]> = \AVCaptureDevice.Format.supportedDepthDataFormats
        let _: (AVCaptureOutput) -> (CGRect) -> CGRect = AVCaptureOutput.metadataOutputRectConverted(fromOutputRect:)
        let _: (AVCaptureOutput) -> (CGRect) -> CGRect = AVCaptureOutput.outputRectConverted(fromMetadataOutputRect:)
        let _: (AVCapturePhoto) -> (any AVCapturePhotoFileDataRepresentationCustomizer) -> Data? =
            AVCapturePhoto.fileDataRepresentation(with:)
        let _: (AVCaptureDevice.Format) -> (AVCaptureVideoStabilizationMode) -> Bool =
            AVCaptureDevice.Format.isVideoStabilizationModeSupported(_:)

        let _: KeyPath<AVFrameRateRange, Float64> = \AVFrameRateRange.minFrameRate
        let _: KeyPath<AVFrameRateRange, Float64> = \AVFrameRateRange.maxFrameRate
        let _: KeyPath<AVFrameRateRange, CMTime> = \AVFrameRateRange.minFrameDuration
        let _: KeyPath<AVFrameRateRange, CMTime> = \AVFrameRateRange.maxFrameDuration
    }

    // MARK: Inputs

    /// AVCaptureInput, AVCaptureInput.Port, AVCaptureDeviceInput, AVCaptureScreenInput.
    @Test func inputs() {
        let _: KeyPath<AVCaptureInput, [AVCaptureInput.Port]> = \AVCaptureInput.ports
        let _: KeyPath<AVCaptureInput.Port, AVCaptureInput> = \AVCaptureInput.Port.input
        let _: KeyPath<AVCaptureInput.Port, AVMediaType> = \AVCaptureInput.Port.mediaType
        let _: KeyPath<AVCaptureInput.Port, CMFormatDescription?> = \AVCaptureInput.Port.formatDescription
        let _: ReferenceWritableKeyPath<AVCaptureInput.Port, Bool> = \AVCaptureInput.Port.isEnabled
        let _: KeyPath<AVCaptureInput.Port, CMClock?> = \AVCaptureInput.Port.clock
        let _: KeyPath<AVCaptureInput.Port, AVCaptureDevice.DeviceType?> = \AVCaptureInput.Port.sourceDeviceType
        let _: KeyPath<AVCaptureInput.Port, AVCaptureDevice.Position> = \AVCaptureInput.Port.sourceDevicePosition

        let _: (AVCaptureDevice) throws -> AVCaptureDeviceInput = AVCaptureDeviceInput.init(device:)
        let _: KeyPath<AVCaptureDeviceInput, AVCaptureDevice> = \AVCaptureDeviceInput.device
        let _: (AVCaptureDeviceInput) -> (AVMediaType?, AVCaptureDevice.DeviceType?, AVCaptureDevice.Position) -> [AVCaptureInput.Port] =
            AVCaptureDeviceInput.ports(for:sourceDeviceType:sourceDevicePosition:)

        let _: (CGDirectDisplayID) -> AVCaptureScreenInput? = AVCaptureScreenInput.init(displayID:)
        let _: ReferenceWritableKeyPath<AVCaptureScreenInput, CGRect> = \AVCaptureScreenInput.cropRect
        let _: ReferenceWritableKeyPath<AVCaptureScreenInput, CMTime> = \AVCaptureScreenInput.minFrameDuration
        let _: ReferenceWritableKeyPath<AVCaptureScreenInput, CGFloat> = \AVCaptureScreenInput.scaleFactor
        let _: ReferenceWritableKeyPath<AVCaptureScreenInput, Bool> = \AVCaptureScreenInput.capturesCursor
        let _: ReferenceWritableKeyPath<AVCaptureScreenInput, Bool> = \AVCaptureScreenInput.capturesMouseClicks
    }

    // MARK: Outputs

    /// A delegate implementing nothing: Apple's delegate methods are optional.
    final class EmptyDelegate: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, AVCaptureAudioDataOutputSampleBufferDelegate {}

    /// AVCaptureOutput, AVCaptureVideoDataOutput, AVCaptureAudioDataOutput and their delegates.
    @Test func dataOutputs() {
        let _: KeyPath<AVCaptureOutput, [AVCaptureConnection]> = \AVCaptureOutput.connections
        let _: (AVCaptureOutput) -> (AVMediaType) -> AVCaptureConnection? = AVCaptureOutput.connection(with:)

        let video = AVCaptureVideoDataOutput()
        let _: () -> AVCaptureVideoDataOutput = AVCaptureVideoDataOutput.init
        let _: KeyPath<AVCaptureVideoDataOutput, [OSType]> = \AVCaptureVideoDataOutput.availableVideoPixelFormatTypes
        let _: KeyPath<AVCaptureVideoDataOutput, [AVVideoCodecType]> = \AVCaptureVideoDataOutput.availableVideoCodecTypes
        let _: ReferenceWritableKeyPath<AVCaptureVideoDataOutput, [String: Any]?> = \AVCaptureVideoDataOutput.videoSettings
        video.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        video.videoSettings = nil
        let _: ReferenceWritableKeyPath<AVCaptureVideoDataOutput, Bool> = \AVCaptureVideoDataOutput.alwaysDiscardsLateVideoFrames
        #expect(video.alwaysDiscardsLateVideoFrames)
        let _: (AVCaptureVideoDataOutput) -> (AVFileType) -> [String: Any]? =
            AVCaptureVideoDataOutput.recommendedVideoSettingsForAssetWriter(writingTo:)
        let _: (AVCaptureVideoDataOutput) -> (AVFileType) -> [AVVideoCodecType] =
            AVCaptureVideoDataOutput.availableVideoCodecTypesForAssetWriter(writingTo:)
        let _: (AVCaptureVideoDataOutput) -> (AVVideoCodecType, AVFileType) -> [String: Any]? =
            AVCaptureVideoDataOutput.recommendedVideoSettings(forVideoCodecType:assetWriterOutputFileType:)
        let _: (AVCaptureVideoDataOutput) -> (AVVideoCodecType, AVFileType, URL?) -> [String: Any]? =
            AVCaptureVideoDataOutput.recommendedVideoSettings(forVideoCodecType:assetWriterOutputFileType:outputFileURL:)
        let _: KeyPath<AVCaptureVideoDataOutput, (any AVCaptureVideoDataOutputSampleBufferDelegate)?> =
            \AVCaptureVideoDataOutput.sampleBufferDelegate
        let _: KeyPath<AVCaptureVideoDataOutput, DispatchQueue?> = \AVCaptureVideoDataOutput.sampleBufferCallbackQueue
        let delegate = EmptyDelegate()
        video.setSampleBufferDelegate(delegate, queue: DispatchQueue(label: "video"))
        video.setSampleBufferDelegate(nil, queue: nil)

        let audio = AVCaptureAudioDataOutput()
        let _: () -> AVCaptureAudioDataOutput = AVCaptureAudioDataOutput.init
        let _: (AVCaptureAudioDataOutput) -> (AVFileType) -> [String: Any]? =
            AVCaptureAudioDataOutput.recommendedAudioSettingsForAssetWriter(writingTo:)
        let _: KeyPath<AVCaptureAudioDataOutput, (any AVCaptureAudioDataOutputSampleBufferDelegate)?> =
            \AVCaptureAudioDataOutput.sampleBufferDelegate
        let _: KeyPath<AVCaptureAudioDataOutput, DispatchQueue?> = \AVCaptureAudioDataOutput.sampleBufferCallbackQueue
        audio.setSampleBufferDelegate(delegate, queue: DispatchQueue(label: "audio"))
        #expect(audio.sampleBufferDelegate === delegate)
        audio.setSampleBufferDelegate(nil, queue: nil)

        // The delegate methods, called as an output calls them.
        let _: (any AVCaptureVideoDataOutputSampleBufferDelegate, AVCaptureOutput, CMSampleBuffer, AVCaptureConnection) -> Void = {
            $0.captureOutput($1, didOutput: $2, from: $3)
            $0.captureOutput($1, didDrop: $2, from: $3)
        }
        let _: (any AVCaptureAudioDataOutputSampleBufferDelegate, AVCaptureOutput, CMSampleBuffer, AVCaptureConnection) -> Void = {
            $0.captureOutput($1, didOutput: $2, from: $3)
        }
    }

    /// A metadata delegate implementing nothing: Apple's delegate method is optional.
    final class EmptyMetadataDelegate: NSObject, AVCaptureMetadataOutputObjectsDelegate {}

    /// AVCaptureMetadataOutput and its delegate, AVMetadataObject, AVMetadataMachineReadableCodeObject,
    /// AVMetadataObject.ObjectType: https://developer.apple.com/documentation/avfoundation/avcapturemetadataoutput
    @Test func metadataOutput() {
        let output = AVCaptureMetadataOutput()
        let _: () -> AVCaptureMetadataOutput = AVCaptureMetadataOutput.init
        let _: KeyPath<AVCaptureMetadataOutput, [AVMetadataObject.ObjectType]> = \AVCaptureMetadataOutput.availableMetadataObjectTypes
        let _: ReferenceWritableKeyPath<AVCaptureMetadataOutput, [AVMetadataObject.ObjectType]?> = \AVCaptureMetadataOutput.metadataObjectTypes
        let _: ReferenceWritableKeyPath<AVCaptureMetadataOutput, CGRect> = \AVCaptureMetadataOutput.rectOfInterest
        let _: KeyPath<AVCaptureMetadataOutput, (any AVCaptureMetadataOutputObjectsDelegate)?> = \AVCaptureMetadataOutput.metadataObjectsDelegate
        let _: KeyPath<AVCaptureMetadataOutput, DispatchQueue?> = \AVCaptureMetadataOutput.metadataObjectsCallbackQueue
        let delegate = EmptyMetadataDelegate()
        output.setMetadataObjectsDelegate(delegate, queue: DispatchQueue(label: "metadata"))
        #expect(output.metadataObjectsDelegate === delegate)
        output.setMetadataObjectsDelegate(nil, queue: nil)
        #expect(output.availableMetadataObjectTypes.isEmpty && output.metadataObjectTypes.isEmpty)
        #expect(output.rectOfInterest == CGRect(x: 0, y: 0, width: 1, height: 1))
        let _: (any AVCaptureMetadataOutputObjectsDelegate, AVCaptureMetadataOutput, [AVMetadataObject], AVCaptureConnection) -> Void = {
            $0.metadataOutput($1, didOutput: $2, from: $3)
        }

        let _: KeyPath<AVMetadataObject, AVMetadataObject.ObjectType> = \AVMetadataObject.type
        let _: KeyPath<AVMetadataObject, CMTime> = \AVMetadataObject.time
        let _: KeyPath<AVMetadataObject, CMTime> = \AVMetadataObject.duration
        let _: KeyPath<AVMetadataObject, CGRect> = \AVMetadataObject.bounds
        let _: KeyPath<AVMetadataMachineReadableCodeObject, [CGPoint]> = \AVMetadataMachineReadableCodeObject.corners
        let _: KeyPath<AVMetadataMachineReadableCodeObject, String?> = \AVMetadataMachineReadableCodeObject.stringValue
        let types: [AVMetadataObject.ObjectType] = [.face, .qr, .microQR, .aztec, .dataMatrix, .pdf417, .microPDF417, .code39, .code39Mod43,
                                                    .code93, .code128, .ean8, .ean13, .upce, .interleaved2of5, .itf14, .codabar,
                                                    .gs1DataBar, .gs1DataBarExpanded, .gs1DataBarLimited]
        #expect(types.map(\.rawValue) == ["face", "org.iso.QRCode", "org.iso.MicroQR", "org.iso.Aztec", "org.iso.DataMatrix",
                                           "org.iso.PDF417", "org.iso.MicroPDF417", "org.iso.Code39", "org.iso.Code39Mod43",
                                           "com.intermec.Code93", "org.iso.Code128", "org.gs1.EAN-8", "org.gs1.EAN-13", "org.gs1.UPC-E",
                                           "org.ansi.Interleaved2of5", "org.gs1.ITF14", "Codabar", "org.gs1.GS1DataBar",
                                           "org.gs1.GS1DataBarExpanded", "org.gs1.GS1DataBarLimited"])
    }

    /// AVCaptureVideoPreviewLayer: https://developer.apple.com/documentation/avfoundation/avcapturevideopreviewlayer
    @Test func previewLayer() {
        let session = AVCaptureSession()
        let layer = AVCaptureVideoPreviewLayer(session: session)
        #expect(layer.session === session && !layer.isPreviewing)
        let _: (AVCaptureSession) -> AVCaptureVideoPreviewLayer = AVCaptureVideoPreviewLayer.init(session:)
        let _: (AVCaptureSession) -> AVCaptureVideoPreviewLayer = AVCaptureVideoPreviewLayer.init(sessionWithNoConnection:)
        let _: () -> AVCaptureVideoPreviewLayer = AVCaptureVideoPreviewLayer.init
        let _: ReferenceWritableKeyPath<AVCaptureVideoPreviewLayer, AVCaptureSession?> = \AVCaptureVideoPreviewLayer.session
        let _: (AVCaptureVideoPreviewLayer) -> (AVCaptureSession) -> Void = AVCaptureVideoPreviewLayer.setSessionWithNoConnection(_:)
        let _: KeyPath<AVCaptureVideoPreviewLayer, AVCaptureConnection?> = \AVCaptureVideoPreviewLayer.connection
        let _: ReferenceWritableKeyPath<AVCaptureVideoPreviewLayer, AVLayerVideoGravity> = \AVCaptureVideoPreviewLayer.videoGravity
        let _: KeyPath<AVCaptureVideoPreviewLayer, Bool> = \AVCaptureVideoPreviewLayer.isPreviewing
        let _: (AVCaptureVideoPreviewLayer) -> (CGPoint) -> CGPoint = AVCaptureVideoPreviewLayer.captureDevicePointConverted(fromLayerPoint:)
        let _: (AVCaptureVideoPreviewLayer) -> (CGPoint) -> CGPoint = AVCaptureVideoPreviewLayer.layerPointConverted(fromCaptureDevicePoint:)
        let _: (AVCaptureVideoPreviewLayer) -> (CGRect) -> CGRect = AVCaptureVideoPreviewLayer.metadataOutputRectConverted(fromLayerRect:)
        let _: (AVCaptureVideoPreviewLayer) -> (CGRect) -> CGRect = AVCaptureVideoPreviewLayer.layerRectConverted(fromMetadataOutputRect:)
        let _: (AVCaptureVideoPreviewLayer) -> (AVMetadataObject) -> AVMetadataObject? = AVCaptureVideoPreviewLayer.transformedMetadataObject(for:)
        // Apple's class is open: apps subclass it (a preview view's layer class).
        final class PreviewLayer: AVCaptureVideoPreviewLayer {}
        #expect(PreviewLayer().session == nil)
    }

    // MARK: Deprecated spellings

    /// Deprecated spellings Apple's current SDK still compiles, as older code writes them.
    /// Compiled, not run: referencing them from a test would warn.
    @available(*, deprecated, message: "references Apple's deprecated capture spellings")
    static func deprecatedSpellings() {
        let _: () -> [AVCaptureDevice] = AVCaptureDevice.devices
        let _: (AVMediaType) -> [AVCaptureDevice] = AVCaptureDevice.devices(for:)
        let _: KeyPath<AVCaptureSession, CMClock?> = \AVCaptureSession.masterClock
        let _: ReferenceWritableKeyPath<AVCaptureVideoDataOutput, CMTime> = \AVCaptureVideoDataOutput.minFrameDuration
        let _: KeyPath<AVCaptureDevice.Format, CMVideoDimensions> = \AVCaptureDevice.Format.highResolutionStillImageDimensions
        let _: [AVCaptureDevice.DeviceType] = [.externalUnknown, .builtInMicrophone]
        let _: ReferenceWritableKeyPath<AVCaptureDevice, AVCaptureDevice.FlashMode> = \AVCaptureDevice.flashMode
        let _: (AVCaptureDevice) -> (AVCaptureDevice.FlashMode) -> Bool = AVCaptureDevice.isFlashModeSupported(_:)
        let _: KeyPath<AVCaptureDevice, Bool> = \AVCaptureDevice.isFlashActive
        let _: ReferenceWritableKeyPath<AVCaptureScreenInput, Bool> = \AVCaptureScreenInput.removesDuplicateFrames
        let _: [NSNotification.Name] = [.AVCaptureDeviceWasConnected, .AVCaptureDeviceWasDisconnected,
                                        .AVCaptureDeviceSubjectAreaDidChange]
    }
}
