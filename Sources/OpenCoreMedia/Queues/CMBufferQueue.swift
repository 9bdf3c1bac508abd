import Foundation
import OpenCoreVideo

/// A buffer a `CMBufferQueue` holds: any object its handlers can give a duration for, most often
/// a `CMSampleBuffer`.
public typealias CMBuffer = CFTypeRef

/// A queue of timed buffers, first in first out or sorted by its `compare` handler, that threads
/// enqueue to and dequeue from; it keeps its total duration, the span of its timestamps, an
/// end-of-data mark, and calls triggers when conditions on those become true.
///
/// Enqueueing to a full queue or dequeueing from an empty one never waits: it fails, or returns
/// nil. Every operation holds the queue's one lock; the handlers and the trigger handlers are
/// called with it held, on the calling thread. A trigger handler may read the queue but not
/// change it (`kCMBufferQueueError_CannotModifyQueueFromTriggerCallback`).
///
/// Differs from Apple: a Swift class rather than a CoreFoundation type. The head buffer's
/// data-became-ready notification is observed through `NotificationCenter.default`.
public final class CMBufferQueue: @unchecked Sendable {
    /// One buffer in the queue, with the duration its handler gave when it was enqueued.
    struct Entry {
        let buffer: CMBuffer
        let duration: CMTime
    }

    /// The most buffers the queue holds; 0 for no limit.
    let capacity: CMItemCount
    let handlers: Handlers
    /// Recursive, so that a trigger handler, called with the lock held, may read the queue.
    /// (`Locked` lives in a module above this one.)
    let lock = NSRecursiveLock()
    /// Head first. Guarded by `lock`, as every variable below.
    var entries: [Entry] = []
    var totalDuration = CMTime.zero
    var endOfDataMarked = false
    var triggers: [Trigger] = []
    /// Set while trigger handlers run, so that their changes to the queue fail.
    var callingTriggers = false
    var validation: ((CMBuffer) -> OSStatus)?

    /// Observes the handlers' data-became-ready notification, when they name one.
    private var readinessObserver: NSObjectProtocol?

    init(capacity: CMItemCount, validHandlers handlers: Handlers) {
        self.capacity = capacity
        self.handlers = handlers
        if let name = handlers.dataBecameReadyNotification {
            readinessObserver = NotificationCenter.default.addObserver(forName: NSNotification.Name(name), object: nil, queue: nil) {
                [weak self] notification in
                self?.bufferBecameReady(notification.object as AnyObject?)
            }
        }
    }

    deinit {
        if let readinessObserver { NotificationCenter.default.removeObserver(readinessObserver) }
    }

    /// Fires the `whenDataBecomesReady` triggers when the buffer that became ready is the head.
    private func bufferBecameReady(_ buffer: AnyObject?) {
        lock.withLock {
            guard let buffer, buffer === entries.first?.buffer, !triggers.isEmpty else { return }
            fireTriggers(before: observe(), isReset: false)
        }
    }

    /// A queue of at most `capacity` buffers (0 for no limit) that asks `handlers` about them.
    ///
    /// Throws `CMBufferQueue.Error.requiredParameterMissing` for a negative capacity.
    public convenience init(capacity: CMItemCount, handlers: Handlers) throws {
        guard capacity >= 0 else { throw CMBufferQueue.Error.requiredParameterMissing }
        self.init(capacity: capacity, validHandlers: handlers)
    }

    // MARK: Enqueueing and dequeueing

    /// Adds a buffer: at the tail, or where the `compare` handler sorts it (after the buffers
    /// it equals).
    ///
    /// Throws `CMBufferQueue.Error.queueIsFull`, `.enqueueAfterEndOfData`,
    /// `.cannotModifyQueueFromTriggerCallback`, or the validation handler's error.
    public func enqueue(_ buffer: CMBuffer) throws {
        try lock.withLock {
            let status = enqueueStatus(buffer)
            if status == kCMBufferQueueError_InvalidBuffer, let thrown = validationError { throw thrown }
            try throwIfError(status)
        }
    }

    /// Removes and returns the head buffer; nil when the queue is empty.
    public func dequeue() -> CMBuffer? { dequeue(onlyIfReady: false) }

    /// Removes and returns the head buffer if its data is ready (its `isDataReady` handler says
    /// so, or there is none); nil otherwise.
    public func dequeueIfDataReady() -> CMBuffer? { dequeue(onlyIfReady: true) }

    /// The buffer `dequeue()` would return, left in the queue; nil when the queue is empty.
    public var head: CMBuffer? { lock.withLock { entries.first?.buffer } }

    /// Whether the queue holds no buffer.
    public var isEmpty: Bool { lock.withLock { entries.isEmpty } }

    /// The number of buffers in the queue.
    public var bufferCount: CMItemCount { lock.withLock { entries.count } }

    /// Marks the end of data: enqueueing fails from now until `reset()`; dequeueing goes on.
    public func markEndOfData() throws {
        try throwIfError(markEndOfDataStatus())
    }

    /// Whether the queue has been marked with the end of data.
    public var containsEndOfData: Bool { lock.withLock { endOfDataMarked } }

    /// Whether the queue has been marked with the end of data and is empty.
    public var isAtEndOfData: Bool { lock.withLock { endOfDataMarked && entries.isEmpty } }

    /// Empties the queue and clears the end-of-data mark; the triggers stay, and `whenReset`
    /// triggers fire.
    public func reset() throws {
        try throwIfError(resetStatus(each: nil))
    }

    /// Calls `body` for every buffer, head first, then resets the queue. An error thrown by
    /// `body` stops the calls and leaves the queue as it was.
    public func reset(_ body: (CMBuffer) throws -> ()) throws {
        try lock.withLock {
            guard !callingTriggers else { throw CMBufferQueue.Error.cannotModifyQueueFromTriggerCallback }
            for entry in entries { try body(entry.buffer) }
            try throwIfError(resetStatus(each: nil))
        }
    }

    /// The buffers, head first, as they are now.
    public var buffers: Buffers { Buffers(buffers: lock.withLock { entries.map(\.buffer) }) }

    /// The buffers of a queue at one moment, head first.
    public struct Buffers: Sequence {
        let buffers: [CMBuffer]

        /// Iterates the buffers, head first.
        public func makeIterator() -> IndexingIterator<[CMBuffer]> { buffers.makeIterator() }
    }

    /// Has `body` check every buffer before it is enqueued; an error it throws refuses the
    /// buffer, and `enqueue` throws it.
    public func setValidationHandler(_ body: @escaping (CMBufferQueue, CMBuffer) throws -> Void) {
        lock.withLock {
            validation = { [unowned self] buffer in
                do {
                    try body(self, buffer)
                    validationError = nil
                    return noErr
                } catch {
                    validationError = error
                    return kCMBufferQueueError_InvalidBuffer
                }
            }
        }
    }

    /// The error the validation handler threw for the last buffer it refused. Guarded by `lock`.
    var validationError: (any Swift.Error)?

    // MARK: Times and sizes

    /// The sum of the buffers' durations; zero for an empty queue.
    public var duration: CMTime { lock.withLock { totalDuration } }

    /// The earliest decode timestamp of the buffers; invalid when the queue is empty or has no
    /// `getDecodeTimeStamp` handler.
    public var minDecodeTimeStamp: CMTime { lock.withLock { extreme(handlers.getDecodeTimeStamp, <) } }

    /// The decode timestamp of the head buffer: `minDecodeTimeStamp` for a queue in decode order.
    public var firstDecodeTimeStamp: CMTime { lock.withLock { first(handlers.getDecodeTimeStamp) } }

    /// The earliest presentation timestamp of the buffers; invalid when the queue is empty or has
    /// no `getPresentationTimeStamp` handler.
    public var minPresentationTimeStamp: CMTime { lock.withLock { extreme(handlers.getPresentationTimeStamp, <) } }

    /// The presentation timestamp of the head buffer: `minPresentationTimeStamp` for a queue
    /// sorted by presentation time.
    public var firstPresentationTimeStamp: CMTime { lock.withLock { first(handlers.getPresentationTimeStamp) } }

    /// The latest presentation timestamp of the buffers; invalid when the queue is empty or has
    /// no `getPresentationTimeStamp` handler.
    public var maxPresentationTimeStamp: CMTime { lock.withLock { extreme(handlers.getPresentationTimeStamp, >) } }

    /// The latest end (presentation timestamp plus duration) of the buffers; invalid when the
    /// queue is empty or has no `getPresentationTimeStamp` handler.
    public var endPresentationTimeStamp: CMTime {
        lock.withLock {
            guard let presentationTimeStamp = handlers.getPresentationTimeStamp else { return .invalid }
            return extreme({ CMTimeAdd(presentationTimeStamp($0), self.handlers.getDuration($0)) }, >)
        }
    }

    /// The sum of the buffers' sizes, as the `getSize` handler gives them; 0 without one.
    public var totalSize: Int {
        lock.withLock {
            guard let getSize = handlers.getSize else { return 0 }
            return entries.reduce(0) { $0 + getSize($1.buffer) }
        }
    }

    /// The least (`<`) or greatest (`>`) numeric time `time` gives for the buffers; invalid when
    /// there is none. Called with the lock held.
    func extreme(_ time: CMBufferGetTimeHandler?, _ isBetter: (CMTime, CMTime) -> Bool) -> CMTime {
        guard let time else { return .invalid }
        return entries.lazy.map { time($0.buffer) }.filter(\.isNumeric).reduce(nil) { best, next in
            best.map { isBetter(next, $0) ? next : $0 } ?? next
        } ?? .invalid
    }

    /// The time `time` gives for the head buffer; invalid when there is none. Called with the
    /// lock held.
    func first(_ time: CMBufferGetTimeHandler?) -> CMTime {
        guard let time, let head = entries.first else { return .invalid }
        return time(head.buffer)
    }

    // MARK: Changes

    /// Enqueues, as `enqueue(_:)` does, returning its status.
    func enqueueStatus(_ buffer: CMBuffer) -> OSStatus {
        lock.withLock {
            guard !callingTriggers else { return kCMBufferQueueError_CannotModifyQueueFromTriggerCallback }
            guard !endOfDataMarked else { return kCMBufferQueueError_EnqueueAfterEndOfData }
            guard capacity == 0 || entries.count < capacity else { return kCMBufferQueueError_QueueIsFull }
            if let validation {
                let status = validation(buffer)
                guard status == noErr else { return status }
            }
            return modify {
                let entry = Entry(buffer: buffer, duration: handlers.getDuration(buffer))
                var index = entries.endIndex
                if let compare = handlers.compare {
                    index = entries.firstIndex { compare(buffer, $0.buffer) == .compareLessThan } ?? entries.endIndex
                }
                entries.insert(entry, at: index)
                if entry.duration.isNumeric { totalDuration = CMTimeAdd(totalDuration, entry.duration) }
            }
        }
    }

    /// Marks the end of data, as `markEndOfData()` does, returning its status.
    func markEndOfDataStatus() -> OSStatus {
        lock.withLock { modify { endOfDataMarked = true } }
    }

    /// Dequeues the head buffer, if there is one and, when `onlyIfReady`, its data is ready.
    func dequeue(onlyIfReady: Bool) -> CMBuffer? {
        lock.withLock {
            guard !callingTriggers, let head = entries.first else { return nil }
            if onlyIfReady, let isDataReady = handlers.isDataReady, !isDataReady(head.buffer) { return nil }
            _ = modify {
                entries.removeFirst()
                if head.duration.isNumeric { totalDuration = CMTimeSubtract(totalDuration, head.duration) }
                if entries.isEmpty { totalDuration = .zero }
            }
            return head.buffer
        }
    }

    /// Resets, as `reset()` does, calling `each` for every buffer first; returns the status.
    func resetStatus(each: ((CMBuffer) -> Void)?) -> OSStatus {
        lock.withLock {
            if let each, !callingTriggers { entries.forEach { each($0.buffer) } }
            return modify(isReset: true) {
                entries = []
                totalDuration = .zero
                endOfDataMarked = false
            }
        }
    }

    /// Applies `change` to the queue, then calls the triggers it makes fire; refuses from a
    /// trigger handler. Called with the lock held.
    func modify(isReset: Bool = false, _ change: () -> Void) -> OSStatus {
        guard !callingTriggers else { return kCMBufferQueueError_CannotModifyQueueFromTriggerCallback }
        let before = triggers.isEmpty ? nil : observe()
        change()
        if let before { fireTriggers(before: before, isReset: isReset) }
        return noErr
    }
}
