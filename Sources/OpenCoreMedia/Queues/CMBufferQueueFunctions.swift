import Foundation
import OpenCoreVideo

/// A trigger condition of the C-style functions (`kCMBufferQueueTrigger_…`).
public typealias CMBufferQueueTriggerCondition = Int32

/// The duration becomes less than the trigger's time.
public let kCMBufferQueueTrigger_WhenDurationBecomesLessThan: CMBufferQueueTriggerCondition = 1
/// The duration becomes less than or equal to the trigger's time.
public let kCMBufferQueueTrigger_WhenDurationBecomesLessThanOrEqualTo: CMBufferQueueTriggerCondition = 2
/// The duration becomes greater than the trigger's time.
public let kCMBufferQueueTrigger_WhenDurationBecomesGreaterThan: CMBufferQueueTriggerCondition = 3
/// The duration becomes greater than or equal to the trigger's time.
public let kCMBufferQueueTrigger_WhenDurationBecomesGreaterThanOrEqualTo: CMBufferQueueTriggerCondition = 4
/// The minimum presentation timestamp changes.
public let kCMBufferQueueTrigger_WhenMinPresentationTimeStampChanges: CMBufferQueueTriggerCondition = 5
/// The maximum presentation timestamp changes.
public let kCMBufferQueueTrigger_WhenMaxPresentationTimeStampChanges: CMBufferQueueTriggerCondition = 6
/// The head buffer becomes ready.
public let kCMBufferQueueTrigger_WhenDataBecomesReady: CMBufferQueueTriggerCondition = 7
/// The queue becomes marked with the end of data and empty.
public let kCMBufferQueueTrigger_WhenEndOfDataReached: CMBufferQueueTriggerCondition = 8
/// The queue is reset.
public let kCMBufferQueueTrigger_WhenReset: CMBufferQueueTriggerCondition = 9
/// The buffer count becomes less than the trigger's threshold.
public let kCMBufferQueueTrigger_WhenBufferCountBecomesLessThan: CMBufferQueueTriggerCondition = 10
/// The buffer count becomes greater than the trigger's threshold.
public let kCMBufferQueueTrigger_WhenBufferCountBecomesGreaterThan: CMBufferQueueTriggerCondition = 11

/// Called with the trigger's `refcon` and token when its condition becomes true.
public typealias CMBufferQueueTriggerCallback = (UnsafeMutableRawPointer?, CMBufferQueueTriggerToken) -> Void

/// Makes a queue of at most `capacity` buffers (0 for no limit) asking `callbacks` about them.
/// `kCMBufferQueueError_InvalidCMBufferCallbacksStruct` for a version other than 0.
public func CMBufferQueueCreate(allocator: CFAllocator?, capacity: CMItemCount, callbacks: UnsafePointer<CMBufferCallbacks>,
                                queueOut: UnsafeMutablePointer<CMBufferQueue?>) -> OSStatus {
    guard capacity >= 0 else { return kCMBufferQueueError_RequiredParameterMissing }
    guard callbacks.pointee.version == 0 else { return kCMBufferQueueError_InvalidCMBufferCallbacksStruct }
    queueOut.pointee = CMBufferQueue(capacity: capacity, validHandlers: callbacks.pointee.handlers)
    return noErr
}

/// Enqueues a buffer, as `CMBufferQueue.enqueue(_:)` does.
public func CMBufferQueueEnqueue(_ queue: CMBufferQueue, buffer: CMBuffer) -> OSStatus {
    queue.enqueueStatus(buffer)
}

/// Dequeues the head buffer; nil when the queue is empty.
public func CMBufferQueueDequeue(_ queue: CMBufferQueue) -> CMBuffer? {
    queue.dequeue()
}

/// Dequeues the head buffer if its data is ready; nil otherwise.
public func CMBufferQueueDequeueIfDataReady(_ queue: CMBufferQueue) -> CMBuffer? {
    queue.dequeueIfDataReady()
}

/// The head buffer, left in the queue; nil when the queue is empty.
public func CMBufferQueueGetHead(_ queue: CMBufferQueue) -> CMBuffer? {
    queue.head
}

/// The head buffer, left in the queue; nil when the queue is empty.
public func CMBufferQueueCopyHead(_ queue: CMBufferQueue) -> CMBuffer? {
    queue.head
}

/// Whether the queue is empty.
public func CMBufferQueueIsEmpty(_ queue: CMBufferQueue) -> Bool {
    queue.isEmpty
}

/// Marks the end of data: enqueueing fails until the queue is reset.
public func CMBufferQueueMarkEndOfData(_ queue: CMBufferQueue) -> OSStatus {
    queue.markEndOfDataStatus()
}

/// Whether the queue is marked with the end of data.
public func CMBufferQueueContainsEndOfData(_ queue: CMBufferQueue) -> Bool {
    queue.containsEndOfData
}

/// Whether the queue is marked with the end of data and empty.
public func CMBufferQueueIsAtEndOfData(_ queue: CMBufferQueue) -> Bool {
    queue.isAtEndOfData
}

/// Empties the queue and clears the end-of-data mark.
public func CMBufferQueueReset(_ queue: CMBufferQueue) -> OSStatus {
    queue.resetStatus(each: nil)
}

/// Calls `callback` for every buffer, head first, then resets the queue.
public func CMBufferQueueResetWithCallback(_ queue: CMBufferQueue, callback: (CMBuffer, UnsafeMutableRawPointer?) -> Void,
                                           refcon: UnsafeMutableRawPointer?) -> OSStatus {
    withoutActuallyEscaping(callback) { callback in queue.resetStatus { callback($0, refcon) } }
}

/// The number of buffers in the queue.
public func CMBufferQueueGetBufferCount(_ queue: CMBufferQueue) -> CMItemCount {
    queue.bufferCount
}

/// The sum of the buffers' durations.
public func CMBufferQueueGetDuration(_ queue: CMBufferQueue) -> CMTime {
    queue.duration
}

/// The earliest decode timestamp of the buffers.
public func CMBufferQueueGetMinDecodeTimeStamp(_ queue: CMBufferQueue) -> CMTime {
    queue.minDecodeTimeStamp
}

/// The decode timestamp of the head buffer.
public func CMBufferQueueGetFirstDecodeTimeStamp(_ queue: CMBufferQueue) -> CMTime {
    queue.firstDecodeTimeStamp
}

/// The earliest presentation timestamp of the buffers.
public func CMBufferQueueGetMinPresentationTimeStamp(_ queue: CMBufferQueue) -> CMTime {
    queue.minPresentationTimeStamp
}

/// The presentation timestamp of the head buffer.
public func CMBufferQueueGetFirstPresentationTimeStamp(_ queue: CMBufferQueue) -> CMTime {
    queue.firstPresentationTimeStamp
}

/// The latest presentation timestamp of the buffers.
public func CMBufferQueueGetMaxPresentationTimeStamp(_ queue: CMBufferQueue) -> CMTime {
    queue.maxPresentationTimeStamp
}

/// The latest end (presentation timestamp plus duration) of the buffers.
public func CMBufferQueueGetEndPresentationTimeStamp(_ queue: CMBufferQueue) -> CMTime {
    queue.endPresentationTimeStamp
}

/// The sum of the buffers' sizes.
public func CMBufferQueueGetTotalSize(_ queue: CMBufferQueue) -> Int {
    queue.totalSize
}

/// Installs a trigger calling `callback` with `refcon` when `condition`, compared with `time`,
/// becomes true. `kCMBufferQueueError_InvalidTriggerCondition` for a count condition or an
/// unknown one.
public func CMBufferQueueInstallTrigger(_ queue: CMBufferQueue, callback: CMBufferQueueTriggerCallback?,
                                        refcon: UnsafeMutableRawPointer?, condition: CMBufferQueueTriggerCondition,
                                        time: CMTime, triggerTokenOut: UnsafeMutablePointer<CMBufferQueueTriggerToken?>?) -> OSStatus {
    let trigger: CMBufferQueue.TriggerCondition
    switch condition {
    case kCMBufferQueueTrigger_WhenDurationBecomesLessThan: trigger = .whenDurationBecomesLessThan(time)
    case kCMBufferQueueTrigger_WhenDurationBecomesLessThanOrEqualTo: trigger = .whenDurationBecomesLessThanOrEqualTo(time)
    case kCMBufferQueueTrigger_WhenDurationBecomesGreaterThan: trigger = .whenDurationBecomesGreaterThan(time)
    case kCMBufferQueueTrigger_WhenDurationBecomesGreaterThanOrEqualTo: trigger = .whenDurationBecomesGreaterThanOrEqualTo(time)
    case kCMBufferQueueTrigger_WhenMinPresentationTimeStampChanges: trigger = .whenMinPresentationTimeStampChanges
    case kCMBufferQueueTrigger_WhenMaxPresentationTimeStampChanges: trigger = .whenMaxPresentationTimeStampChanges
    case kCMBufferQueueTrigger_WhenDataBecomesReady: trigger = .whenDataBecomesReady
    case kCMBufferQueueTrigger_WhenEndOfDataReached: trigger = .whenEndOfDataReached
    case kCMBufferQueueTrigger_WhenReset: trigger = .whenReset
    default: return kCMBufferQueueError_InvalidTriggerCondition
    }
    return install(trigger, on: queue, callback: callback, refcon: refcon, tokenOut: triggerTokenOut)
}

/// Installs a trigger calling `callback` with `refcon` when a buffer-count `condition`,
/// compared with `threshold`, becomes true; other conditions as `CMBufferQueueInstallTrigger`
/// with an invalid time.
public func CMBufferQueueInstallTriggerWithIntegerThreshold(_ queue: CMBufferQueue, callback: CMBufferQueueTriggerCallback?,
                                                            refcon: UnsafeMutableRawPointer?,
                                                            condition: CMBufferQueueTriggerCondition, threshold: CMItemCount,
                                                            triggerTokenOut: UnsafeMutablePointer<CMBufferQueueTriggerToken?>?) -> OSStatus {
    switch condition {
    case kCMBufferQueueTrigger_WhenBufferCountBecomesLessThan:
        install(.whenBufferCountBecomesLessThan(threshold), on: queue, callback: callback, refcon: refcon, tokenOut: triggerTokenOut)
    case kCMBufferQueueTrigger_WhenBufferCountBecomesGreaterThan:
        install(.whenBufferCountBecomesGreaterThan(threshold), on: queue, callback: callback, refcon: refcon, tokenOut: triggerTokenOut)
    default:
        CMBufferQueueInstallTrigger(queue, callback: callback, refcon: refcon, condition: condition, time: .invalid,
                                    triggerTokenOut: triggerTokenOut)
    }
}

/// Installs a trigger calling `handler` when `condition`, compared with `time`, becomes true.
public func CMBufferQueueInstallTriggerHandler(_ queue: CMBufferQueue, _ condition: CMBufferQueueTriggerCondition, _ time: CMTime,
                                               _ triggerTokenOut: UnsafeMutablePointer<CMBufferQueueTriggerToken?>?,
                                               _ handler: CMBufferQueueTriggerHandler?) -> OSStatus {
    CMBufferQueueInstallTrigger(queue, callback: handler.map { handler in { _, token in handler(token) } }, refcon: nil,
                                condition: condition, time: time, triggerTokenOut: triggerTokenOut)
}

/// Removes a trigger; `kCMBufferQueueError_InvalidTriggerToken` when it is not the queue's.
public func CMBufferQueueRemoveTrigger(_ queue: CMBufferQueue, _ triggerToken: CMBufferQueueTriggerToken) -> OSStatus {
    queue.removeTriggerStatus(triggerToken)
}

/// Whether a trigger's condition holds now.
public func CMBufferQueueTestTrigger(_ queue: CMBufferQueue, _ triggerToken: CMBufferQueueTriggerToken) -> Bool {
    queue.testTrigger(triggerToken)
}

/// Checks a buffer before it is enqueued; a status other than `noErr` refuses it, and
/// `CMBufferQueueEnqueue` returns that status.
public typealias CMBufferValidationCallback = (CMBufferQueue, CMBuffer, UnsafeMutableRawPointer?) -> OSStatus

/// Has `callback` check every buffer before it is enqueued.
public func CMBufferQueueSetValidationCallback(_ queue: CMBufferQueue, _ callback: @escaping CMBufferValidationCallback,
                                               _ refcon: UnsafeMutableRawPointer?) -> OSStatus {
    queue.lock.withLock { queue.validation = { [unowned queue] buffer in callback(queue, buffer, refcon) } }
    return noErr
}

/// Installs `condition` with a trigger calling `callback`. `kCMBufferQueueError_RequiredParameterMissing`
/// when there is neither a callback nor a token to test it with.
private func install(_ condition: CMBufferQueue.TriggerCondition, on queue: CMBufferQueue, callback: CMBufferQueueTriggerCallback?,
                     refcon: UnsafeMutableRawPointer?, tokenOut: UnsafeMutablePointer<CMBufferQueueTriggerToken?>?) -> OSStatus {
    guard callback != nil || tokenOut != nil else { return kCMBufferQueueError_RequiredParameterMissing }
    let handler = callback.map { callback in { (token: CMBufferQueueTriggerToken) in callback(refcon, token) } }
    return queue.install(CMBufferQueue.Trigger(condition: condition, handler: handler), tokenOut: tokenOut)
}
