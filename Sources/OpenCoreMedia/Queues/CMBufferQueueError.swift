import Foundation
import OpenCoreVideo

/// Memory could not be allocated.
public let kCMBufferQueueError_AllocationFailed: OSStatus = -12760
/// A required parameter was missing or zero.
public let kCMBufferQueueError_RequiredParameterMissing: OSStatus = -12761
/// The callbacks' version was not 0.
public let kCMBufferQueueError_InvalidCMBufferCallbacksStruct: OSStatus = -12762
/// A buffer was enqueued after the end of data was marked, before a reset.
public let kCMBufferQueueError_EnqueueAfterEndOfData: OSStatus = -12763
/// A buffer was enqueued on a full queue.
public let kCMBufferQueueError_QueueIsFull: OSStatus = -12764
/// A trigger's duration was not numeric, or had an epoch.
public let kCMBufferQueueError_BadTriggerDuration: OSStatus = -12765
/// A trigger handler tried to change the queue.
public let kCMBufferQueueError_CannotModifyQueueFromTriggerCallback: OSStatus = -12766
/// A trigger condition was not one of the `kCMBufferQueueTrigger_…` values.
public let kCMBufferQueueError_InvalidTriggerCondition: OSStatus = -12767
/// A trigger token was not one of the queue's triggers.
public let kCMBufferQueueError_InvalidTriggerToken: OSStatus = -12768
/// The validation callback refused a buffer.
public let kCMBufferQueueError_InvalidBuffer: OSStatus = -12769

extension CMBufferQueue {
    /// The errors the queue's throwing methods throw: `NSError`s in `NSOSStatusErrorDomain` with
    /// the `kCMBufferQueueError_…` codes.
    public struct Error {
        /// `kCMBufferQueueError_AllocationFailed`.
        public static let allocationFailed = osStatusError(kCMBufferQueueError_AllocationFailed)
        /// `kCMBufferQueueError_RequiredParameterMissing`.
        public static let requiredParameterMissing = osStatusError(kCMBufferQueueError_RequiredParameterMissing)
        /// `kCMBufferQueueError_InvalidCMBufferCallbacksStruct`.
        public static let invalidCMBufferCallbacksStruct = osStatusError(kCMBufferQueueError_InvalidCMBufferCallbacksStruct)
        /// `kCMBufferQueueError_EnqueueAfterEndOfData`.
        public static let enqueueAfterEndOfData = osStatusError(kCMBufferQueueError_EnqueueAfterEndOfData)
        /// `kCMBufferQueueError_QueueIsFull`.
        public static let queueIsFull = osStatusError(kCMBufferQueueError_QueueIsFull)
        /// `kCMBufferQueueError_BadTriggerDuration`.
        public static let badTriggerDuration = osStatusError(kCMBufferQueueError_BadTriggerDuration)
        /// `kCMBufferQueueError_CannotModifyQueueFromTriggerCallback`.
        public static let cannotModifyQueueFromTriggerCallback = osStatusError(kCMBufferQueueError_CannotModifyQueueFromTriggerCallback)
        /// `kCMBufferQueueError_InvalidTriggerCondition`.
        public static let invalidTriggerCondition = osStatusError(kCMBufferQueueError_InvalidTriggerCondition)
        /// `kCMBufferQueueError_InvalidTriggerToken`.
        public static let invalidTriggerToken = osStatusError(kCMBufferQueueError_InvalidTriggerToken)
        /// `kCMBufferQueueError_InvalidBuffer`.
        public static let invalidBuffer = osStatusError(kCMBufferQueueError_InvalidBuffer)
    }
}
