import Testing
import OpenAVFoundation

// The declarations of the capture file and photo outputs, the display layers, errors,
// key-value observing and time boxing, as Apple's SDK spells them. Each typed reference
// breaks the build when a name, a label, an optionality, `throws` or `async` differs from
// Apple's; nothing here touches media or a device.

/// A recording delegate implementing only the required method, as apps often do.
private final class CaptureOutputsDeclarationRecordingDelegate: NSObject, AVCaptureFileOutputRecordingDelegate {
    func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL,
                    from connections: [AVCaptureConnection], error: (any Error)?) {}
}

/// A photo delegate implementing none of the (all optional) methods.
private final class CaptureOutputsDeclarationPhotoDelegate: NSObject, AVCapturePhotoCaptureDelegate {}

/// Apple's declarations of the capture outputs' area, by their exact spelling.
@Suite(.timeLimit(.minutes(10))) struct CaptureOutputsAppleDeclarationTests {
    // https://developer.apple.com/documentation/avfoundation/avcapturefileoutput
    @Test func captureFileOutput() {
        let _: ReferenceWritableKeyPath<AVCaptureFileOutput, CMTime> = \AVCaptureFileOutput.maxRecordedDuration
        let _: ReferenceWritableKeyPath<AVCaptureFileOutput, Int64> = \AVCaptureFileOutput.maxRecordedFileSize
        let _: ReferenceWritableKeyPath<AVCaptureFileOutput, Int64> = \AVCaptureFileOutput.minFreeDiskSpaceLimit
        let _: KeyPath<AVCaptureFileOutput, URL?> = \AVCaptureFileOutput.outputFileURL
        let _: KeyPath<AVCaptureFileOutput, Bool> = \AVCaptureFileOutput.isRecording
        let _: KeyPath<AVCaptureFileOutput, Bool> = \AVCaptureFileOutput.isRecordingPaused
        let _: KeyPath<AVCaptureFileOutput, CMTime> = \AVCaptureFileOutput.recordedDuration
        let _: KeyPath<AVCaptureFileOutput, Int64> = \AVCaptureFileOutput.recordedFileSize
        let _: (AVCaptureFileOutput) -> (URL, any AVCaptureFileOutputRecordingDelegate) -> Void =
            AVCaptureFileOutput.startRecording(to:recordingDelegate:)
        let _: (AVCaptureFileOutput) -> () -> Void = AVCaptureFileOutput.stopRecording
        let _: (AVCaptureFileOutput) -> () -> Void = AVCaptureFileOutput.pauseRecording
        let _: (AVCaptureFileOutput) -> () -> Void = AVCaptureFileOutput.resumeRecording
        // Linux additions.
        let _: KeyPath<AVCaptureFileOutput, Int> = \AVCaptureFileOutput.droppedFrameCount
        let _: KeyPath<AVCaptureFileOutput, Int> = \AVCaptureFileOutput.recordedFrameCount

        let output: AVCaptureFileOutput = AVCaptureMovieFileOutput()
        #expect(output.maxRecordedDuration == .invalid)
        #expect(output.maxRecordedFileSize == 0)
        #expect(output.outputFileURL == nil && !output.isRecording && !output.isRecordingPaused)
    }

    // https://developer.apple.com/documentation/avfoundation/avcapturefileoutputrecordingdelegate
    @Test func captureFileOutputRecordingDelegate() {
        let delegate = CaptureOutputsDeclarationRecordingDelegate()
        let _: any AVCaptureFileOutputRecordingDelegate = delegate
        let _: (AVCaptureFileOutput, URL, [AVCaptureConnection]) -> Void = delegate.fileOutput(_:didStartRecordingTo:from:)
        let _: (AVCaptureFileOutput, URL, CMTime, [AVCaptureConnection]) -> Void =
            delegate.fileOutput(_:didStartRecordingTo:startPTS:from:)
        let _: (AVCaptureFileOutput, URL, [AVCaptureConnection]) -> Void = delegate.fileOutput(_:didPauseRecordingTo:from:)
        let _: (AVCaptureFileOutput, URL, [AVCaptureConnection]) -> Void = delegate.fileOutput(_:didResumeRecordingTo:from:)
        let _: (AVCaptureFileOutput, URL, [AVCaptureConnection], (any Error)?) -> Void =
            delegate.fileOutput(_:willFinishRecordingTo:from:error:)
        let _: (AVCaptureFileOutput, URL, [AVCaptureConnection], (any Error)?) -> Void =
            delegate.fileOutput(_:didFinishRecordingTo:from:error:)
    }

    // https://developer.apple.com/documentation/avfoundation/avcaptureaudiopreviewoutput
    @Test func captureAudioPreviewOutput() {
        let _: () -> AVCaptureAudioPreviewOutput = AVCaptureAudioPreviewOutput.init
        let _: ReferenceWritableKeyPath<AVCaptureAudioPreviewOutput, String?> = \AVCaptureAudioPreviewOutput.outputDeviceUniqueID
        let _: ReferenceWritableKeyPath<AVCaptureAudioPreviewOutput, Float> = \AVCaptureAudioPreviewOutput.volume
        let output: AVCaptureOutput = AVCaptureAudioPreviewOutput()
        #expect(output.connections.isEmpty)
    }

    // https://developer.apple.com/documentation/avfoundation/avcaptureaudiofileoutput
    @Test func captureAudioFileOutput() {
        let _: () -> AVCaptureAudioFileOutput = AVCaptureAudioFileOutput.init
        let _: () -> [AVFileType] = AVCaptureAudioFileOutput.availableOutputFileTypes
        let _: ReferenceWritableKeyPath<AVCaptureAudioFileOutput, [String: Any]?> = \AVCaptureAudioFileOutput.audioSettings
        let _: ReferenceWritableKeyPath<AVCaptureAudioFileOutput, [AVMetadataItem]> = \AVCaptureAudioFileOutput.metadata
        let _: (AVCaptureAudioFileOutput) -> (URL, AVFileType, any AVCaptureFileOutputRecordingDelegate) -> Void =
            AVCaptureAudioFileOutput.startRecording(to:outputFileType:recordingDelegate:)
        let output: AVCaptureFileOutput = AVCaptureAudioFileOutput()
        #expect(output.maxRecordedFileSize == 0 && !output.maxRecordedDuration.isValid)
    }

    // https://developer.apple.com/documentation/avfoundation/avcapturemoviefileoutput
    @Test func captureMovieFileOutput() {
        let _: () -> AVCaptureMovieFileOutput = AVCaptureMovieFileOutput.init
        let _: ReferenceWritableKeyPath<AVCaptureMovieFileOutput, CMTime> = \AVCaptureMovieFileOutput.movieFragmentInterval
        let _: ReferenceWritableKeyPath<AVCaptureMovieFileOutput, [AVMetadataItem]?> = \AVCaptureMovieFileOutput.metadata
        let _: KeyPath<AVCaptureMovieFileOutput, [AVVideoCodecType]> = \AVCaptureMovieFileOutput.availableVideoCodecTypes
        let _: (AVCaptureMovieFileOutput) -> (AVCaptureConnection) -> [String] =
            AVCaptureMovieFileOutput.supportedOutputSettingsKeys(for:)
        let _: (AVCaptureMovieFileOutput) -> (AVCaptureConnection) -> [String: Any] = AVCaptureMovieFileOutput.outputSettings(for:)
        let _: (AVCaptureMovieFileOutput) -> ([String: Any]?, AVCaptureConnection) -> Void =
            AVCaptureMovieFileOutput.setOutputSettings(_:for:)
        let output = AVCaptureMovieFileOutput()
        // Apple: "The default is 10 seconds."
        #expect(output.movieFragmentInterval == CMTime(value: 10, timescale: 1))
        #expect(output.availableVideoCodecTypes.contains(.h264))
    }

    // https://developer.apple.com/documentation/avfoundation/avcapturephotooutput
    @Test func capturePhotoOutput() {
        let _: () -> AVCapturePhotoOutput = AVCapturePhotoOutput.init
        let _: (AVCapturePhotoOutput) -> (AVCapturePhotoSettings, any AVCapturePhotoCaptureDelegate) -> Void =
            AVCapturePhotoOutput.capturePhoto(with:delegate:)
        let _: KeyPath<AVCapturePhotoOutput, [OSType]> = \AVCapturePhotoOutput.availablePhotoPixelFormatTypes
        let _: KeyPath<AVCapturePhotoOutput, [AVVideoCodecType]> = \AVCapturePhotoOutput.availablePhotoCodecTypes
        let _: KeyPath<AVCapturePhotoOutput, [AVFileType]> = \AVCapturePhotoOutput.availablePhotoFileTypes
        let _: (AVCapturePhotoOutput) -> (AVFileType) -> [AVVideoCodecType] = AVCapturePhotoOutput.supportedPhotoCodecTypes(for:)
        let _: (AVCapturePhotoOutput) -> (AVFileType) -> [OSType] = AVCapturePhotoOutput.supportedPhotoPixelFormatTypes(for:)
        let _: KeyPath<AVCapturePhotoOutput, [AVCaptureDevice.FlashMode]> = \AVCapturePhotoOutput.supportedFlashModes
        let _: KeyPath<AVCapturePhotoOutput, [NSNumber]> = \AVCapturePhotoOutput.__supportedFlashModes
        let _: ReferenceWritableKeyPath<AVCapturePhotoOutput, CMVideoDimensions> = \AVCapturePhotoOutput.maxPhotoDimensions
        let _: ReferenceWritableKeyPath<AVCapturePhotoOutput, AVCapturePhotoOutput.QualityPrioritization> =
            \AVCapturePhotoOutput.maxPhotoQualityPrioritization
        let _: ReferenceWritableKeyPath<AVCapturePhotoOutput, AVCapturePhotoSettings?> =
            \AVCapturePhotoOutput.photoSettingsForSceneMonitoring
        let _: KeyPath<AVCapturePhotoOutput, [AVCapturePhotoSettings]> = \AVCapturePhotoOutput.preparedPhotoSettingsArray
        let _: (AVCapturePhotoOutput) -> ([AVCapturePhotoSettings], (@Sendable (Bool, (any Error)?) -> Void)?) -> Void =
            AVCapturePhotoOutput.setPreparedPhotoSettingsArray(_:completionHandler:)
        let _: (AVCapturePhotoOutput) -> ([AVCapturePhotoSettings]) async throws -> Bool =
            AVCapturePhotoOutput.setPreparedPhotoSettingsArray(_:)

        let output = AVCapturePhotoOutput()
        // Apple: empty until the output is connected to a session with a camera; the default
        // prioritization is balanced.
        #expect(output.availablePhotoCodecTypes.isEmpty && output.availablePhotoPixelFormatTypes.isEmpty)
        #expect(output.maxPhotoQualityPrioritization == .balanced)
        output.setPreparedPhotoSettingsArray([])
    }

    @available(*, deprecated)
    @Test func capturePhotoOutputDeprecatedMembers() {
        let _: ReferenceWritableKeyPath<AVCapturePhotoOutput, Bool> = \AVCapturePhotoOutput.isHighResolutionCaptureEnabled
        let _: ReferenceWritableKeyPath<AVCapturePhotoSettings, Bool> = \AVCapturePhotoSettings.isHighResolutionPhotoEnabled
    }

    // https://developer.apple.com/documentation/avfoundation/avcapturephotooutput/qualityprioritization
    @Test func qualityPrioritization() {
        let _: [AVCapturePhotoOutput.QualityPrioritization] = [.speed, .balanced, .quality]
        let _: (Int) -> AVCapturePhotoOutput.QualityPrioritization? = AVCapturePhotoOutput.QualityPrioritization.init(rawValue:)
        #expect(AVCapturePhotoOutput.QualityPrioritization.speed.rawValue == 1)
        #expect(AVCapturePhotoOutput.QualityPrioritization.balanced.rawValue == 2)
        #expect(AVCapturePhotoOutput.QualityPrioritization.quality.rawValue == 3)
    }

    // https://developer.apple.com/documentation/avfoundation/avcapturephotosettings
    @Test func capturePhotoSettings() {
        let _: () -> AVCapturePhotoSettings = AVCapturePhotoSettings.init
        let _: ([String: Any]?) -> AVCapturePhotoSettings = AVCapturePhotoSettings.init(format:)
        let _: (AVCapturePhotoSettings) -> AVCapturePhotoSettings = AVCapturePhotoSettings.init(from:)
        let _: KeyPath<AVCapturePhotoSettings, Int64> = \AVCapturePhotoSettings.uniqueID
        let _: KeyPath<AVCapturePhotoSettings, [String: Any]?> = \AVCapturePhotoSettings.format
        let _: KeyPath<AVCapturePhotoSettings, AVFileType?> = \AVCapturePhotoSettings.processedFileType
        let _: ReferenceWritableKeyPath<AVCapturePhotoSettings, AVCaptureDevice.FlashMode> = \AVCapturePhotoSettings.flashMode
        let _: ReferenceWritableKeyPath<AVCapturePhotoSettings, CMVideoDimensions> = \AVCapturePhotoSettings.maxPhotoDimensions
        let _: ReferenceWritableKeyPath<AVCapturePhotoSettings, AVCapturePhotoOutput.QualityPrioritization> =
            \AVCapturePhotoSettings.photoQualityPrioritization
        let _: ReferenceWritableKeyPath<AVCapturePhotoSettings, [String: Any]> = \AVCapturePhotoSettings.metadata

        let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg])
        settings.photoQualityPrioritization = .speed
        let copy = AVCapturePhotoSettings(from: settings)
        // Apple: flash off and balanced prioritization by default; a copy has a new uniqueID.
        #expect(AVCapturePhotoSettings().flashMode == .off && AVCapturePhotoSettings().photoQualityPrioritization == .balanced)
        #expect(copy.uniqueID != settings.uniqueID && copy.photoQualityPrioritization == .speed)
    }

    // https://developer.apple.com/documentation/avfoundation/avcaptureresolvedphotosettings
    // https://developer.apple.com/documentation/avfoundation/avcapturephoto
    @Test func resolvedPhotoSettingsAndPhoto() {
        let _: KeyPath<AVCaptureResolvedPhotoSettings, Int64> = \AVCaptureResolvedPhotoSettings.uniqueID
        let _: KeyPath<AVCaptureResolvedPhotoSettings, CMVideoDimensions> = \AVCaptureResolvedPhotoSettings.photoDimensions
        let _: KeyPath<AVCaptureResolvedPhotoSettings, CMVideoDimensions> = \AVCaptureResolvedPhotoSettings.rawPhotoDimensions
        let _: KeyPath<AVCaptureResolvedPhotoSettings, CMVideoDimensions> = \AVCaptureResolvedPhotoSettings.previewDimensions
        let _: KeyPath<AVCaptureResolvedPhotoSettings, CMVideoDimensions> =
            \AVCaptureResolvedPhotoSettings.embeddedThumbnailDimensions
        let _: KeyPath<AVCaptureResolvedPhotoSettings, Bool> = \AVCaptureResolvedPhotoSettings.isFlashEnabled
        let _: KeyPath<AVCaptureResolvedPhotoSettings, Int> = \AVCaptureResolvedPhotoSettings.expectedPhotoCount

        let _: KeyPath<AVCapturePhoto, AVCaptureResolvedPhotoSettings> = \AVCapturePhoto.resolvedSettings
        let _: KeyPath<AVCapturePhoto, CMTime> = \AVCapturePhoto.timestamp
        let _: KeyPath<AVCapturePhoto, [String: Any]> = \AVCapturePhoto.metadata
        let _: KeyPath<AVCapturePhoto, Int> = \AVCapturePhoto.photoCount
        let _: KeyPath<AVCapturePhoto, Bool> = \AVCapturePhoto.isRawPhoto
        let _: KeyPath<AVCapturePhoto, CVPixelBuffer?> = \AVCapturePhoto.pixelBuffer
        let _: KeyPath<AVCapturePhoto, CVPixelBuffer?> = \AVCapturePhoto.previewPixelBuffer
        let _: (AVCapturePhoto) -> () -> Data? = AVCapturePhoto.fileDataRepresentation
        let _: (AVCapturePhoto) -> () -> CGImage? = AVCapturePhoto.cgImageRepresentation
        let _: (AVCapturePhoto) -> () -> CGImage? = AVCapturePhoto.previewCGImageRepresentation
    }

    // https://developer.apple.com/documentation/avfoundation/avcapturephotocapturedelegate
    @Test func capturePhotoCaptureDelegate() {
        let delegate = CaptureOutputsDeclarationPhotoDelegate()
        let _: any AVCapturePhotoCaptureDelegate = delegate
        let _: (AVCapturePhotoOutput, AVCaptureResolvedPhotoSettings) -> Void = delegate.photoOutput(_:willBeginCaptureFor:)
        let _: (AVCapturePhotoOutput, AVCaptureResolvedPhotoSettings) -> Void = delegate.photoOutput(_:willCapturePhotoFor:)
        let _: (AVCapturePhotoOutput, AVCaptureResolvedPhotoSettings) -> Void = delegate.photoOutput(_:didCapturePhotoFor:)
        let _: (AVCapturePhotoOutput, AVCapturePhoto, (any Error)?) -> Void = delegate.photoOutput(_:didFinishProcessingPhoto:error:)
        let _: (AVCapturePhotoOutput, AVCaptureResolvedPhotoSettings, (any Error)?) -> Void =
            delegate.photoOutput(_:didFinishCaptureFor:error:)
    }

    // https://developer.apple.com/documentation/avfoundation/avcapturestillimageoutput (deprecated)
    @available(*, deprecated)
    @Test func captureStillImageOutput() {
        let _: () -> AVCaptureStillImageOutput = AVCaptureStillImageOutput.init
        let _: ReferenceWritableKeyPath<AVCaptureStillImageOutput, [String: Any]> = \AVCaptureStillImageOutput.outputSettings
        let _: KeyPath<AVCaptureStillImageOutput, [NSNumber]> = \AVCaptureStillImageOutput.availableImageDataCVPixelFormatTypes
        let _: KeyPath<AVCaptureStillImageOutput, [AVVideoCodecType]> = \AVCaptureStillImageOutput.availableImageDataCodecTypes
        let _: KeyPath<AVCaptureStillImageOutput, Bool> = \AVCaptureStillImageOutput.isCapturingStillImage
        let _: (AVCaptureStillImageOutput) -> (AVCaptureConnection, @escaping (CMSampleBuffer?, (any Error)?) -> Void) -> Void =
            AVCaptureStillImageOutput.captureStillImageAsynchronously(from:completionHandler:)
        let _: (CMSampleBuffer) -> Data? = AVCaptureStillImageOutput.jpegStillImageNSDataRepresentation
        #expect(AVCaptureStillImageOutput().availableImageDataCodecTypes.contains(.jpeg))
    }

    // https://developer.apple.com/documentation/avfoundation/averror-swift.struct
    @Test func errorStructure() {
        let _: (AVError.Code, [String: Any]) -> AVError = AVError.init(_:userInfo:)
        let _: KeyPath<AVError, AVError.Code> = \AVError.code
        let _: KeyPath<AVError, Int> = \AVError.errorCode
        let _: KeyPath<AVError, [String: Any]> = \AVError.errorUserInfo
        let _: KeyPath<AVError, [String: Any]> = \AVError.userInfo
        let _: KeyPath<AVError, AVCaptureDevice?> = \AVError.device
        let _: KeyPath<AVError, CMTime?> = \AVError.time
        let _: KeyPath<AVError, Int64?> = \AVError.fileSize
        let _: KeyPath<AVError, Int?> = \AVError.processID
        let _: KeyPath<AVError, Bool?> = \AVError.recordingSuccessfullyFinished
        let _: KeyPath<AVError, AVMediaType?> = \AVError.mediaType
        let _: KeyPath<AVError, [Int]?> = \AVError.mediaSubtypes
        let _: KeyPath<AVError, CMTime?> = \AVError.presentationTimeStamp
        let _: KeyPath<AVError, CMPersistentTrackID?> = \AVError.persistentTrackID
        let _: KeyPath<AVError, AVFileType?> = \AVError.fileType
        // `catch AVError.diskFull` matches through the code's `~=`.
        #expect(AVError.diskFull ~= (AVError(.diskFull) as any Error) && !(AVError.unknown ~= (AVError(.diskFull) as any Error)))
        #expect(AVError.errorDomain == AVFoundationErrorDomain && AVFoundationErrorDomain == "AVFoundationErrorDomain")

        // Apple stores times boxed in NSValue, media and file types as their strings.
        let time = CMTime(value: 3, timescale: 30)
        let error = AVError(.mediaDiscontinuity, userInfo: [
            AVErrorTimeKey: NSValue(time: time), AVErrorPresentationTimeStampKey: NSValue(time: time),
            AVErrorMediaTypeKey: AVMediaType.video.rawValue, AVErrorFileTypeKey: AVFileType.mov.rawValue,
        ])
        #expect(error.time == time && error.presentationTimeStamp == time)
        #expect(error.mediaType == .video && error.fileType == .mov && error.device == nil)
        let bridged = error as NSError
        #expect(bridged.domain == AVFoundationErrorDomain && bridged.code == -11812)
    }

    // https://developer.apple.com/documentation/avfoundation/averrordevicekey and its neighbours
    @Test func errorUserInfoKeys() {
        let keys: [String: String] = [
            AVErrorDeviceKey: "AVErrorDeviceKey", AVErrorTimeKey: "AVErrorTimeKey", AVErrorFileSizeKey: "AVErrorFileSizeKey",
            AVErrorPIDKey: "AVErrorPIDKey", AVErrorRecordingSuccessfullyFinishedKey: "AVErrorRecordingSuccessfullyFinishedKey",
            AVErrorMediaTypeKey: "AVErrorMediaTypeKey", AVErrorMediaSubTypeKey: "AVErrorMediaSubTypeKey",
            AVErrorPresentationTimeStampKey: "AVErrorPresentationTimeStampKey",
            AVErrorPersistentTrackIDKey: "AVErrorPersistentTrackIDKey", AVErrorFileTypeKey: "AVErrorFileTypeKey",
            AVErrorDiscontinuityFlagsKey: "AVErrorDiscontinuityFlagsKey",
        ]
        for (key, name) in keys { #expect(key == name) }
    }

    // https://developer.apple.com/documentation/avfoundation/averror-swift.struct/code
    @Test func errorCodes() {
        let rawValues: [(AVError.Code, Int)] = [
            (.unknown, -11800), (.outOfMemory, -11801), (.sessionNotRunning, -11803), (.deviceAlreadyUsedByAnotherSession, -11804),
            (.noDataCaptured, -11805), (.sessionConfigurationChanged, -11806), (.diskFull, -11807), (.deviceWasDisconnected, -11808),
            (.mediaChanged, -11809), (.maximumDurationReached, -11810), (.maximumFileSizeReached, -11811), (.mediaDiscontinuity, -11812),
            (.maximumNumberOfSamplesForFileFormatReached, -11813), (.deviceNotConnected, -11814), (.deviceInUseByAnotherApplication, -11815), (.deviceLockedForConfigurationByAnotherProcess, -11817),
            (.sessionWasInterrupted, -11818), (.mediaServicesWereReset, -11819), (.exportFailed, -11820), (.decodeFailed, -11821),
            (.invalidSourceMedia, -11822), (.fileAlreadyExists, -11823), (.compositionTrackSegmentsNotContiguous, -11824), (.invalidCompositionTrackSegmentDuration, -11825),
            (.invalidCompositionTrackSegmentSourceStartTime, -11826), (.invalidCompositionTrackSegmentSourceDuration, -11827), (.fileFormatNotRecognized, -11828), (.fileFailedToParse, -11829),
            (.maximumStillImageCaptureRequestsExceeded, -11830), (.contentIsProtected, -11831), (.noImageAtTime, -11832), (.decoderNotFound, -11833),
            (.encoderNotFound, -11834), (.contentIsNotAuthorized, -11835), (.applicationIsNotAuthorized, -11836), (.deviceIsNotAvailableInBackground, -11837),
            (.operationNotSupportedForAsset, -11838), (.decoderTemporarilyUnavailable, -11839), (.encoderTemporarilyUnavailable, -11840), (.invalidVideoComposition, -11841),
            (.referenceForbiddenByReferencePolicy, -11842), (.invalidOutputURLPathExtension, -11843), (.screenCaptureFailed, -11844), (.displayWasDisabled, -11845),
            (.torchLevelUnavailable, -11846), (.operationInterrupted, -11847), (.incompatibleAsset, -11848), (.failedToLoadMediaData, -11849),
            (.serverIncorrectlyConfigured, -11850), (.applicationIsNotAuthorizedToUseDevice, -11852), (.failedToParse, -11853), (.fileTypeDoesNotSupportSampleReferences, -11854),
            (.undecodableMediaData, -11855), (.airPlayControllerRequiresInternet, -11856), (.airPlayReceiverRequiresInternet, -11857), (.videoCompositorFailed, -11858),
            (.recordingAlreadyInProgress, -11859), (.createContentKeyRequestFailed, -11860), (.unsupportedOutputSettings, -11861), (.operationNotAllowed, -11862),
            (.contentIsUnavailable, -11863), (.formatUnsupported, -11864), (.malformedDepth, -11865), (.contentNotUpdated, -11866),
            (.noLongerPlayable, -11867), (.noCompatibleAlternatesForExternalDisplay, -11868), (.noSourceTrack, -11869), (.externalPlaybackNotSupportedForAsset, -11870),
            (.operationNotSupportedForPreset, -11871), (.sessionHardwareCostOverage, -11872), (.unsupportedDeviceActiveFormat, -11873), (.incorrectlyConfigured, -11875),
            (.segmentStartedWithNonSyncSample, -11876), (.rosettaNotInstalled, -11877), (.operationCancelled, -11878), (.contentKeyRequestCancelled, -11879),
            (.invalidSampleCursor, -11880), (.failedToLoadSampleData, -11881), (.airPlayReceiverTemporarilyUnavailable, -11882), (.encodeFailed, -11883),
            (.sandboxExtensionDenied, -11884), (.toneMappingFailed, -11885), (.mediaExtensionDisabled, -11886), (.mediaExtensionConflict, -11887),
            (.noSmartFramingsEnabled, -11890), (.autoWhiteBalanceNotLocked, -11891), (.followExternalSyncDeviceTimedOut, -11892),
        ]
        for (code, rawValue) in rawValues { #expect(code.rawValue == rawValue) }
        // The static shortcuts of Apple's error struct, as `catch AVError.diskFull` uses them.
        let shortcuts: [AVError.Code] = [
            AVError.unknown, AVError.outOfMemory, AVError.sessionNotRunning,
            AVError.deviceAlreadyUsedByAnotherSession, AVError.noDataCaptured, AVError.sessionConfigurationChanged,
            AVError.diskFull, AVError.deviceWasDisconnected, AVError.mediaChanged,
            AVError.maximumDurationReached, AVError.maximumFileSizeReached, AVError.mediaDiscontinuity,
            AVError.maximumNumberOfSamplesForFileFormatReached, AVError.deviceNotConnected, AVError.deviceInUseByAnotherApplication,
            AVError.deviceLockedForConfigurationByAnotherProcess, AVError.sessionWasInterrupted, AVError.mediaServicesWereReset,
            AVError.exportFailed, AVError.decodeFailed, AVError.invalidSourceMedia,
            AVError.fileAlreadyExists, AVError.compositionTrackSegmentsNotContiguous, AVError.invalidCompositionTrackSegmentDuration,
            AVError.invalidCompositionTrackSegmentSourceStartTime, AVError.invalidCompositionTrackSegmentSourceDuration, AVError.fileFormatNotRecognized,
            AVError.fileFailedToParse, AVError.maximumStillImageCaptureRequestsExceeded, AVError.contentIsProtected,
            AVError.noImageAtTime, AVError.decoderNotFound, AVError.encoderNotFound,
            AVError.contentIsNotAuthorized, AVError.applicationIsNotAuthorized, AVError.deviceIsNotAvailableInBackground,
            AVError.operationNotSupportedForAsset, AVError.decoderTemporarilyUnavailable, AVError.encoderTemporarilyUnavailable,
            AVError.invalidVideoComposition, AVError.referenceForbiddenByReferencePolicy, AVError.invalidOutputURLPathExtension,
            AVError.screenCaptureFailed, AVError.displayWasDisabled, AVError.torchLevelUnavailable,
            AVError.operationInterrupted, AVError.incompatibleAsset, AVError.failedToLoadMediaData,
            AVError.serverIncorrectlyConfigured, AVError.applicationIsNotAuthorizedToUseDevice, AVError.failedToParse,
            AVError.fileTypeDoesNotSupportSampleReferences, AVError.undecodableMediaData, AVError.airPlayControllerRequiresInternet,
            AVError.airPlayReceiverRequiresInternet, AVError.videoCompositorFailed, AVError.recordingAlreadyInProgress,
            AVError.createContentKeyRequestFailed, AVError.unsupportedOutputSettings, AVError.operationNotAllowed,
            AVError.contentIsUnavailable, AVError.formatUnsupported, AVError.malformedDepth,
            AVError.contentNotUpdated, AVError.noLongerPlayable, AVError.noCompatibleAlternatesForExternalDisplay,
            AVError.noSourceTrack, AVError.externalPlaybackNotSupportedForAsset, AVError.operationNotSupportedForPreset,
            AVError.sessionHardwareCostOverage, AVError.unsupportedDeviceActiveFormat, AVError.incorrectlyConfigured,
            AVError.segmentStartedWithNonSyncSample, AVError.rosettaNotInstalled, AVError.operationCancelled,
            AVError.contentKeyRequestCancelled, AVError.invalidSampleCursor, AVError.failedToLoadSampleData,
            AVError.airPlayReceiverTemporarilyUnavailable, AVError.encodeFailed, AVError.sandboxExtensionDenied,
            AVError.toneMappingFailed, AVError.mediaExtensionDisabled, AVError.mediaExtensionConflict,
            AVError.noSmartFramingsEnabled, AVError.autoWhiteBalanceNotLocked, AVError.followExternalSyncDeviceTimedOut,
        ]
        #expect(shortcuts == rawValues.map { $0.0 })
        let _: (Int) -> AVError.Code? = AVError.Code.init(rawValue:)
    }

    // https://developer.apple.com/documentation/foundation/nskeyvalueobservingoptions and friends
    @Test func keyValueObserving() {
        let _: (UInt) -> NSKeyValueObservingOptions = NSKeyValueObservingOptions.init(rawValue:)
        #expect(NSKeyValueObservingOptions.new.rawValue == 0x01 && NSKeyValueObservingOptions.old.rawValue == 0x02)
        #expect(NSKeyValueObservingOptions.initial.rawValue == 0x04 && NSKeyValueObservingOptions.prior.rawValue == 0x08)
        let _: [NSKeyValueChange] = [.setting, .insertion, .removal, .replacement]
        #expect(NSKeyValueChange.setting.rawValue == 1 && NSKeyValueChange.insertion.rawValue == 2)
        #expect(NSKeyValueChange.removal.rawValue == 3 && NSKeyValueChange.replacement.rawValue == 4)
        let _: KeyPath<NSKeyValueObservedChange<Int>, NSKeyValueObservedChange<Int>.Kind> = \NSKeyValueObservedChange<Int>.kind
        let _: KeyPath<NSKeyValueObservedChange<Int>, Int?> = \NSKeyValueObservedChange<Int>.newValue
        let _: KeyPath<NSKeyValueObservedChange<Int>, Int?> = \NSKeyValueObservedChange<Int>.oldValue
        let _: KeyPath<NSKeyValueObservedChange<Int>, IndexSet?> = \NSKeyValueObservedChange<Int>.indexes
        let _: KeyPath<NSKeyValueObservedChange<Int>, Bool> = \NSKeyValueObservedChange<Int>.isPrior
        #expect(NSKeyValueObservedChange<Int>.Kind.self == NSKeyValueChange.self)
        let _: (NSKeyValueObservation) -> () -> Void = NSKeyValueObservation.invalidate
    }

    // https://developer.apple.com/documentation/foundation/nsvalue/init(time:) and NSCoder's AV time coding
    @Test func timeBoxingAndCoding() throws {
        let _: (CMTime) -> NSValue = NSValue.init(time:)
        let _: (CMTimeRange) -> NSValue = NSValue.init(timeRange:)
        let _: (CMTimeMapping) -> NSValue = NSValue.init(timeMapping:)
        let _: KeyPath<NSValue, CMTime> = \NSValue.timeValue
        let _: KeyPath<NSValue, CMTimeRange> = \NSValue.timeRangeValue
        let _: KeyPath<NSValue, CMTimeMapping> = \NSValue.timeMappingValue
        let _: (NSCoder) -> (CMTime, String) -> Void = NSCoder.encode(_:forKey:)
        let _: (NSCoder) -> (CMTimeRange, String) -> Void = NSCoder.encode(_:forKey:)
        let _: (NSCoder) -> (CMTimeMapping, String) -> Void = NSCoder.encode(_:forKey:)
        let _: (NSCoder) -> (String) -> CMTime = NSCoder.decodeTime(forKey:)
        let _: (NSCoder) -> (String) -> CMTimeRange = NSCoder.decodeTimeRange(forKey:)
        let _: (NSCoder) -> (String) -> CMTimeMapping = NSCoder.decodeTimeMapping(forKey:)

        let range = CMTimeRange(start: CMTime(value: 1, timescale: 2), duration: CMTime(value: 3, timescale: 4))
        let mapping = CMTimeMapping(source: range, target: CMTimeRange(start: .zero, duration: range.duration))
        #expect(NSValue(timeRange: range).timeRangeValue == range && NSValue(time: range.start).timeValue == range.start)
        #expect(NSValue(time: range.start).timeRangeValue == .invalid)
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.encode(range.start, forKey: "time")
        archiver.encode(range, forKey: "range")
        archiver.encode(mapping, forKey: "mapping")
        archiver.finishEncoding()
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
        #expect(unarchiver.decodeTime(forKey: "time") == range.start)
        #expect(unarchiver.decodeTimeRange(forKey: "range") == range)
        #expect(unarchiver.decodeTimeMapping(forKey: "mapping").source == mapping.source)
        #expect(unarchiver.decodeTime(forKey: "absent") == .invalid)
    }

    // https://developer.apple.com/documentation/avfoundation/avlayervideogravity and AVMakeRect
    @Test func videoGravityAndMakeRect() {
        let _: (String) -> AVLayerVideoGravity = AVLayerVideoGravity.init(rawValue:)
        #expect(AVLayerVideoGravity.resizeAspect.rawValue == "AVLayerVideoGravityResizeAspect")
        #expect(AVLayerVideoGravity.resizeAspectFill.rawValue == "AVLayerVideoGravityResizeAspectFill")
        #expect(AVLayerVideoGravity.resize.rawValue == "AVLayerVideoGravityResize")
        let _: (CGSize, CGRect) -> CGRect = AVMakeRect(aspectRatio:insideRect:)
        #expect(AVMakeRect(aspectRatio: CGSize(width: 16, height: 9), insideRect: CGRect(x: 0, y: 0, width: 160, height: 160))
                == CGRect(x: 0, y: 35, width: 160, height: 90))
    }

    // https://developer.apple.com/documentation/quartzcore/calayer: the part that holds video layers
    @Test func layerTree() {
        let _: () -> CALayer = CALayer.init
        let _: ReferenceWritableKeyPath<CALayer, CGRect> = \CALayer.frame
        let _: ReferenceWritableKeyPath<CALayer, CGRect> = \CALayer.bounds
        let _: ReferenceWritableKeyPath<CALayer, CGPoint> = \CALayer.position
        let _: ReferenceWritableKeyPath<CALayer, String?> = \CALayer.name
        let _: ReferenceWritableKeyPath<CALayer, Bool> = \CALayer.isHidden
        let _: ReferenceWritableKeyPath<CALayer, [CALayer]?> = \CALayer.sublayers
        let _: KeyPath<CALayer, CALayer?> = \CALayer.superlayer
        let _: (CALayer) -> (CALayer) -> Void = CALayer.addSublayer(_:)
        let _: (CALayer) -> (CALayer, UInt32) -> Void = CALayer.insertSublayer(_:at:)
        let _: (CALayer) -> (CALayer, CALayer?) -> Void = CALayer.insertSublayer(_:below:)
        let _: (CALayer) -> (CALayer, CALayer?) -> Void = CALayer.insertSublayer(_:above:)
        let _: (CALayer) -> (CALayer, CALayer) -> Void = CALayer.replaceSublayer(_:with:)
        let _: (CALayer) -> () -> Void = CALayer.removeFromSuperlayer

        let root = CALayer(), a = CALayer(), b = CALayer(), c = CALayer()
        root.addSublayer(a)
        root.insertSublayer(b, above: a)
        root.insertSublayer(c, below: a)
        #expect(root.sublayers?.map(ObjectIdentifier.init) == [c, a, b].map(ObjectIdentifier.init))
        root.replaceSublayer(a, with: b)
        #expect(root.sublayers?.map(ObjectIdentifier.init) == [c, b].map(ObjectIdentifier.init) && a.superlayer == nil)
        b.frame = CGRect(x: 0, y: 0, width: 20, height: 10)
        b.position = CGPoint(x: 50, y: 50)
        #expect(b.frame == CGRect(x: 40, y: 45, width: 20, height: 10))
        root.sublayers = nil
        #expect(root.sublayers == nil && c.superlayer == nil)
    }

    // https://developer.apple.com/documentation/avfoundation/avplayerlayer
    // https://developer.apple.com/documentation/avfoundation/avcapturevideopreviewlayer
    @Test func videoLayers() {
        let _: (AVPlayer?) -> AVPlayerLayer = AVPlayerLayer.init(player:)
        let _: ReferenceWritableKeyPath<AVPlayerLayer, AVPlayer?> = \AVPlayerLayer.player
        let _: ReferenceWritableKeyPath<AVPlayerLayer, AVLayerVideoGravity> = \AVPlayerLayer.videoGravity
        let _: ReferenceWritableKeyPath<AVPlayerLayer, [String: Any]?> = \AVPlayerLayer.pixelBufferAttributes
        let _: KeyPath<AVPlayerLayer, Bool> = \AVPlayerLayer.isReadyForDisplay
        let _: KeyPath<AVPlayerLayer, CGRect> = \AVPlayerLayer.videoRect
        let _: (AVPlayerLayer) -> () -> CVPixelBuffer? = AVPlayerLayer.displayedPixelBuffer

        let _: (AVCaptureSession) -> AVCaptureVideoPreviewLayer = AVCaptureVideoPreviewLayer.init(session:)
        let _: (AVCaptureSession) -> AVCaptureVideoPreviewLayer = AVCaptureVideoPreviewLayer.init(sessionWithNoConnection:)
        let _: ReferenceWritableKeyPath<AVCaptureVideoPreviewLayer, AVCaptureSession?> = \AVCaptureVideoPreviewLayer.session
        let _: (AVCaptureVideoPreviewLayer) -> (AVCaptureSession) -> Void = AVCaptureVideoPreviewLayer.setSessionWithNoConnection(_:)
        let _: KeyPath<AVCaptureVideoPreviewLayer, AVCaptureConnection?> = \AVCaptureVideoPreviewLayer.connection
        let _: ReferenceWritableKeyPath<AVCaptureVideoPreviewLayer, AVLayerVideoGravity> = \AVCaptureVideoPreviewLayer.videoGravity
        let _: (AVCaptureVideoPreviewLayer) -> (CGPoint) -> CGPoint =
            AVCaptureVideoPreviewLayer.captureDevicePointConverted(fromLayerPoint:)
        let _: (AVCaptureVideoPreviewLayer) -> (CGPoint) -> CGPoint =
            AVCaptureVideoPreviewLayer.layerPointConverted(fromCaptureDevicePoint:)
        let _: (AVCaptureVideoPreviewLayer) -> (CGRect) -> CGRect =
            AVCaptureVideoPreviewLayer.metadataOutputRectConverted(fromLayerRect:)
        let _: (AVCaptureVideoPreviewLayer) -> (CGRect) -> CGRect =
            AVCaptureVideoPreviewLayer.layerRectConverted(fromMetadataOutputRect:)

        // Apple: both layers fit the video with its aspect ratio kept by default.
        #expect(AVPlayerLayer(player: nil).videoGravity == .resizeAspect)
        #expect(AVCaptureVideoPreviewLayer().videoGravity == .resizeAspect)
    }

    /// Linux additions: the window that stands where a view stands on Apple platforms.
    @Test func displayWindowLinuxAddition() {
        let _: (CALayer, String, CGSize) throws -> AVDisplayWindow = AVDisplayWindow.init(layer:title:size:)
        let _: ReferenceWritableKeyPath<AVDisplayWindow, CALayer> = \AVDisplayWindow.layer
        let _: ReferenceWritableKeyPath<AVDisplayWindow, String> = \AVDisplayWindow.title
        let _: KeyPath<AVDisplayWindow, CGSize> = \AVDisplayWindow.size
        let _: ReferenceWritableKeyPath<AVDisplayWindow, Bool> = \AVDisplayWindow.isFullScreen
        let _: KeyPath<AVDisplayWindow, Bool> = \AVDisplayWindow.isClosed
        let _: ReferenceWritableKeyPath<AVDisplayWindow, (() -> Void)?> = \AVDisplayWindow.closeHandler
        let _: ReferenceWritableKeyPath<AVDisplayWindow, ((AVDisplayWindow.Key) -> Void)?> = \AVDisplayWindow.keyHandler
        let _: (AVDisplayWindow) -> () -> Void = AVDisplayWindow.toggleFullScreen
        let _: (AVDisplayWindow) -> () -> Void = AVDisplayWindow.close
        let _: [AVDisplayWindow.Key] = [.character("f"), .leftArrow, .rightArrow, .upArrow, .downArrow, .escape]
    }

    // https://developer.apple.com/documentation/avfoundation/avcapturedataoutputsynchronizer
    @Test func dataOutputSynchronizer() {
        let _: ([AVCaptureOutput]) -> AVCaptureDataOutputSynchronizer = AVCaptureDataOutputSynchronizer.init(dataOutputs:)
        let _: KeyPath<AVCaptureDataOutputSynchronizer, [AVCaptureOutput]> = \AVCaptureDataOutputSynchronizer.dataOutputs
        let _: KeyPath<AVCaptureDataOutputSynchronizer, (any AVCaptureDataOutputSynchronizerDelegate)?> =
            \AVCaptureDataOutputSynchronizer.delegate
        let _: KeyPath<AVCaptureDataOutputSynchronizer, DispatchQueue?> = \AVCaptureDataOutputSynchronizer.delegateCallbackQueue
        let _: (AVCaptureDataOutputSynchronizer) -> ((any AVCaptureDataOutputSynchronizerDelegate)?, DispatchQueue?) -> Void =
            AVCaptureDataOutputSynchronizer.setDelegate(_:queue:)
        let _: KeyPath<AVCaptureSynchronizedDataCollection, Int> = \AVCaptureSynchronizedDataCollection.count
        let _: (AVCaptureSynchronizedDataCollection) -> (AVCaptureOutput) -> AVCaptureSynchronizedData? =
            AVCaptureSynchronizedDataCollection.synchronizedData(for:)
        let _: (AVCaptureSynchronizedDataCollection) -> () -> AVCaptureSynchronizedDataCollection.Iterator =
            AVCaptureSynchronizedDataCollection.makeIterator
        let _: AVCaptureSynchronizedData.Type = AVCaptureSynchronizedDataCollection.Iterator.Element.self
        let _: KeyPath<AVCaptureSynchronizedData, CMTime> = \AVCaptureSynchronizedData.timestamp
        let _: KeyPath<AVCaptureSynchronizedSampleBufferData, CMSampleBuffer> = \AVCaptureSynchronizedSampleBufferData.sampleBuffer
        let _: KeyPath<AVCaptureSynchronizedSampleBufferData, Bool> = \AVCaptureSynchronizedSampleBufferData.sampleBufferWasDropped
        let _: KeyPath<AVCaptureSynchronizedSampleBufferData, AVCaptureOutput.DataDroppedReason> =
            \AVCaptureSynchronizedSampleBufferData.droppedReason
        let _: KeyPath<AVCaptureSynchronizedMetadataObjectData, [AVMetadataObject]> =
            \AVCaptureSynchronizedMetadataObjectData.metadataObjects
        let _: [AVCaptureOutput.DataDroppedReason] = [.none, .lateData, .outOfBuffers, .discontinuity]
        #expect(AVCaptureOutput.DataDroppedReason.discontinuity.rawValue == 3)
    }

    // https://developer.apple.com/documentation/quartzcore/calayer
    @Test func layerColors() {
        let _: ReferenceWritableKeyPath<CALayer, CGColor?> = \CALayer.backgroundColor
        let _: ReferenceWritableKeyPath<CALayer, CGFloat> = \CALayer.borderWidth
        let _: ReferenceWritableKeyPath<CALayer, CGColor?> = \CALayer.borderColor
    }

    /// Linux additions: the devices that play files.
    @Test func fileDevicesLinuxAddition() {
        let _: (URL) throws -> AVCaptureDevice = AVCaptureDevice.fileCamera(playing:)
        let _: (URL) throws -> AVCaptureDevice = AVCaptureDevice.fileMicrophone(playing:)
    }

    // https://developer.apple.com/documentation/objectivec/autoreleasepool(invoking:)
    @Test func autoreleasePoolAndReexportedFrameworks() throws {
        let pool: (() throws -> Int) throws -> Int = autoreleasepool(invoking:)
        #expect(try pool { 7 } == 7)
        // Foundation, CoreMedia and CoreVideo come with the one import.
        let _: URL = URL(fileURLWithPath: "/")
        let _: CMTime = .zero
        let _: OSType = kCVPixelFormatType_32BGRA
    }
}
