import Foundation
import OpenCoreVideo

/// Makes a queue holding at most `capacity` elements; `kCMSimpleQueueError_RequiredParameterMissing`
/// for 0, `kCMSimpleQueueError_ParameterOutOfRange` for a negative capacity.
public func CMSimpleQueueCreate(allocator: CFAllocator?, capacity: Int32, queueOut: UnsafeMutablePointer<CMSimpleQueue?>) -> OSStatus {
    let status = CMSimpleQueue.validate(capacity: Int(capacity))
    queueOut.pointee = status == noErr ? CMSimpleQueue(validCapacity: Int(capacity)) : nil
    return status
}

/// Adds an element at the tail; `kCMSimpleQueueError_QueueIsFull` when the queue is full.
public func CMSimpleQueueEnqueue(_ queue: CMSimpleQueue, element: UnsafeRawPointer) -> OSStatus {
    queue.enqueueStatus(element)
}

/// Removes and returns the head element; nil when the queue is empty.
public func CMSimpleQueueDequeue(_ queue: CMSimpleQueue) -> UnsafeRawPointer? {
    queue.dequeue()
}

/// The head element, left in the queue; nil when the queue is empty.
public func CMSimpleQueueGetHead(_ queue: CMSimpleQueue) -> UnsafeRawPointer? {
    queue.head
}

/// Empties the queue; not synchronized with the enqueueing and dequeueing threads.
public func CMSimpleQueueReset(_ queue: CMSimpleQueue) -> OSStatus {
    queue.empty()
    return noErr
}

/// The most elements the queue holds.
public func CMSimpleQueueGetCapacity(_ queue: CMSimpleQueue) -> Int32 {
    Int32(queue.capacity)
}

/// The number of elements in the queue.
public func CMSimpleQueueGetCount(_ queue: CMSimpleQueue) -> Int32 {
    Int32(queue.count)
}
