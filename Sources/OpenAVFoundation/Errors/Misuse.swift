/// The rules of the API whose breaking is a programmer error, each with the message the process
/// stops with: Apple's AVFoundation raises an Objective-C exception for these; here
/// `Misuse.check(_:_:)` and `Misuse.fail(_:)` stop the process as `precondition` and
/// `preconditionFailure` do, with a message that names the class, the member and the rule.
///
/// Every rule of this module is here, grouped by the class whose rule it is; a bad file, a full
/// disk or an unplugged camera is never one of them (they become an `AVError`).
enum Misuse {
    // MARK: AVCaptureSession

    case sessionPresetNotAccepted
    case commitConfigurationWithoutBegin
    case inputNotAccepted
    case inputWithNoConnectionsNotAccepted
    case outputNotAccepted
    case outputWithNoConnectionsNotAccepted
    case connectionNotAccepted
    case startRunningWhileConfiguring

    // MARK: AVCaptureInput.Port

    case portOfReleasedInput

    // MARK: AVCaptureScreenInput

    case screenMinFrameDurationOutOfRange
    case screenScaleFactorNotPositive

    // MARK: AVCaptureConnection

    case videoOrientationNotSupported
    case videoRotationAngleNotSupported
    case videoMirroringNotSupported
    case videoMirroredWhileAdjustedAutomatically
    case videoScaleAndCropFactorOutOfRange
    case cameraIntrinsicMatrixDeliveryNotSupported

    // MARK: AVCaptureDevice

    /// A property (`property`, its name) set without `lockForConfiguration()`.
    case notLockedForConfiguration(property: String)
    case v4l2ControlNotLockedForConfiguration
    case activeFormatNotOffered
    /// A frame duration property (`property`, its name) set on a device without video.
    case frameDurationWithoutVideo(property: String)
    /// A frame duration property (`property`, its name) set outside the active format's ranges.
    case frameDurationNotSupported(property: String)
    case exposureModeNotSupported
    case exposurePointOfInterestNotSupported
    case customExposureNotSupported
    case exposureDurationOutOfRange
    case isoOutOfRange
    case exposureTargetBiasOutOfRange
    case lowLightBoostNotSupported
    case focusModeNotSupported
    case focusPointOfInterestNotSupported
    case smoothAutoFocusNotSupported
    case lockedLensPositionNotSupported
    case lensPositionOutOfRange
    case torchModeNotSupported
    case frameIndexQRCodeNotSupported
    case torchNotSupported
    case torchLevelOutOfRange
    case flashModeNotSupported
    case whiteBalanceModeNotSupported
    case whiteBalanceGainsNotSupported
    case whiteBalanceGainsOutOfRange
    /// A zoom factor out of range, given to `member` (a property or method name).
    case zoomFactorOutOfRange(member: String)

    // MARK: AVCaptureVideoDataOutput

    /// Video settings the output cannot honour, and why.
    case videoSettingsNotHonoured(any Error)
    case videoSettingsPixelFormatNotAvailable
    case videoDataDelegateWithoutQueue

    // MARK: AVCaptureAudioDataOutput

    case audioDataDelegateWithoutQueue

    // MARK: AVCaptureMetadataOutput

    case metadataDelegateWithoutQueue
    /// A type set in `metadataObjectTypes` that `availableMetadataObjectTypes` does not list.
    case metadataObjectTypeNotAvailable(String)

    // MARK: AVCaptureDataOutputSynchronizer

    /// An output the synchronizer cannot synchronize (not a video, audio or metadata output), by
    /// its type's name.
    case synchronizerOutputNotSupported(String)
    /// No outputs, or one output twice.
    case synchronizerOutputsInvalid
    case synchronizerDelegateWithoutQueue

    // MARK: AVCaptureFileOutput

    case recordingURLNotFileURL
    case fileOutputIsAbstract

    // MARK: AVCaptureMovieFileOutput

    case outputSettingsForAnotherOutputsConnection
    case outputSettingsCodecNotAvailable
    /// Output settings no encoder accepts, and why.
    case outputSettingsNotAccepted(reason: String)

    // MARK: AVCapturePhotoOutput and AVCapturePhotoSettings

    case maxPhotoDimensionsNotSupported
    case capturePhotoWithoutActiveConnection
    case photoSettingsReused
    case photoFlashModeNotSupported
    case photoQualityPrioritizationTooHigh
    case highResolutionPhotoNotEnabled
    case photoDimensionsNotSupported

    // MARK: AVCaptureStillImageOutput

    case stillImageCaptureWithoutActiveConnection
    case jpegRepresentationOfAnotherFormat

    // MARK: The still image outputs' formats

    /// A pixel format the output does not offer, in `owner` (the settings' class and property).
    case stillImagePixelFormatNotAvailable(owner: String)
    /// A codec the output does not offer, in `owner` (the settings' class and property).
    case stillImageCodecNotAvailable(owner: String)

    // MARK: CALayer

    /// A sibling layer given to `method` that is not a sublayer.
    case siblingNotSublayer(method: String)

    // MARK: AVAsynchronousVideoCompositionRequest

    case compositionRequestFinishedTwice

    // MARK: AVMutableCompositionTrack

    case timeRangesAndTracksDiffer

    // MARK: AVError

    /// An `NSError` of another domain (`domain`).
    case errorOfAnotherDomain(domain: String)

    // MARK: AVAssetExportSession

    case stateUpdateIntervalNotPositive

    // MARK: AVPlayer

    case itemOfAnotherPlayer
    case unknownTimeObserver

    // MARK: AVAssetReader

    case readerTimeRangeChangedAfterStart
    case readerOutputAddedAfterStart
    case readerOutputAlreadyAdded
    case readerOutputOfAnotherAsset
    case readerStartedTwice
    case readerStartedWithoutOutputs
    case sampleBufferBeforeReaderStarts

    // MARK: AVAssetReaderOutput

    case readerOutputIsAbstract
    case sampleBufferWithoutReader
    case resetWithoutRandomAccess
    case resetAfterConfigurationFinal
    case resetWithoutReader

    // MARK: AVOutputSettingsAssistant

    case averageFrameDurationNotPositive
    case minFrameDurationNotPositive

    // MARK: AVAssetWriter

    case writerInputAddedAfterStart
    case writerInputAlreadyAdded
    case writerStartedTwice
    case segmentFlushNotAllowed
    case sessionStartedBeforeWriting
    case sessionStartedTwice
    case appendBeforeWriting
    case appendBeforeSession

    // MARK: AVAssetWriterInput

    case inputAppendBeforeWriting
    case inputAppendAfterFinished
    case pixelBufferAppendBeforeWriting
    case pixelBufferAppendAfterFinished
    case trackAssociationNotAccepted
    case passResponderSetTwice
    case passResponderBeforeWriting
    case passFinishedBeforeWriting

    // MARK: AVAssetWriterInputPixelBufferAdaptor

    case adaptorWithoutVideoInput

    /// The message the process stops with: the class and member, and the rule broken.
    var message: String {
        switch self {
        // AVCaptureSession
        case .sessionPresetNotAccepted: "AVCaptureSession.sessionPreset can only be set to a preset canSetSessionPreset(_:) accepts"
        case .commitConfigurationWithoutBegin: "AVCaptureSession.commitConfiguration() without beginConfiguration()"
        case .inputNotAccepted: "AVCaptureSession.addInput(_:) needs canAddInput(_:) to be true"
        case .inputWithNoConnectionsNotAccepted: "AVCaptureSession.addInputWithNoConnections(_:) needs canAddInput(_:) to be true"
        case .outputNotAccepted: "AVCaptureSession.addOutput(_:) needs canAddOutput(_:) to be true"
        case .outputWithNoConnectionsNotAccepted: "AVCaptureSession.addOutputWithNoConnections(_:) needs canAddOutput(_:) to be true"
        case .connectionNotAccepted: "AVCaptureSession.addConnection(_:) needs canAddConnection(_:) to be true"
        case .startRunningWhileConfiguring:
            "AVCaptureSession.startRunning() may not be called between beginConfiguration() and commitConfiguration()"
        // AVCaptureInput.Port
        case .portOfReleasedInput: "AVCaptureInput.Port used after its input was released"
        // AVCaptureScreenInput
        case .screenMinFrameDurationOutOfRange: "AVCaptureScreenInput.minFrameDuration must lie between 1/120 s and 1 s"
        case .screenScaleFactorNotPositive: "AVCaptureScreenInput.scaleFactor must be a positive number"
        // AVCaptureConnection
        case .videoOrientationNotSupported: "AVCaptureConnection.videoOrientation can only be set when isVideoOrientationSupported"
        case .videoRotationAngleNotSupported:
            "AVCaptureConnection.videoRotationAngle must be an angle isVideoRotationAngleSupported(_:) accepts"
        case .videoMirroringNotSupported: "AVCaptureConnection.isVideoMirrored can only be set when isVideoMirroringSupported"
        case .videoMirroredWhileAdjustedAutomatically:
            "AVCaptureConnection.isVideoMirrored cannot be set while automaticallyAdjustsVideoMirroring is true"
        case .videoScaleAndCropFactorOutOfRange: "AVCaptureConnection.videoScaleAndCropFactor must lie from 1 to videoMaxScaleAndCropFactor"
        case .cameraIntrinsicMatrixDeliveryNotSupported:
            "AVCaptureConnection.isCameraIntrinsicMatrixDeliveryEnabled needs isCameraIntrinsicMatrixDeliverySupported"
        // AVCaptureDevice
        case .notLockedForConfiguration(let property): "AVCaptureDevice.\(property) may only be set after lockForConfiguration() succeeded"
        case .v4l2ControlNotLockedForConfiguration:
            "AVCaptureDevice.setValue(_:forV4L2ControlNamed:) may only be called after lockForConfiguration() succeeded"
        case .activeFormatNotOffered: "AVCaptureDevice.activeFormat must be one of the device's formats"
        case .frameDurationWithoutVideo(let property): "AVCaptureDevice.\(property) can only be set on a video device"
        case .frameDurationNotSupported(let property):
            "AVCaptureDevice.\(property) must lie in the active format's videoSupportedFrameRateRanges"
        case .exposureModeNotSupported: "AVCaptureDevice.exposureMode must be a mode isExposureModeSupported(_:) accepts"
        case .exposurePointOfInterestNotSupported:
            "AVCaptureDevice.exposurePointOfInterest can only be set when isExposurePointOfInterestSupported"
        case .customExposureNotSupported: "AVCaptureDevice.setExposureModeCustom needs isExposureModeSupported(.custom)"
        case .exposureDurationOutOfRange: "AVCaptureDevice.setExposureModeCustom: the duration must lie in the active format's exposure durations"
        case .isoOutOfRange: "AVCaptureDevice.setExposureModeCustom: the ISO must lie in the active format's ISOs"
        case .exposureTargetBiasOutOfRange:
            "AVCaptureDevice.setExposureTargetBias(_:completionHandler:) takes a bias from minExposureTargetBias to maxExposureTargetBias"
        case .lowLightBoostNotSupported:
            "AVCaptureDevice.automaticallyEnablesLowLightBoostWhenAvailable can only be set when isLowLightBoostSupported"
        case .focusModeNotSupported: "AVCaptureDevice.focusMode must be a mode isFocusModeSupported(_:) accepts"
        case .focusPointOfInterestNotSupported: "AVCaptureDevice.focusPointOfInterest can only be set when isFocusPointOfInterestSupported"
        case .smoothAutoFocusNotSupported: "AVCaptureDevice.isSmoothAutoFocusEnabled can only be set when isSmoothAutoFocusSupported"
        case .lockedLensPositionNotSupported:
            "AVCaptureDevice.setFocusModeLocked(lensPosition:completionHandler:) needs isLockingFocusWithCustomLensPositionSupported"
        case .lensPositionOutOfRange: "AVCaptureDevice.setFocusModeLocked(lensPosition:completionHandler:) takes a lens position from 0 to 1"
        case .torchModeNotSupported: "AVCaptureDevice.torchMode must be a mode isTorchModeSupported(_:) accepts"
        case .frameIndexQRCodeNotSupported: "AVCaptureDevice.showsFrameIndexQRCode is set on the Test Pattern Camera only"
        case .torchNotSupported: "AVCaptureDevice.setTorchModeOn(level:) needs isTorchModeSupported(.on)"
        case .torchLevelOutOfRange: "AVCaptureDevice.setTorchModeOn(level:) takes a level above 0, up to 1 or maxAvailableTorchLevel"
        case .flashModeNotSupported: "AVCaptureDevice.flashMode must be a mode isFlashModeSupported(_:) accepts"
        case .whiteBalanceModeNotSupported: "AVCaptureDevice.whiteBalanceMode must be a mode isWhiteBalanceModeSupported(_:) accepts"
        case .whiteBalanceGainsNotSupported:
            "AVCaptureDevice.setWhiteBalanceModeLocked(with:completionHandler:) needs isLockingWhiteBalanceWithCustomDeviceGainsSupported"
        case .whiteBalanceGainsOutOfRange:
            "AVCaptureDevice.setWhiteBalanceModeLocked(with:completionHandler:) takes gains from 1 to maxWhiteBalanceGain"
        case .zoomFactorOutOfRange(let member): "AVCaptureDevice.\(member) takes a factor from 1 to the active format's videoMaxZoomFactor"
        // AVCaptureVideoDataOutput
        case .videoSettingsNotHonoured(let error): "AVCaptureVideoDataOutput.videoSettings: \(error)"
        case .videoSettingsPixelFormatNotAvailable:
            "AVCaptureVideoDataOutput.videoSettings: kCVPixelBufferPixelFormatTypeKey must be one of availableVideoPixelFormatTypes"
        case .videoDataDelegateWithoutQueue: "AVCaptureVideoDataOutput.setSampleBufferDelegate(_:queue:) needs a queue with a delegate"
        // AVCaptureAudioDataOutput
        case .audioDataDelegateWithoutQueue: "AVCaptureAudioDataOutput.setSampleBufferDelegate(_:queue:) needs a queue with a delegate"
        case .metadataDelegateWithoutQueue: "AVCaptureMetadataOutput.setMetadataObjectsDelegate(_:queue:) needs a queue with a delegate"
        case .synchronizerOutputNotSupported(let type):
            "AVCaptureDataOutputSynchronizer(dataOutputs:) synchronizes video, audio and metadata outputs, not \(type)"
        case .synchronizerOutputsInvalid:
            "AVCaptureDataOutputSynchronizer(dataOutputs:) needs at least one output, each once"
        case .synchronizerDelegateWithoutQueue:
            "AVCaptureDataOutputSynchronizer.setDelegate(_:queue:) needs a queue with a delegate"
        case .metadataObjectTypeNotAvailable(let type):
            "AVCaptureMetadataOutput.metadataObjectTypes includes \(type), which availableMetadataObjectTypes does not list"
        // AVCaptureFileOutput
        case .recordingURLNotFileURL: "AVCaptureFileOutput.startRecording(to:recordingDelegate:) needs a file URL"
        case .fileOutputIsAbstract: "AVCaptureFileOutput is abstract: use AVCaptureMovieFileOutput"
        // AVCaptureMovieFileOutput
        case .outputSettingsForAnotherOutputsConnection:
            "AVCaptureMovieFileOutput.setOutputSettings(_:for:) needs one of the output's connections"
        case .outputSettingsCodecNotAvailable:
            "AVCaptureMovieFileOutput.setOutputSettings(_:for:): AVVideoCodecKey must be one of availableVideoCodecTypes"
        case .outputSettingsNotAccepted(let reason): "AVCaptureMovieFileOutput.setOutputSettings(_:for:): \(reason)"
        // AVCapturePhotoOutput and AVCapturePhotoSettings
        case .maxPhotoDimensionsNotSupported:
            "AVCapturePhotoOutput.maxPhotoDimensions must be one of the active format's supportedMaxPhotoDimensions"
        case .capturePhotoWithoutActiveConnection:
            "AVCapturePhotoOutput.capturePhoto(with:delegate:) needs an active and enabled video connection"
        case .photoSettingsReused:
            "AVCapturePhotoOutput.capturePhoto(with:delegate:) may not reuse an AVCapturePhotoSettings; make a new one, for example with init(from:)"
        case .photoFlashModeNotSupported: "AVCapturePhotoSettings.flashMode must be one of the photo output's supportedFlashModes"
        case .photoQualityPrioritizationTooHigh:
            "AVCapturePhotoSettings.photoQualityPrioritization may not exceed the photo output's maxPhotoQualityPrioritization"
        case .highResolutionPhotoNotEnabled:
            "AVCapturePhotoSettings.isHighResolutionPhotoEnabled needs the photo output's isHighResolutionCaptureEnabled"
        case .photoDimensionsNotSupported:
            "AVCapturePhotoSettings.maxPhotoDimensions must be one of the active format's supportedMaxPhotoDimensions, no larger than the output's maxPhotoDimensions"
        // AVCaptureStillImageOutput
        case .stillImageCaptureWithoutActiveConnection:
            "AVCaptureStillImageOutput.captureStillImageAsynchronously(from:completionHandler:) needs an active video connection of this output"
        case .jpegRepresentationOfAnotherFormat: "AVCaptureStillImageOutput.jpegStillImageNSDataRepresentation(_:) needs a JPEG sample buffer"
        // The still image outputs' formats
        case .stillImagePixelFormatNotAvailable(let owner):
            "\(owner): kCVPixelBufferPixelFormatTypeKey must be one of the output's available pixel format types"
        case .stillImageCodecNotAvailable(let owner): "\(owner): AVVideoCodecKey must be one of the output's available codec types"
        // CALayer
        case .siblingNotSublayer(let method): "CALayer.\(method): the sibling layer must be a sublayer of this layer"
        // AVAsynchronousVideoCompositionRequest
        case .compositionRequestFinishedTwice: "an AVAsynchronousVideoCompositionRequest can be finished only once"
        // AVMutableCompositionTrack
        case .timeRangesAndTracksDiffer: "insertTimeRanges(_:of:at:) needs one time range per track"
        // AVError
        case .errorOfAnotherDomain(let domain): "AVError(_nsError:) needs an NSError in AVFoundationErrorDomain, got \(domain)"
        // AVAssetExportSession
        case .stateUpdateIntervalNotPositive: "states(updateInterval:) needs a positive interval"
        // AVPlayer
        case .itemOfAnotherPlayer: "AVPlayer.replaceCurrentItem(with:) of an item another player has"
        case .unknownTimeObserver: "AVPlayer.removeTimeObserver(_:) of an object that no add…TimeObserver method returned"
        // AVAssetReader
        case .readerTimeRangeChangedAfterStart: "AVAssetReader.timeRange cannot change after startReading()"
        case .readerOutputAddedAfterStart: "AVAssetReader.add(_:) after startReading()"
        case .readerOutputAlreadyAdded: "AVAssetReader.add(_:) of an output already added"
        case .readerOutputOfAnotherAsset: "AVAssetReader.add(_:) of an output reading another asset's track"
        case .readerStartedTwice: "AVAssetReader.startReading() can be called only once"
        case .readerStartedWithoutOutputs: "AVAssetReader.startReading() needs at least one output"
        case .sampleBufferBeforeReaderStarts: "copyNextSampleBuffer() before AVAssetReader.startReading()"
        // AVAssetReaderOutput
        case .readerOutputIsAbstract: "AVAssetReaderOutput is abstract; use a subclass"
        case .sampleBufferWithoutReader: "copyNextSampleBuffer() needs the output to be added to an AVAssetReader"
        case .resetWithoutRandomAccess: "reset(forReadingTimeRanges:) needs supportsRandomAccess set before startReading()"
        case .resetAfterConfigurationFinal: "reset(forReadingTimeRanges:) after markConfigurationAsFinal()"
        case .resetWithoutReader: "reset(forReadingTimeRanges:) needs the output to be added to an AVAssetReader"
        // AVOutputSettingsAssistant
        case .averageFrameDurationNotPositive: "sourceVideoAverageFrameDuration must be a numeric time greater than zero"
        case .minFrameDurationNotPositive: "sourceVideoMinFrameDuration must be a numeric time greater than zero"
        // AVAssetWriter
        case .writerInputAddedAfterStart: "AVAssetWriter.add(_:) after startWriting()"
        case .writerInputAlreadyAdded: "AVAssetWriter.add(_:) of an input already added"
        case .writerStartedTwice: "AVAssetWriter.startWriting() can be called only once"
        case .segmentFlushNotAllowed:
            "AVAssetWriter.flushSegment() needs a writer of segments whose preferredOutputSegmentInterval is .indefinite"
        case .sessionStartedBeforeWriting: "AVAssetWriter.startSession(atSourceTime:) before startWriting()"
        case .sessionStartedTwice: "AVAssetWriter.startSession(atSourceTime:) can be called only once"
        case .appendBeforeWriting: "appending before AVAssetWriter.startWriting()"
        case .appendBeforeSession: "appending before AVAssetWriter.startSession(atSourceTime:)"
        // AVAssetWriterInput
        case .inputAppendBeforeWriting: "AVAssetWriterInput.append(_:) before AVAssetWriter.startWriting()"
        case .inputAppendAfterFinished: "AVAssetWriterInput.append(_:) after markAsFinished()"
        case .pixelBufferAppendBeforeWriting: "appending a pixel buffer before AVAssetWriter.startWriting()"
        case .pixelBufferAppendAfterFinished: "appending a pixel buffer after markAsFinished()"
        case .trackAssociationNotAccepted:
            "AVAssetWriterInput.addTrackAssociation(withTrackOf:type:) that canAddTrackAssociation(withTrackOf:type:) refuses"
        case .passResponderSetTwice: "AVAssetWriterInput.respondToEachPassDescription(on:using:) can be called only once"
        case .passResponderBeforeWriting: "AVAssetWriterInput.respondToEachPassDescription(on:using:) before AVAssetWriter.startWriting()"
        case .passFinishedBeforeWriting: "AVAssetWriterInput.markCurrentPassAsFinished() before AVAssetWriter.startWriting()"
        // AVAssetWriterInputPixelBufferAdaptor
        case .adaptorWithoutVideoInput: "AVAssetWriterInputPixelBufferAdaptor needs a video input"
        }
    }

    /// Stops the process with `rule`'s message unless `condition` holds, as `precondition` does
    /// (the message names the caller's file and line).
    static func check(_ condition: @autoclosure () -> Bool, _ rule: @autoclosure () -> Misuse,
                      file: StaticString = #file, line: UInt = #line) {
        precondition(condition(), rule().message, file: file, line: line)
    }

    /// Stops the process with `rule`'s message, as `preconditionFailure` does.
    static func fail(_ rule: Misuse, file: StaticString = #file, line: UInt = #line) -> Never {
        preconditionFailure(rule.message, file: file, line: line)
    }
}
