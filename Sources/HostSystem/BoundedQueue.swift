/// A bounded first-in, first-out queue between two stages of a pipeline, in the manner of
/// GStreamer's `queue` element: at most `capacity` elements wait, and `policy` says what
/// happens to an element pushed when that many do — the pusher waits for room (`block`), the
/// new element is dropped (`dropNewest`, GStreamer's leaky upstream) or the oldest waiting one
/// is (`dropOldest`, leaky downstream). Drops are counted by reason.
///
/// Every stage that hands media from one thread to another uses it: the capture data outputs
/// (device thread to delegate queue, and to each `sampleBuffers` iteration), a recording
/// (device threads to the writer), the still image capture, and an export (reading thread to
/// writer). It is a value with no lock of its own: the owner keeps it behind its lock together
/// with the state that changes with it (a drain in progress, drop reports), and an owner whose
/// pusher waits (`block`) waits on its own condition while `push` answers `full`. The storage
/// is a ring of `capacity` slots made once: pushing and popping allocate nothing.
package struct BoundedQueue<Element> {
    /// What a push does when the queue is full.
    package enum Policy: Sendable, Equatable {
        /// The pusher waits for room (`push` answers `full`; nothing is dropped).
        case block
        /// The element pushed is dropped.
        case dropNewest
        /// The oldest waiting element is dropped to make room.
        case dropOldest
    }

    /// Why an element left the queue without being popped.
    package enum DropReason: Sendable, CaseIterable {
        /// Pushed (or waiting) when the queue was full: the consumer fell behind.
        case overrun
        /// Removed by `removeAll()`: the stage stopped or its consumer went away.
        case flush
    }

    /// What a push did.
    package enum Push {
        /// The element waits in the queue.
        case queued
        /// The queue was full: this element was dropped (the one pushed, or the oldest).
        case dropped(Element)
        /// The queue was full and its policy is `block`: nothing changed; push again when
        /// there is room.
        case full
    }

    /// How many elements may wait.
    package private(set) var capacity: Int
    /// What a push does when full.
    package private(set) var policy: Policy
    private var slots: [Element?]
    private var head = 0
    /// How many elements wait.
    package private(set) var count = 0
    private var dropCounts: [DropReason: Int] = [:]

    /// An empty queue for `capacity` (at least 1) elements.
    package init(capacity: Int, policy: Policy) {
        precondition(capacity > 0, "BoundedQueue needs a capacity of at least one element")
        self.capacity = capacity
        self.policy = policy
        slots = Array(repeating: nil, count: capacity)
    }

    /// Whether no element waits.
    package var isEmpty: Bool { count == 0 }
    /// Whether a push would drop or block.
    package var isFull: Bool { count >= capacity }

    /// How many elements were dropped for a reason since the queue was made.
    package func dropped(_ reason: DropReason) -> Int { dropCounts[reason, default: 0] }

    /// Changes the limit and the policy; elements beyond a smaller capacity are dropped,
    /// oldest first, as overruns.
    package mutating func reconfigure(capacity: Int, policy: Policy) -> [Element] {
        precondition(capacity > 0, "BoundedQueue needs a capacity of at least one element")
        self.policy = policy
        guard capacity != self.capacity else { return [] }
        var waiting: [Element] = []
        while let element = pop() { waiting.append(element) }
        let excess = max(0, waiting.count - capacity)
        dropCounts[.overrun, default: 0] += excess
        self.capacity = capacity
        slots = Array(repeating: nil, count: capacity)
        for element in waiting.dropFirst(excess) { append(element) }
        return Array(waiting.prefix(excess))
    }

    /// Adds an element at the end, or, when full, does what the policy says.
    package mutating func push(_ element: Element) -> Push {
        guard isFull else {
            append(element)
            return .queued
        }
        switch policy {
        case .block:
            return .full
        case .dropNewest:
            dropCounts[.overrun, default: 0] += 1
            return .dropped(element)
        case .dropOldest:
            dropCounts[.overrun, default: 0] += 1
            let oldest = pop()!
            append(element)
            return .dropped(oldest)
        }
    }

    /// Removes and returns the oldest element, nil when empty.
    package mutating func pop() -> Element? {
        guard count > 0 else { return nil }
        let element = slots[head]
        slots[head] = nil
        head = (head + 1) % capacity
        count -= 1
        return element
    }

    /// Removes every waiting element (counted as flushed); returns them, oldest first.
    @discardableResult
    package mutating func removeAll() -> [Element] {
        var removed: [Element] = []
        while let element = pop() { removed.append(element) }
        dropCounts[.flush, default: 0] += removed.count
        return removed
    }

    private mutating func append(_ element: Element) {
        slots[(head + count) % capacity] = element
        count += 1
    }
}
