import Foundation
import OpenCoreMedia

/// A structure that defines the errors that framework operations can generate.
/// Differs from Apple: Linux Foundation has no `_BridgedStoredNSError`, so the bridging to
/// `NSError` goes through `CustomNSError`, and `catch AVError.someCode` is served by
/// `AVError.Code.~=(_:_:)` declared in this module.
public struct AVError: CustomNSError, Hashable, Error, @unchecked Sendable {
    // @unchecked: the only stored property is an immutable NSError, as in Apple's struct.

    /// The `NSError` this error is stored as, in `AVFoundationErrorDomain`.
    public let _nsError: NSError

    /// Wraps an `NSError` of `AVFoundationErrorDomain`.
    public init(_nsError error: NSError) {
        Misuse.check(error.domain == AVFoundationErrorDomain, .errorOfAnotherDomain(domain: error.domain))
        _nsError = error
    }

    /// Creates an error with the given code and user information.
    public init(_ code: AVError.Code, userInfo: [String: Any] = [:]) {
        _nsError = NSError(domain: AVFoundationErrorDomain, code: code.rawValue, userInfo: userInfo)
    }

    /// The domain of the error: `AVFoundationErrorDomain`.
    public static var errorDomain: String { AVFoundationErrorDomain }

    /// The error code.
    /// Differs from Apple: a raw value that no known `Code` has reads as `.unknown` (see `errorCode`).
    public var code: AVError.Code { AVError.Code(rawValue: _nsError.code) ?? .unknown }

    /// The raw error code, as `NSError.code` reports it.
    public var errorCode: Int { _nsError.code }

    /// The user information that goes into the bridged `NSError`.
    public var errorUserInfo: [String: Any] { _nsError.userInfo }

    /// The user information of the error.
    public var userInfo: [String: Any] { _nsError.userInfo }

    /// Whether two errors have the same code and equal user information.
    public static func == (lhs: AVError, rhs: AVError) -> Bool {
        guard lhs._nsError.code == rhs._nsError.code else { return false }
        let left = lhs._nsError.userInfo, right = rhs._nsError.userInfo
        guard left.count == right.count else { return false }
        return left.allSatisfy { key, value in right[key].map { valuesEqual(value, $0) } ?? false }
    }

    /// Compares two user-info values: by `AnyHashable` when both are hashable, else by `NSObject.isEqual`.
    private static func valuesEqual(_ a: Any, _ b: Any) -> Bool {
        if let a = a as? AnyHashable, let b = b as? AnyHashable { return a == b }
        if let a = a as? NSObject, let b = b as? NSObject { return a.isEqual(b) }
        return false
    }

    /// Hashes the error code.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(_nsError.code)
    }
}

// MARK: - User-info accessors

extension AVError {
    /// The capture device involved, stored under `AVErrorDeviceKey`.
    public var device: AVCaptureDevice? { userInfo[AVErrorDeviceKey] as? AVCaptureDevice }

    /// The time at which the error occurred.
    /// Differs from Apple: read from a `CMTime` stored under `AVErrorTimeKey`, or from an `NSValue`
    /// boxing one (`NSValue(time:)`, as Apple stores it).
    public var time: CMTime? { Self.time(userInfo[AVErrorTimeKey]) }

    /// The file size in bytes.
    public var fileSize: Int64? { Self.integer(userInfo[AVErrorFileSizeKey]).map(Int64.init) }

    /// The process identifier of the process that holds the device.
    public var processID: Int? { Self.integer(userInfo[AVErrorPIDKey]) }

    /// A Boolean value that indicates whether recording finished successfully.
    public var recordingSuccessfullyFinished: Bool? {
        switch userInfo[AVErrorRecordingSuccessfullyFinishedKey] {
        case let value as Bool: return value
        case let value as NSNumber: return value.boolValue
        default: return nil
        }
    }

    /// The media type, stored under `AVErrorMediaTypeKey` as an `AVMediaType` or its raw string.
    public var mediaType: AVMediaType? {
        switch userInfo[AVErrorMediaTypeKey] {
        case let type as AVMediaType: return type
        case let raw as String: return AVMediaType(rawValue: raw)
        default: return nil
        }
    }

    /// The media subtypes.
    public var mediaSubtypes: [Int]? {
        switch userInfo[AVErrorMediaSubTypeKey] {
        case let values as [Int]: return values
        case let values as [NSNumber]: return values.map(\.intValue)
        default: return nil
        }
    }

    /// The presentation timestamp of the sample involved.
    /// Differs from Apple: read from a `CMTime` stored under the key, or from an `NSValue` boxing one.
    public var presentationTimeStamp: CMTime? { Self.time(userInfo[AVErrorPresentationTimeStampKey]) }

    /// The persistent track identifier.
    public var persistentTrackID: CMPersistentTrackID? {
        Self.integer(userInfo[AVErrorPersistentTrackIDKey]).map { CMPersistentTrackID(truncatingIfNeeded: $0) }
    }

    /// The file type, stored under `AVErrorFileTypeKey` as an `AVFileType` or its raw string (a
    /// UTI such as "com.apple.quicktime-movie").
    public var fileType: AVFileType? {
        switch userInfo[AVErrorFileTypeKey] {
        case let type as AVFileType: return type
        case let raw as String: return AVFileType(rawValue: raw)
        default: return nil
        }
    }

    /// Reads a time stored as a `CMTime` or boxed in an `NSValue`.
    private static func time(_ value: Any?) -> CMTime? {
        switch value {
        case let time as CMTime: return time
        case let box as NSValue: return box.timeValue
        default: return nil
        }
    }

    /// Reads an integer stored as any Swift integer type or `NSNumber`.
    private static func integer(_ value: Any?) -> Int? {
        switch value {
        case let v as Int: return v
        case let v as Int64: return Int(v)
        case let v as Int32: return Int(v)
        case let v as UInt64: return Int(exactly: v)
        case let v as NSNumber: return v.intValue
        default: return nil
        }
    }
}

// MARK: - Engine convenience

extension AVError {
    /// Creates an error whose localized description reads like Apple's for `code`, with `reason` as
    /// the failure reason and `underlying` (if any) under `NSUnderlyingErrorKey`; `userInfo` adds or overrides keys.
    package init(_ code: AVError.Code, reason: String, underlying: (any Error)? = nil, userInfo extra: [String: Any] = [:]) {
        var info: [String: Any] = [
            NSLocalizedDescriptionKey: code.defaultLocalizedDescription,
            NSLocalizedFailureReasonErrorKey: reason,
        ]
        if let underlying { info[NSUnderlyingErrorKey] = underlying as NSError }
        info.merge(extra) { _, new in new }
        self.init(code, userInfo: info)
    }

    /// The error stored under `NSUnderlyingErrorKey`, if any.
    package var underlyingError: (any Error)? { userInfo[NSUnderlyingErrorKey] as? any Error }

    /// The failure reason stored under `NSLocalizedFailureReasonErrorKey`, if any.
    package var failureReason: String? { userInfo[NSLocalizedFailureReasonErrorKey] as? String }
}

extension AVError.Code {
    /// A short Apple-style description ("Cannot Open", "Cannot Record", …) used when OpenAVFoundation creates an error.
    package var defaultLocalizedDescription: String {
        switch self {
        case .fileFormatNotRecognized, .fileFailedToParse, .failedToParse, .formatUnsupported,
             .invalidSourceMedia, .contentIsProtected, .contentIsNotAuthorized, .contentIsUnavailable,
             .noSourceTrack, .incompatibleAsset, .failedToLoadMediaData, .failedToLoadSampleData:
            return "Cannot Open"
        case .decodeFailed, .decoderNotFound, .decoderTemporarilyUnavailable, .undecodableMediaData:
            return "Cannot Decode"
        case .encodeFailed, .encoderNotFound, .encoderTemporarilyUnavailable, .unsupportedOutputSettings:
            return "Cannot Encode"
        case .diskFull, .maximumDurationReached, .maximumFileSizeReached, .maximumNumberOfSamplesForFileFormatReached,
             .noDataCaptured, .sessionNotRunning, .recordingAlreadyInProgress, .mediaDiscontinuity, .mediaChanged:
            return "Cannot Record"
        case .deviceWasDisconnected, .deviceNotConnected, .deviceAlreadyUsedByAnotherSession,
             .deviceInUseByAnotherApplication, .deviceLockedForConfigurationByAnotherProcess,
             .unsupportedDeviceActiveFormat:
            return "Cannot Use Device"
        case .exportFailed, .operationNotSupportedForPreset, .operationNotSupportedForAsset:
            return "Cannot Complete Action"
        case .fileAlreadyExists, .invalidOutputURLPathExtension:
            return "Cannot Save"
        case .noImageAtTime:
            return "Cannot Generate Image"
        case .operationCancelled:
            return "Operation Stopped"
        default:
            return "The operation could not be completed"
        }
    }
}
