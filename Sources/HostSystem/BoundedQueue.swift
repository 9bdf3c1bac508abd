import OpenCoreMedia

/// A bounded first-in, first-out queue between two stages of a pipeline, in the manner of
/// GStreamer's `queue` element: its `limits` (how many elements, how many bytes, how long a
/// stretch of media: `max-size-buffers`, `-bytes`, `-time`) say when it is full, and `policy`
/// says what happens to an element pushed then — the pusher waits for room (`block`), the new
/// element is dropped (`dropNewest`, GStreamer's leaky upstream), the oldest waiting one is
/// (`dropOldest`, leaky downstream), or the count limit is raised (`grow`, as GStreamer's
/// multiqueue raises a full queue's while another of its demuxer runs empty). Drops are counted
/// by reason; overruns (a push that found the queue full) and underruns (a pop that found it
/// empty) are counted as GStreamer signals them.
///
/// Every hand-off of media or work between threads or stages uses it, with the policy that says
/// what it does:
/// - dropping, so that the source never waits: the capture data outputs (device thread to
///   delegate queue, and to each `sampleBuffers` iteration), a recording (device threads to
///   the writer), the still image capture, the preview layer's one picture (device thread to
///   the display thread), and the browser page's pictures and each visitor's picture and sound;
/// - blocking, so that nothing is lost: an export (reading thread to writer), a player's
///   reading (its sound read ahead, its pictures, its timed metadata) and the segments an
///   `AVAssetWriter` hands its delegate;
/// - growing: a reader's packets kept for one output while another reads (bounded by the
///   file's interleaving), the groups a metadata output holds until they are due (bounded by
///   the advance intervals) and the jobs for the display thread (requests about windows,
///   emptied every few milliseconds; the display thread enqueues too).
///
/// It is a value with no lock of its own: the owner keeps it behind its lock together with the
/// state that changes with it (a drain in progress, drop reports), and an owner whose pusher
/// waits (`block`) waits on its own condition while `push` answers `full`. The storage is a
/// ring of `limits.count` slots made once: pushing and popping allocate nothing (a `grow`
/// queue's ring doubles when its limit is reached, and keeps that size).
package struct BoundedQueue<Element> {
    /// What a push does when the queue is full.
    package enum Policy: Sendable, Equatable {
        /// The pusher waits for room (`push` answers `full`; nothing is dropped).
        case block
        /// The element pushed is dropped.
        case dropNewest
        /// The oldest waiting element is dropped to make room.
        case dropOldest
        /// The element is queued anyway: a count limit reached doubles (the ring with it), and
        /// limits by bytes or time are passed. Nothing is dropped and the pusher never waits:
        /// for a hand-off whose bound lies outside the queue (a file's interleaving, a window of
        /// time, requests made by hand), or whose pusher must not wait for its own consumer.
        case grow
    }

    /// When the queue is full: once any limit is reached.
    package struct Limits: Sendable, Equatable {
        /// How many elements may wait (at least one); for a `grow` queue, how many before its
        /// ring first doubles.
        package var count: Int
        /// How many bytes of elements may wait; nil: no limit.
        package var bytes: Int?
        /// How long a stretch of media may wait (the elements' durations added up); nil: no limit.
        package var duration: CMTime?

        /// Limits by count, and by bytes and duration when given.
        package init(count: Int, bytes: Int? = nil, duration: CMTime? = nil) {
            self.count = count
            self.bytes = bytes
            self.duration = duration
        }
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

    /// When the queue is full.
    package private(set) var limits: Limits
    /// How many elements may wait (`limits.count`; a `grow` queue's, until it next doubles).
    package var capacity: Int { limits.count }
    /// What a push does when full.
    package private(set) var policy: Policy
    /// The bytes and duration of an element, for the limits by bytes and time.
    private let measure: ((Element) -> (bytes: Int, duration: CMTime))?
    private var slots: [Element?]
    private var head = 0
    /// How many elements wait.
    package private(set) var count = 0
    /// How many bytes of elements wait (0 without a measure).
    package private(set) var bytes = 0
    /// How long a stretch of media waits (zero without a measure).
    package private(set) var duration: CMTime = .zero
    private var dropCounts: [DropReason: Int] = [:]
    /// How many pushes found the queue full, whatever the policy did (GStreamer's overrun).
    package private(set) var overruns = 0
    /// How many pops found the queue empty (GStreamer's underrun).
    package private(set) var underruns = 0

    /// An empty queue for `capacity` (at least 1) elements.
    package init(capacity: Int, policy: Policy) {
        self.init(limits: Limits(count: capacity), policy: policy, measure: nil)
    }

    /// An empty queue with `limits`; `measure` gives each element's bytes and duration (needed
    /// for limits by bytes or time).
    package init(limits: Limits, policy: Policy, measure: ((Element) -> (bytes: Int, duration: CMTime))?) {
        precondition(limits.count > 0, "BoundedQueue needs a capacity of at least one element")
        precondition(measure != nil || (limits.bytes == nil && limits.duration == nil),
                     "BoundedQueue limits by bytes or time need a measure of the elements")
        self.limits = limits
        self.policy = policy
        self.measure = measure
        slots = Array(repeating: nil, count: limits.count)
    }

    /// Whether no element waits.
    package var isEmpty: Bool { count == 0 }
    /// Whether a limit is reached: a push then does what the policy says.
    package var isFull: Bool {
        count >= limits.count
            || limits.bytes.map { bytes >= $0 } == true
            || limits.duration.map { duration >= $0 } == true
    }

    /// The oldest waiting element, left in the queue.
    package var first: Element? { count > 0 ? slots[head] : nil }
    /// The last element pushed and still waiting.
    package var last: Element? { count > 0 ? self[count - 1] : nil }

    /// The waiting element at `position` (0: the oldest), left in the queue.
    package subscript(position: Int) -> Element {
        precondition(position >= 0 && position < count, "BoundedQueue position \(position) out of 0..<\(count)")
        return slots[(head + position) % slots.count]!
    }

    /// How many elements were dropped for a reason since the queue was made.
    package func dropped(_ reason: DropReason) -> Int { dropCounts[reason, default: 0] }

    /// Changes the count limit and the policy; elements beyond a smaller capacity are dropped,
    /// oldest first, as overruns.
    package mutating func reconfigure(capacity: Int, policy: Policy) -> [Element] {
        precondition(capacity > 0, "BoundedQueue needs a capacity of at least one element")
        self.policy = policy
        guard capacity != limits.count else { return [] }
        var excess: [Element] = []
        while count > capacity { excess.append(take()!) }
        dropCounts[.overrun, default: 0] += excess.count
        resize(to: capacity)
        return excess
    }

    /// Adds an element at the end, or, when full, does what the policy says.
    package mutating func push(_ element: Element) -> Push {
        guard isFull else {
            append(element)
            return .queued
        }
        overruns += 1
        switch policy {
        case .block:
            return .full
        case .dropNewest:
            dropCounts[.overrun, default: 0] += 1
            return .dropped(element)
        case .dropOldest:
            dropCounts[.overrun, default: 0] += 1
            let oldest = take()!
            append(element)
            return .dropped(oldest)
        case .grow:
            if count == limits.count { resize(to: 2 * limits.count) }
            append(element)
            return .queued
        }
    }

    /// Removes and returns the oldest element; nil (an underrun) when empty.
    package mutating func pop() -> Element? {
        guard let element = take() else {
            underruns += 1
            return nil
        }
        return element
    }

    /// Removes every waiting element (counted as flushed); returns them, oldest first.
    @discardableResult
    package mutating func removeAll() -> [Element] {
        var removed: [Element] = []
        while let element = take() { removed.append(element) }
        dropCounts[.flush, default: 0] += removed.count
        return removed
    }

    /// Removes the oldest element, nil when empty.
    private mutating func take() -> Element? {
        guard count > 0 else { return nil }
        let element = slots[head]!
        slots[head] = nil
        head = (head + 1) % slots.count
        count -= 1
        if let measure {
            let size = measure(element)
            bytes -= size.bytes
            duration = count == 0 ? .zero : duration - size.duration
        }
        return element
    }

    /// Makes the count limit and the ring `capacity` long (at least `count`), keeping the
    /// waiting elements in order.
    private mutating func resize(to capacity: Int) {
        var resized: [Element?] = Array(repeating: nil, count: capacity)
        for position in 0..<count { resized[position] = slots[(head + position) % slots.count] }
        slots = resized
        head = 0
        limits.count = capacity
    }

    private mutating func append(_ element: Element) {
        slots[(head + count) % slots.count] = element
        count += 1
        if let measure {
            let size = measure(element)
            bytes += size.bytes
            duration = duration + size.duration
        }
    }
}
