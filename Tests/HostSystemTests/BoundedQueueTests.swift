import OpenCoreMedia
import Testing
@testable import HostSystem

/// The one queue type between pipeline stages: each policy against a plain array model, the
/// ring's wrap-around, drop counts by reason, and reconfiguration.
@Suite(.timeLimit(.minutes(10))) struct BoundedQueueTests {
    /// Pushes and pops in a long pseudo-random mix, checking every answer against what the
    /// policy says an array of at most `capacity` elements would do.
    @Test(arguments: [BoundedQueue<Int>.Policy.block, .dropNewest, .dropOldest], [1, 3, 8])
    func followsItsPolicyLikeABoundedArray(policy: BoundedQueue<Int>.Policy, capacity: Int) {
        var queue = BoundedQueue<Int>(capacity: capacity, policy: policy)
        var model: [Int] = []
        var overruns = 0
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for value in 0..<5000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            if state >> 62 != 0 {  // three pushes for one pop: the queue fills up
                let outcome = queue.push(value)
                if model.count < capacity {
                    model.append(value)
                    guard case .queued = outcome else { Issue.record("\(value) not queued with room"); return }
                } else {
                    switch (policy, outcome) {
                    case (.block, .full): break
                    case (.dropNewest, .dropped(let dropped)):
                        overruns += 1
                        #expect(dropped == value)
                    case (.dropOldest, .dropped(let dropped)):
                        overruns += 1
                        #expect(dropped == model.removeFirst())
                        model.append(value)
                    default:
                        Issue.record("\(policy) answered \(outcome) when full")
                        return
                    }
                }
            } else {
                #expect(queue.pop() == (model.isEmpty ? nil : model.removeFirst()))
            }
            #expect(queue.count == model.count && queue.isFull == (model.count == capacity))
        }
        #expect(queue.dropped(.overrun) == overruns && queue.dropped(.flush) == 0)
        #expect(policy == .block ? overruns == 0 : overruns > 0)
        #expect(queue.removeAll() == model && queue.isEmpty)
        #expect(queue.dropped(.flush) == model.count)
    }

    @Test func reconfiguringKeepsTheNewestThatFit() {
        var queue = BoundedQueue<Int>(capacity: 4, policy: .dropNewest)
        for value in 1...4 { _ = queue.push(value) }
        #expect(queue.reconfigure(capacity: 1, policy: .dropOldest) == [1, 2, 3])
        #expect(queue.dropped(.overrun) == 3 && queue.count == 1)
        guard case .dropped(4) = queue.push(5) else { Issue.record("the oldest is dropped"); return }
        #expect(queue.reconfigure(capacity: 3, policy: .block).isEmpty)
        _ = queue.push(6)
        _ = queue.push(7)
        guard case .full = queue.push(8) else { Issue.record("a blocking queue answers full"); return }
        #expect([queue.pop(), queue.pop(), queue.pop(), queue.pop()] == [5, 6, 7, nil])
    }

    /// A piece of media for the limits by bytes and time: its size and duration.
    struct Piece: Equatable {
        var bytes: Int
        var milliseconds: Int
        static func measure(_ piece: Piece) -> (bytes: Int, duration: CMTime) {
            (piece.bytes, CMTime(value: CMTimeValue(piece.milliseconds), timescale: 1000))
        }
    }

    /// Full once any limit is reached (GStreamer's max-size-buffers, -bytes and -time), with
    /// the bytes and the duration waiting kept exactly as pieces come and go, against a model.
    @Test(arguments: [(count: 100, bytes: Int?.some(1000), milliseconds: Int?.none), (100, nil, 500), (3, nil, nil), (100, 800, 300)])
    func isFullOnceAnyLimitIsReached(count: Int, bytes: Int?, milliseconds: Int?) {
        let limits = BoundedQueue<Piece>.Limits(count: count, bytes: bytes, duration: milliseconds.map { CMTime(value: CMTimeValue($0), timescale: 1000) })
        var queue = BoundedQueue<Piece>(limits: limits, policy: .block, measure: Piece.measure)
        var model: [Piece] = []
        var state: UInt64 = 12345
        for _ in 0..<3000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let modelFull = model.count >= count || bytes.map { model.map(\.bytes).reduce(0, +) >= $0 } == true
                || milliseconds.map { model.map(\.milliseconds).reduce(0, +) >= $0 } == true
            #expect(queue.isFull == modelFull)
            if state >> 62 != 0 {
                let piece = Piece(bytes: Int(state >> 40 & 0xFF) + 1, milliseconds: Int(state >> 20 & 0x3F) + 1)
                switch queue.push(piece) {
                case .queued: #expect(!modelFull); model.append(piece)
                case .full: #expect(modelFull)
                case .dropped: Issue.record("a blocking queue drops nothing")
                }
            } else {
                #expect(queue.pop() == (model.isEmpty ? nil : model.removeFirst()))
            }
            #expect(queue.bytes == model.map(\.bytes).reduce(0, +))
            #expect(queue.duration == CMTime(value: CMTimeValue(model.map(\.milliseconds).reduce(0, +)), timescale: 1000))
            #expect(queue.first == model.first && queue.last == model.last)
            if !model.isEmpty { #expect(queue[model.count / 2] == model[model.count / 2]) }
        }
    }

    /// Overruns count every push that found the queue full, whatever the policy did; underruns
    /// every pop that found it empty.
    @Test func overrunsAndUnderrunsAreCounted() {
        var queue = BoundedQueue<Int>(capacity: 2, policy: .block)
        #expect(queue.pop() == nil && queue.underruns == 1)
        _ = queue.push(1)
        _ = queue.push(2)
        _ = queue.push(3)
        _ = queue.push(4)
        #expect(queue.overruns == 2 && queue.dropped(.overrun) == 0)
        _ = queue.reconfigure(capacity: 2, policy: .dropNewest)
        _ = queue.push(5)
        #expect(queue.overruns == 3 && queue.dropped(.overrun) == 1)
        #expect([queue.pop(), queue.pop(), queue.pop()] == [1, 2, nil] && queue.underruns == 2)
    }

    /// A growing queue keeps every element in order, whatever its limits: a push that finds the
    /// count limit reached doubles it (the ring keeps the waiting elements in order, wherever
    /// they wrapped), one that finds a limit by bytes reached queues past it; both count as
    /// overruns, and nothing is dropped.
    @Test func aGrowingQueueKeepsEveryElementInOrder() {
        var queue = BoundedQueue<Piece>(limits: .init(count: 2, bytes: 10), policy: .grow, measure: Piece.measure)
        var model: [Piece] = []
        var overruns = 0
        var state: UInt64 = 777
        for value in 0..<3000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // Mostly pushes at first, so the ring grows with its elements wrapped; then mostly pops.
            if state >> 60 < (value < 1500 ? 11 : 5) {
                let piece = Piece(bytes: value % 4, milliseconds: 1)
                let wasFull = queue.isFull
                let capacity = queue.capacity
                guard case .queued = queue.push(piece) else { Issue.record("a growing queue queues every push"); return }
                model.append(piece)
                if wasFull { overruns += 1 }
                #expect(queue.capacity == (model.count > capacity ? 2 * capacity : capacity))
            } else {
                #expect(queue.pop() == (model.isEmpty ? nil : model.removeFirst()))
            }
            #expect(queue.count == model.count && queue.bytes == model.map(\.bytes).reduce(0, +))
            #expect(queue.first == model.first && queue.last == model.last)
        }
        #expect(queue.overruns == overruns && overruns > 0)
        #expect(queue.dropped(.overrun) == 0 && queue.capacity >= model.count)
        #expect(queue.removeAll() == model)
    }
}
