import Foundation

extension AVError {
    /// An enumeration that defines the errors that framework operations can generate, with Apple's raw values.
    /// Differs from Apple: cases whose raw value could not be confirmed are absent
    /// (`-11888`, `-11889`, `externalSyncDeviceFrequencyHigherThanSpecified`); every case exists on every platform.
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        /// An unknown error occurred.
        case unknown = -11800
        /// The operation couldn't be completed because there isn't enough memory.
        case outOfMemory = -11801
        /// Recording couldn't start because the capture session isn't running.
        case sessionNotRunning = -11803
        /// The device is already in use by another capture session.
        case deviceAlreadyUsedByAnotherSession = -11804
        /// Recording failed because the capture session received no data.
        case noDataCaptured = -11805
        /// Recording stopped because the capture session configuration changed.
        case sessionConfigurationChanged = -11806
        /// Recording stopped because the disk is full.
        case diskFull = -11807
        /// Recording stopped because the device was disconnected.
        case deviceWasDisconnected = -11808
        /// Recording stopped because the format of the source media changed.
        case mediaChanged = -11809
        /// Recording stopped because it reached the maximum duration.
        case maximumDurationReached = -11810
        /// Recording stopped because it reached the maximum file size.
        case maximumFileSizeReached = -11811
        /// Recording stopped because of a discontinuity in the captured media.
        case mediaDiscontinuity = -11812
        /// Recording stopped because the file format's maximum number of samples was reached.
        case maximumNumberOfSamplesForFileFormatReached = -11813
        /// The device isn't connected.
        case deviceNotConnected = -11814
        /// The device is in use by another application.
        case deviceInUseByAnotherApplication = -11815
        /// Another process holds the device's configuration lock.
        case deviceLockedForConfigurationByAnotherProcess = -11817
        /// Recording stopped because the capture session was interrupted.
        case sessionWasInterrupted = -11818
        /// The operation stopped because the media services became unavailable.
        case mediaServicesWereReset = -11819
        /// The export failed.
        case exportFailed = -11820
        /// The media couldn't be decoded.
        case decodeFailed = -11821
        /// The source media is invalid.
        case invalidSourceMedia = -11822
        /// The output file already exists.
        case fileAlreadyExists = -11823
        /// The composition track segments aren't contiguous.
        case compositionTrackSegmentsNotContiguous = -11824
        /// A composition track segment has an invalid duration.
        case invalidCompositionTrackSegmentDuration = -11825
        /// A composition track segment has an invalid source start time.
        case invalidCompositionTrackSegmentSourceStartTime = -11826
        /// A composition track segment has an invalid source duration.
        case invalidCompositionTrackSegmentSourceDuration = -11827
        /// The system can't open the file because it's in an unrecognized format.
        case fileFormatNotRecognized = -11828
        /// The file is corrupt or in an unrecognized format.
        case fileFailedToParse = -11829
        /// Too many still image capture requests are pending.
        case maximumStillImageCaptureRequestsExceeded = -11830
        /// The app isn't authorized to open protected content.
        case contentIsProtected = -11831
        /// There is no image at the requested time.
        case noImageAtTime = -11832
        /// No decoder is available for the media.
        case decoderNotFound = -11833
        /// No encoder is available for the requested output.
        case encoderNotFound = -11834
        /// The user isn't authorized to play the content.
        case contentIsNotAuthorized = -11835
        /// The app isn't authorized to play media.
        case applicationIsNotAuthorized = -11836
        /// The device isn't available while the app runs in the background.
        case deviceIsNotAvailableInBackground = -11837
        /// The operation isn't supported for the asset.
        case operationNotSupportedForAsset = -11838
        /// The decoder is temporarily unavailable.
        case decoderTemporarilyUnavailable = -11839
        /// The encoder is temporarily unavailable.
        case encoderTemporarilyUnavailable = -11840
        /// The video composition is invalid.
        case invalidVideoComposition = -11841
        /// The asset reference policy forbids following a reference.
        case referenceForbiddenByReferencePolicy = -11842
        /// The output URL's path extension doesn't match the file type.
        case invalidOutputURLPathExtension = -11843
        /// Screen capture failed.
        case screenCaptureFailed = -11844
        /// Screen capture stopped because the display was disabled.
        case displayWasDisabled = -11845
        /// The torch level is unavailable.
        case torchLevelUnavailable = -11846
        /// The operation was interrupted.
        case operationInterrupted = -11847
        /// The asset is incompatible with the operation.
        case incompatibleAsset = -11848
        /// The media data couldn't be loaded.
        case failedToLoadMediaData = -11849
        /// The media server is incorrectly configured.
        case serverIncorrectlyConfigured = -11850
        /// The app isn't authorized to use the device.
        case applicationIsNotAuthorizedToUseDevice = -11852
        /// The data couldn't be parsed.
        case failedToParse = -11853
        /// The file type doesn't support sample references.
        case fileTypeDoesNotSupportSampleReferences = -11854
        /// The media data is corrupt and can't be decoded.
        case undecodableMediaData = -11855
        /// The AirPlay controller requires an internet connection to function.
        case airPlayControllerRequiresInternet = -11856
        /// The AirPlay receiver requires an internet connection to function.
        case airPlayReceiverRequiresInternet = -11857
        /// The video compositor failed.
        case videoCompositorFailed = -11858
        /// A recording is already in progress.
        case recordingAlreadyInProgress = -11859
        /// The app couldn't create a content key request.
        case createContentKeyRequestFailed = -11860
        /// The output settings aren't supported.
        case unsupportedOutputSettings = -11861
        /// The operation isn't allowed.
        case operationNotAllowed = -11862
        /// The content is unavailable.
        case contentIsUnavailable = -11863
        /// The current asset format isn't supported.
        case formatUnsupported = -11864
        /// The depth data is malformed.
        case malformedDepth = -11865
        /// The content wasn't updated.
        case contentNotUpdated = -11866
        /// The item is no longer playable.
        case noLongerPlayable = -11867
        /// No alternate of the content is compatible with the external display.
        case noCompatibleAlternatesForExternalDisplay = -11868
        /// The source track is missing.
        case noSourceTrack = -11869
        /// External playback isn't supported for the asset.
        case externalPlaybackNotSupportedForAsset = -11870
        /// The operation isn't supported for the preset.
        case operationNotSupportedForPreset = -11871
        /// The capture session's hardware cost exceeds what the hardware supports.
        case sessionHardwareCostOverage = -11872
        /// The device's active format isn't supported for the operation.
        case unsupportedDeviceActiveFormat = -11873
        /// The object is incorrectly configured.
        case incorrectlyConfigured = -11875
        /// A segment started with a sample that isn't a sync sample.
        case segmentStartedWithNonSyncSample = -11876
        /// The operation requires Rosetta, which isn't installed.
        case rosettaNotInstalled = -11877
        /// The operation was canceled.
        case operationCancelled = -11878
        /// The app canceled a request to retrieve a content key.
        case contentKeyRequestCancelled = -11879
        /// The sample cursor is invalid.
        case invalidSampleCursor = -11880
        /// The sample data couldn't be loaded.
        case failedToLoadSampleData = -11881
        /// An AirPlay receiver is temporarily unavailable.
        case airPlayReceiverTemporarilyUnavailable = -11882
        /// The media couldn't be encoded.
        case encodeFailed = -11883
        /// The system denied issuing the sandbox extension.
        case sandboxExtensionDenied = -11884
        /// Tone mapping failed.
        case toneMappingFailed = -11885
        /// The media extension needed for the operation is disabled.
        case mediaExtensionDisabled = -11886
        /// Two media extensions conflict.
        case mediaExtensionConflict = -11887
        /// No smart framings are enabled.
        case noSmartFramingsEnabled = -11890
        /// Automatic white balance isn't locked.
        case autoWhiteBalanceNotLocked = -11891
        /// Following the external sync device timed out.
        case followExternalSyncDeviceTimedOut = -11892
    }
}

// MARK: - Static shortcuts, as on Apple's error structs (`AVError.diskFull`)

extension AVError {
    /// An unknown error occurred.
    public static var unknown: AVError.Code { .unknown }
    /// The operation couldn't be completed because there isn't enough memory.
    public static var outOfMemory: AVError.Code { .outOfMemory }
    /// Recording couldn't start because the capture session isn't running.
    public static var sessionNotRunning: AVError.Code { .sessionNotRunning }
    /// The device is already in use by another capture session.
    public static var deviceAlreadyUsedByAnotherSession: AVError.Code { .deviceAlreadyUsedByAnotherSession }
    /// Recording failed because the capture session received no data.
    public static var noDataCaptured: AVError.Code { .noDataCaptured }
    /// Recording stopped because the capture session configuration changed.
    public static var sessionConfigurationChanged: AVError.Code { .sessionConfigurationChanged }
    /// Recording stopped because the disk is full.
    public static var diskFull: AVError.Code { .diskFull }
    /// Recording stopped because the device was disconnected.
    public static var deviceWasDisconnected: AVError.Code { .deviceWasDisconnected }
    /// Recording stopped because the format of the source media changed.
    public static var mediaChanged: AVError.Code { .mediaChanged }
    /// Recording stopped because it reached the maximum duration.
    public static var maximumDurationReached: AVError.Code { .maximumDurationReached }
    /// Recording stopped because it reached the maximum file size.
    public static var maximumFileSizeReached: AVError.Code { .maximumFileSizeReached }
    /// Recording stopped because of a discontinuity in the captured media.
    public static var mediaDiscontinuity: AVError.Code { .mediaDiscontinuity }
    /// Recording stopped because the file format's maximum number of samples was reached.
    public static var maximumNumberOfSamplesForFileFormatReached: AVError.Code { .maximumNumberOfSamplesForFileFormatReached }
    /// The device isn't connected.
    public static var deviceNotConnected: AVError.Code { .deviceNotConnected }
    /// The device is in use by another application.
    public static var deviceInUseByAnotherApplication: AVError.Code { .deviceInUseByAnotherApplication }
    /// Another process holds the device's configuration lock.
    public static var deviceLockedForConfigurationByAnotherProcess: AVError.Code { .deviceLockedForConfigurationByAnotherProcess }
    /// Recording stopped because the capture session was interrupted.
    public static var sessionWasInterrupted: AVError.Code { .sessionWasInterrupted }
    /// The operation stopped because the media services became unavailable.
    public static var mediaServicesWereReset: AVError.Code { .mediaServicesWereReset }
    /// The export failed.
    public static var exportFailed: AVError.Code { .exportFailed }
    /// The media couldn't be decoded.
    public static var decodeFailed: AVError.Code { .decodeFailed }
    /// The source media is invalid.
    public static var invalidSourceMedia: AVError.Code { .invalidSourceMedia }
    /// The output file already exists.
    public static var fileAlreadyExists: AVError.Code { .fileAlreadyExists }
    /// The composition track segments aren't contiguous.
    public static var compositionTrackSegmentsNotContiguous: AVError.Code { .compositionTrackSegmentsNotContiguous }
    /// A composition track segment has an invalid duration.
    public static var invalidCompositionTrackSegmentDuration: AVError.Code { .invalidCompositionTrackSegmentDuration }
    /// A composition track segment has an invalid source start time.
    public static var invalidCompositionTrackSegmentSourceStartTime: AVError.Code { .invalidCompositionTrackSegmentSourceStartTime }
    /// A composition track segment has an invalid source duration.
    public static var invalidCompositionTrackSegmentSourceDuration: AVError.Code { .invalidCompositionTrackSegmentSourceDuration }
    /// The system can't open the file because it's in an unrecognized format.
    public static var fileFormatNotRecognized: AVError.Code { .fileFormatNotRecognized }
    /// The file is corrupt or in an unrecognized format.
    public static var fileFailedToParse: AVError.Code { .fileFailedToParse }
    /// Too many still image capture requests are pending.
    public static var maximumStillImageCaptureRequestsExceeded: AVError.Code { .maximumStillImageCaptureRequestsExceeded }
    /// The app isn't authorized to open protected content.
    public static var contentIsProtected: AVError.Code { .contentIsProtected }
    /// There is no image at the requested time.
    public static var noImageAtTime: AVError.Code { .noImageAtTime }
    /// No decoder is available for the media.
    public static var decoderNotFound: AVError.Code { .decoderNotFound }
    /// No encoder is available for the requested output.
    public static var encoderNotFound: AVError.Code { .encoderNotFound }
    /// The user isn't authorized to play the content.
    public static var contentIsNotAuthorized: AVError.Code { .contentIsNotAuthorized }
    /// The app isn't authorized to play media.
    public static var applicationIsNotAuthorized: AVError.Code { .applicationIsNotAuthorized }
    /// The device isn't available while the app runs in the background.
    public static var deviceIsNotAvailableInBackground: AVError.Code { .deviceIsNotAvailableInBackground }
    /// The operation isn't supported for the asset.
    public static var operationNotSupportedForAsset: AVError.Code { .operationNotSupportedForAsset }
    /// The decoder is temporarily unavailable.
    public static var decoderTemporarilyUnavailable: AVError.Code { .decoderTemporarilyUnavailable }
    /// The encoder is temporarily unavailable.
    public static var encoderTemporarilyUnavailable: AVError.Code { .encoderTemporarilyUnavailable }
    /// The video composition is invalid.
    public static var invalidVideoComposition: AVError.Code { .invalidVideoComposition }
    /// The asset reference policy forbids following a reference.
    public static var referenceForbiddenByReferencePolicy: AVError.Code { .referenceForbiddenByReferencePolicy }
    /// The output URL's path extension doesn't match the file type.
    public static var invalidOutputURLPathExtension: AVError.Code { .invalidOutputURLPathExtension }
    /// Screen capture failed.
    public static var screenCaptureFailed: AVError.Code { .screenCaptureFailed }
    /// Screen capture stopped because the display was disabled.
    public static var displayWasDisabled: AVError.Code { .displayWasDisabled }
    /// The torch level is unavailable.
    public static var torchLevelUnavailable: AVError.Code { .torchLevelUnavailable }
    /// The operation was interrupted.
    public static var operationInterrupted: AVError.Code { .operationInterrupted }
    /// The asset is incompatible with the operation.
    public static var incompatibleAsset: AVError.Code { .incompatibleAsset }
    /// The media data couldn't be loaded.
    public static var failedToLoadMediaData: AVError.Code { .failedToLoadMediaData }
    /// The media server is incorrectly configured.
    public static var serverIncorrectlyConfigured: AVError.Code { .serverIncorrectlyConfigured }
    /// The app isn't authorized to use the device.
    public static var applicationIsNotAuthorizedToUseDevice: AVError.Code { .applicationIsNotAuthorizedToUseDevice }
    /// The data couldn't be parsed.
    public static var failedToParse: AVError.Code { .failedToParse }
    /// The file type doesn't support sample references.
    public static var fileTypeDoesNotSupportSampleReferences: AVError.Code { .fileTypeDoesNotSupportSampleReferences }
    /// The media data is corrupt and can't be decoded.
    public static var undecodableMediaData: AVError.Code { .undecodableMediaData }
    /// The AirPlay controller requires an internet connection to function.
    public static var airPlayControllerRequiresInternet: AVError.Code { .airPlayControllerRequiresInternet }
    /// The AirPlay receiver requires an internet connection to function.
    public static var airPlayReceiverRequiresInternet: AVError.Code { .airPlayReceiverRequiresInternet }
    /// The video compositor failed.
    public static var videoCompositorFailed: AVError.Code { .videoCompositorFailed }
    /// A recording is already in progress.
    public static var recordingAlreadyInProgress: AVError.Code { .recordingAlreadyInProgress }
    /// The app couldn't create a content key request.
    public static var createContentKeyRequestFailed: AVError.Code { .createContentKeyRequestFailed }
    /// The output settings aren't supported.
    public static var unsupportedOutputSettings: AVError.Code { .unsupportedOutputSettings }
    /// The operation isn't allowed.
    public static var operationNotAllowed: AVError.Code { .operationNotAllowed }
    /// The content is unavailable.
    public static var contentIsUnavailable: AVError.Code { .contentIsUnavailable }
    /// The current asset format isn't supported.
    public static var formatUnsupported: AVError.Code { .formatUnsupported }
    /// The depth data is malformed.
    public static var malformedDepth: AVError.Code { .malformedDepth }
    /// The content wasn't updated.
    public static var contentNotUpdated: AVError.Code { .contentNotUpdated }
    /// The item is no longer playable.
    public static var noLongerPlayable: AVError.Code { .noLongerPlayable }
    /// No alternate of the content is compatible with the external display.
    public static var noCompatibleAlternatesForExternalDisplay: AVError.Code { .noCompatibleAlternatesForExternalDisplay }
    /// The source track is missing.
    public static var noSourceTrack: AVError.Code { .noSourceTrack }
    /// External playback isn't supported for the asset.
    public static var externalPlaybackNotSupportedForAsset: AVError.Code { .externalPlaybackNotSupportedForAsset }
    /// The operation isn't supported for the preset.
    public static var operationNotSupportedForPreset: AVError.Code { .operationNotSupportedForPreset }
    /// The capture session's hardware cost exceeds what the hardware supports.
    public static var sessionHardwareCostOverage: AVError.Code { .sessionHardwareCostOverage }
    /// The device's active format isn't supported for the operation.
    public static var unsupportedDeviceActiveFormat: AVError.Code { .unsupportedDeviceActiveFormat }
    /// The object is incorrectly configured.
    public static var incorrectlyConfigured: AVError.Code { .incorrectlyConfigured }
    /// A segment started with a sample that isn't a sync sample.
    public static var segmentStartedWithNonSyncSample: AVError.Code { .segmentStartedWithNonSyncSample }
    /// The operation requires Rosetta, which isn't installed.
    public static var rosettaNotInstalled: AVError.Code { .rosettaNotInstalled }
    /// The operation was canceled.
    public static var operationCancelled: AVError.Code { .operationCancelled }
    /// The app canceled a request to retrieve a content key.
    public static var contentKeyRequestCancelled: AVError.Code { .contentKeyRequestCancelled }
    /// The sample cursor is invalid.
    public static var invalidSampleCursor: AVError.Code { .invalidSampleCursor }
    /// The sample data couldn't be loaded.
    public static var failedToLoadSampleData: AVError.Code { .failedToLoadSampleData }
    /// An AirPlay receiver is temporarily unavailable.
    public static var airPlayReceiverTemporarilyUnavailable: AVError.Code { .airPlayReceiverTemporarilyUnavailable }
    /// The media couldn't be encoded.
    public static var encodeFailed: AVError.Code { .encodeFailed }
    /// The system denied issuing the sandbox extension.
    public static var sandboxExtensionDenied: AVError.Code { .sandboxExtensionDenied }
    /// Tone mapping failed.
    public static var toneMappingFailed: AVError.Code { .toneMappingFailed }
    /// The media extension needed for the operation is disabled.
    public static var mediaExtensionDisabled: AVError.Code { .mediaExtensionDisabled }
    /// Two media extensions conflict.
    public static var mediaExtensionConflict: AVError.Code { .mediaExtensionConflict }
    /// No smart framings are enabled.
    public static var noSmartFramingsEnabled: AVError.Code { .noSmartFramingsEnabled }
    /// Automatic white balance isn't locked.
    public static var autoWhiteBalanceNotLocked: AVError.Code { .autoWhiteBalanceNotLocked }
    /// Following the external sync device timed out.
    public static var followExternalSyncDeviceTimedOut: AVError.Code { .followExternalSyncDeviceTimedOut }
}

// MARK: - Pattern matching (`catch AVError.diskFull`)

extension AVError.Code {
    /// Whether `error` is an AVFoundation error with this code; lets `catch AVError.diskFull` match.
    /// Differs from Apple: declared here instead of coming from Foundation's `_ErrorCodeProtocol`;
    /// it also matches any error that bridges to an `NSError` in `AVFoundationErrorDomain` with this code.
    public static func ~= (match: AVError.Code, error: any Error) -> Bool {
        if let error = error as? AVError { return error.errorCode == match.rawValue }
        let nsError = error as NSError
        return nsError.domain == AVFoundationErrorDomain && nsError.code == match.rawValue
    }
}
