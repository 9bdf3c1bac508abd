import Foundation

/// A thread of its own, below the recording's encoding in priority, that works on the newest
/// item handed to it: an item still waiting when a newer one comes is dropped (a `BoundedQueue`
/// of one, `dropOldest`), so the hand-over never waits and a slow machine does the work less
/// often, never later. For work that only matters for the newest picture: the browser page's
/// JPEG pictures, a metadata output's code reading.
///
/// The thread starts with the first hand-over and runs 10 nice steps below the process (`nice`)
/// until `stop()`; a later hand-over starts a new one. The work closure is called on these
/// threads one item at a time: a new thread waits for its predecessor's last item to be done, so
/// the work may keep state of its own without a lock.
package final class NewestItemThread<Item>: @unchecked Sendable {
    private let condition = NSCondition()
    /// Held while an item is worked on.
    private let working = NSLock()
    private var waiting = BoundedQueue<Item>(capacity: 1, policy: .dropOldest)
    /// Bumped by `stop()`: a thread started before it ends after its current item.
    private var generation = 0
    private var isRunning = false
    private let name: String
    private let work: (Item) -> Void

    /// How many nice steps below the process the thread runs: below a recording's encoding (5),
    /// which keeps every frame it can.
    package static var nice: Int32 { 10 }

    /// A worker whose thread is called `name` and does `work` to each item.
    package init(name: String, work: @escaping (Item) -> Void) {
        self.name = name
        self.work = work
    }

    /// Makes `item` the next one worked on (dropping one still waiting), starting the thread if
    /// none runs.
    package func handOver(_ item: Item) {
        condition.withLock {
            _ = waiting.push(item)
            condition.signal()
            guard !isRunning else { return }
            isRunning = true
            let generation = generation
            // The thread keeps the worker until `stop()`.
            let thread = Thread { [self] in
                ThreadPriority.lowerCallingThread(by: Self.nice)
                while let item = next(of: generation) { working.withLock { work(item) } }
            }
            thread.name = name
            thread.start()
        }
    }

    /// Drops the item waiting, if any, and ends the thread once its current item is done.
    package func stop() {
        condition.withLock {
            _ = waiting.pop()
            generation += 1
            isRunning = false
            condition.broadcast()
        }
    }

    /// The next item for a thread started in `generation`, waiting for one; nil once stopped.
    private func next(of generation: Int) -> Item? {
        condition.withLock {
            while self.generation == generation {
                if let item = waiting.pop() { return item }
                condition.wait()
            }
            return nil
        }
    }
}
