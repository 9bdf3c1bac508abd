import Foundation
import OpenCoreVideo
import Synchronization

/// A queue of pointer-sized elements, first in first out, of a fixed capacity, without a lock:
/// one thread may enqueue while another dequeues, even on a real-time audio thread.
///
/// Elements are pointers or pointer-sized numbers, never null; the queue does not own what they
/// point to. Enqueueing to a full queue fails; dequeueing from an empty one returns nil.
/// `reset()` is not synchronized: hold off both threads around it.
///
/// Differs from Apple: a Swift class rather than a CoreFoundation type.
public final class CMSimpleQueue: @unchecked Sendable {
    /// The ring: one slot more than the capacity, so that full and empty differ.
    private let slots: UnsafeMutablePointer<UInt>
    private let slotCount: Int
    /// The next slot to dequeue from, moved only by the dequeueing thread.
    private let readIndex = Atomic<Int>(0)
    /// The next slot to enqueue to, moved only by the enqueueing thread.
    private let writeIndex = Atomic<Int>(0)

    init(validCapacity capacity: Int) {
        slotCount = capacity + 1
        slots = .allocate(capacity: slotCount)
        slots.initialize(repeating: 0, count: slotCount)
    }

    deinit { slots.deallocate() }

    /// A queue holding at most `capacity` elements.
    ///
    /// Throws `CMSimpleQueue.Error.requiredParameterMissing` for 0 and `.parameterOutOfRange`
    /// for a negative capacity.
    public convenience init(capacity: Int) throws {
        try throwIfError(CMSimpleQueue.validate(capacity: capacity))
        self.init(validCapacity: capacity)
    }

    /// The status `CMSimpleQueueCreate` returns for `capacity`.
    static func validate(capacity: Int) -> OSStatus {
        capacity == 0 ? kCMSimpleQueueError_RequiredParameterMissing
            : capacity < 0 || capacity > Int(Int32.max) ? kCMSimpleQueueError_ParameterOutOfRange : noErr
    }

    /// Adds an element at the tail. Throws `CMSimpleQueue.Error.queueIsFull` when the queue is full.
    public func enqueue(_ element: UnsafeRawPointer) throws {
        try throwIfError(enqueueStatus(element))
    }

    /// Removes and returns the head element; nil when the queue is empty.
    public func dequeue() -> UnsafeRawPointer? {
        let read = readIndex.load(ordering: .relaxed)
        guard read != writeIndex.load(ordering: .acquiring) else { return nil }
        let element = UnsafeRawPointer(bitPattern: slots[read])
        readIndex.store((read + 1) % slotCount, ordering: .releasing)
        return element
    }

    /// The head element, left in the queue; nil when the queue is empty.
    public var head: UnsafeRawPointer? {
        let read = readIndex.load(ordering: .relaxed)
        guard read != writeIndex.load(ordering: .acquiring) else { return nil }
        return UnsafeRawPointer(bitPattern: slots[read])
    }

    /// Empties the queue; the capacity stays.
    public func reset() throws {
        empty()
    }

    /// Empties the queue, as `reset()` does.
    func empty() {
        readIndex.store(0, ordering: .sequentiallyConsistent)
        writeIndex.store(0, ordering: .sequentiallyConsistent)
    }

    /// The most elements the queue holds.
    public var capacity: Int { slotCount - 1 }

    /// The number of elements in the queue.
    public var count: Int {
        let write = writeIndex.load(ordering: .acquiring)
        let read = readIndex.load(ordering: .acquiring)
        return (write - read + slotCount) % slotCount
    }

    /// How full the queue is: its count divided by its capacity, from 0 to 1.
    public var fullness: Float { Float(count) / Float(capacity) }

    /// Enqueues, as `enqueue(_:)` does, returning its status.
    func enqueueStatus(_ element: UnsafeRawPointer) -> OSStatus {
        let write = writeIndex.load(ordering: .relaxed)
        let next = (write + 1) % slotCount
        guard next != readIndex.load(ordering: .acquiring) else { return kCMSimpleQueueError_QueueIsFull }
        slots[write] = UInt(bitPattern: element)
        writeIndex.store(next, ordering: .releasing)
        return noErr
    }
}
