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
}
