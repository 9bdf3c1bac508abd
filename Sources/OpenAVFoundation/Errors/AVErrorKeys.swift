// The error domain and the user-info keys of AVFoundation errors, with Apple's names and values.

/// The error domain of AVFoundation errors.
public let AVFoundationErrorDomain: String = "AVFoundationErrorDomain"

/// The user information key to retrieve the capture device involved in an error (an
/// `AVCaptureDevice`; `AVError.device` reads it).
public let AVErrorDeviceKey: String = "AVErrorDeviceKey"

/// The user information key to retrieve the time at which an error occurred.
/// Differs from Apple: the value may be a `CMTime` itself as well as an `NSValue` wrapping one.
public let AVErrorTimeKey: String = "AVErrorTimeKey"

/// The user information key to retrieve the file size in bytes.
public let AVErrorFileSizeKey: String = "AVErrorFileSizeKey"

/// The user information key to retrieve the process identifier of the process that holds a device.
public let AVErrorPIDKey: String = "AVErrorPIDKey"

/// The user information key to retrieve a Boolean value that indicates whether recording finished successfully.
public let AVErrorRecordingSuccessfullyFinishedKey: String = "AVErrorRecordingSuccessfullyFinishedKey"

/// The user information key to retrieve the media type.
public let AVErrorMediaTypeKey: String = "AVErrorMediaTypeKey"

/// The user information key to retrieve the media subtypes (an array of integers).
public let AVErrorMediaSubTypeKey: String = "AVErrorMediaSubTypeKey"

/// The user information key to retrieve the presentation timestamp of a sample.
/// Differs from Apple: the value may be a `CMTime` itself as well as an `NSValue` wrapping one.
public let AVErrorPresentationTimeStampKey: String = "AVErrorPresentationTimeStampKey"

/// The user information key to retrieve the persistent track identifier.
public let AVErrorPersistentTrackIDKey: String = "AVErrorPersistentTrackIDKey"

/// The user information key to retrieve the file type.
public let AVErrorFileTypeKey: String = "AVErrorFileTypeKey"

/// The user information key to retrieve discontinuity flags.
/// Differs from Apple: Apple offers it on macOS only; here it is available everywhere.
public let AVErrorDiscontinuityFlagsKey: String = "AVErrorDiscontinuityFlagsKey"
