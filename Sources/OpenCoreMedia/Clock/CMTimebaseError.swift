import Foundation
import OpenCoreVideo

/// A required parameter was missing.
public let kCMTimebaseError_MissingRequiredParameter: OSStatus = -12748
/// A parameter was not valid: a time that is not numeric, a timer the timebase does not
/// schedule, a source timebase that would make a loop.
public let kCMTimebaseError_InvalidParameter: OSStatus = -12749
/// Memory could not be allocated.
public let kCMTimebaseError_AllocationFailed: OSStatus = -12750
/// A timer's interval was too short.
public let kCMTimebaseError_TimerIntervalTooShort: OSStatus = -12751
/// The timebase is read-only: only its owner moves it.
public let kCMTimebaseError_ReadOnly: OSStatus = -12757

extension CMTimebase {
    /// The errors the timebase's throwing methods throw: `NSError`s in `NSOSStatusErrorDomain`
    /// with the `kCMTimebaseError_…` codes.
    public struct Error {
        /// `kCMTimebaseError_MissingRequiredParameter`.
        public static let missingRequiredParameter = osStatusError(kCMTimebaseError_MissingRequiredParameter)
        /// `kCMTimebaseError_InvalidParameter`.
        public static let invalidParameter = osStatusError(kCMTimebaseError_InvalidParameter)
        /// `kCMTimebaseError_AllocationFailed`.
        public static let allocationFailed = osStatusError(kCMTimebaseError_AllocationFailed)
        /// `kCMTimebaseError_TimerIntervalTooShort`.
        public static let timerIntervalTooShort = osStatusError(kCMTimebaseError_TimerIntervalTooShort)
        /// `kCMTimebaseError_ReadOnly`.
        public static let readOnly = osStatusError(kCMTimebaseError_ReadOnly)
    }
}
