import Foundation
import OpenCoreVideo

/// Memory could not be allocated.
public let kCMSimpleQueueError_AllocationFailed: OSStatus = -12770
/// A required parameter was missing or zero.
public let kCMSimpleQueueError_RequiredParameterMissing: OSStatus = -12771
/// A parameter was outside the values allowed.
public let kCMSimpleQueueError_ParameterOutOfRange: OSStatus = -12772
/// The queue was full.
public let kCMSimpleQueueError_QueueIsFull: OSStatus = -12773

extension CMSimpleQueue {
    /// The errors the queue's throwing methods throw: `NSError`s in `NSOSStatusErrorDomain` with
    /// the `kCMSimpleQueueError_…` codes.
    public struct Error {
        /// `kCMSimpleQueueError_AllocationFailed`.
        public static let allocationFailed = osStatusError(kCMSimpleQueueError_AllocationFailed)
        /// `kCMSimpleQueueError_RequiredParameterMissing`.
        public static let requiredParameterMissing = osStatusError(kCMSimpleQueueError_RequiredParameterMissing)
        /// `kCMSimpleQueueError_ParameterOutOfRange`.
        public static let parameterOutOfRange = osStatusError(kCMSimpleQueueError_ParameterOutOfRange)
        /// `kCMSimpleQueueError_QueueIsFull`.
        public static let queueIsFull = osStatusError(kCMSimpleQueueError_QueueIsFull)
    }
}
